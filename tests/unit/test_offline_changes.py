"""Offline rules: a change stated over time, real opposition only, code and posts left out."""

from __future__ import annotations

import pytest

from graphwiki_assets.core.llm.calls import ClaimPair, ConflictRequest
from graphwiki_assets.core.llm.offline.backend import OfflineLLM
from graphwiki_assets.core.llm.offline.changes import is_statement, marker


def _verdict(concept: str, new: str, old: str, aliases: list[str] | None = None):
    pair = ClaimPair(pair_id="p", concept=concept, concept_aliases=aliases or [], new_claim=new, existing_claim=old)
    (v,) = OfflineLLM().conflicts(ConflictRequest(pairs=[pair])).verdicts
    return v


CHANGES = [
    # another value of the release stage, with an aspect marker
    ("Lease renewal", "Lease renewal is now stable.", "Lease renewal is experimental."),
    # the same predicate, past tense against present
    ("Lease renewal", "Lease renewal was experimental.", "Lease renewal is experimental."),
    # a time qualifier in front of the subject
    ("Tessel", "As of version 4, Tessel is deprecated.", "Tessel is stable."),
    # a succession verb in the present perfect
    ("Tessel", "Tessel has been superseded by Prism.", "Tessel is stable."),
    # "no longer": a negation that says when
    ("Tessel", "Tessel no longer ships a web console.", "Tessel ships a web console."),
    # "is now P" presupposes "was not P": one adjective slot each
    ("Tessel", "Tessel is now immutable.", "Tessel is mutable."),
    # a transition stated in one claim: the stage after "to" is the state now
    (
        "Lease renewal",
        "Lease renewal graduated from experimental to general availability in version 3.8.",
        "In version 3.0, lease renewal is experimental and must be enabled.",
    ),
    ("Tessel", "Tessel is generally available.", "Tessel is in beta."),
]


@pytest.mark.parametrize("concept,new,old", CHANGES, ids=[c[1][:32] for c in CHANGES])
def test_a_change_over_time_is_a_candidate_contradiction(concept, new, old):
    v = _verdict(concept, new, old)
    assert v.relation == "contradicts", v.reason
    assert v.reason.startswith("a change over time"), v.reason


NOT_OPPOSED = [
    # a paraphrase: the same content in another order, no polarity or value change
    (
        "Tessel",
        "Tessel stores its index on disk and replicates it to every peer.",
        "Tessel replicates the index it stores on disk to every peer.",
        "supports",
    ),
    ("Tessel", "Tessel is now stable.", "Tessel is now considered stable.", "supports"),
    # the negation governs something the other claim never asserts
    (
        "Tessel",
        "Tessel does not need a separate coordinator because it elects a leader.",
        "Tessel elects a leader among its peers.",
        "unrelated",
    ),
    # a change of one slot said of two different subjects
    ("Tessel", "The v2 protocol is now stable.", "The v3 protocol is experimental.", "unrelated"),
    # "is now P" against a multi-word description: not one slot
    ("Tessel", "Tessel is now faster.", "Tessel is open source software.", "unrelated"),
    # the same stage in both tenses of "is now": no change
    ("Tessel", "Tessel is stable.", "Tessel is now stable.", "supports"),
    # a negated stage is not another stage ("no longer experimental" agrees with "stable")
    ("Tessel", "Tessel is no longer experimental.", "Tessel is stable.", "unrelated"),
]


@pytest.mark.parametrize("concept,new,old,expected", NOT_OPPOSED, ids=[c[1][:32] for c in NOT_OPPOSED])
def test_no_opposition_is_no_contradiction(concept, new, old, expected):
    v = _verdict(concept, new, old)
    assert v.relation == expected, v.reason


@pytest.mark.parametrize(
    "new,old",
    [
        ("Start it with tessel --no-sync --data-dir=/var/lib/tessel", "Start it with tessel --sync"),
        ("RT @tessel: Tessel 2.0 is not out yet! https://t.co/abc", "Tessel 2.0 is out."),
        ('{ "sync": false, "peers": [] }', "Tessel syncs with its peers."),
    ],
)
def test_code_and_posts_oppose_nothing(new, old):
    v = _verdict("Tessel", new, old)
    assert v.relation == "unrelated"
    assert "not both statements" in v.reason


def test_prose_with_one_flag_is_still_a_statement():
    assert is_statement("Tessel enables compaction by default unless --no-compact is given.")
    assert not is_statement("tessel --data-dir=/x --peer=a:1 --peer=b:2")


def test_markers_are_grammar_not_topics():
    assert marker("The index is now rebuilt in the background.") == "is now"
    assert marker("Since version 3, the index is kept in memory.") == "Since version"
    assert marker("The index is kept in memory.") is None


def test_a_plain_negation_keeps_its_own_reason():
    v = _verdict("Tessel", "Tessel does not support Windows.", "Tessel supports Windows.")
    assert v.relation == "contradicts"
    assert v.reason == "one claim negates the other"
