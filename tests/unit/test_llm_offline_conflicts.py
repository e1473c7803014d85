"""Offline contradiction check between two claims about one concept."""

from __future__ import annotations

import pytest

from graphwiki_assets.core.llm.calls import ClaimPair, ConflictRequest
from graphwiki_assets.core.llm.offline.backend import OfflineLLM

CASES = [
    # negation over the same content
    ("Cypher", "Cypher is declarative.", "Cypher is not declarative.", "contradicts"),
    ("Vexa", "Vexa supports streaming replication.", "Vexa does not support streaming replication.", "contradicts"),
    ("Vexa", "Vexa supports streaming replication.", "Vexa no longer supports streaming replication.", "contradicts"),
    ("Kortel", "Kortel has never published its source code.", "Kortel published its source code.", "contradicts"),
    ("Kortel", "Kortel isn't open source.", "Kortel is open source.", "contradicts"),
    # antonyms over the same content
    ("Cypher", "Cypher is a declarative query language.", "Cypher is an imperative query language.", "contradicts"),
    ("Kell Bridge", "The bridge is open to traffic.", "The bridge is closed to traffic.", "contradicts"),
    ("Rates", "Interest rates increased in 2020.", "Interest rates decreased in 2020.", "contradicts"),
    ("Vexa", "The feature is supported on Linux.", "The feature is unsupported on Linux.", "contradicts"),
    ("Vexa", "The Vexa store is stateful.", "The Vexa store is stateless.", "contradicts"),
    ("Orrin", "The west wing was built before the chapel.", "The west wing was built after the chapel.", "contradicts"),
    # numbers for the same quantity
    ("Orrin Trust", "The Orrin Trust was founded in 1921.", "The Orrin Trust was founded in 1923.", "contradicts"),
    ("Orrin Trust", "The Orrin Trust has 12 trustees.", "The Orrin Trust has 15 trustees.", "contradicts"),
    # the same thing said twice
    ("Paris", "Paris is the capital of France.", "Paris is the capital and largest city of France.", "supports"),
    ("Cypher", "Cypher was created by Neo4j.", "Cypher was created by Neo4j.", "supports"),
    # negation and antonym cancel out
    ("Kell Bridge", "The bridge is open to traffic.", "The bridge is not closed to traffic.", "supports"),
    # the same statement about two different named things
    (
        "Hardin County",
        "Roundhead Township is one of the townships of Hardin County.",
        "Goshen Township is one of the townships of Hardin County.",
        "unrelated",
    ),
    (
        "Poland",
        "Gmina Elk is a district in northern Poland.",
        "Gmina Jordan is a district in southern Poland.",
        "unrelated",
    ),
    # a date that only says when something was reported is not the quantity
    ("Kortel", "As of 2018, Kortel had no office in Asia.", "As of 2017, Kortel had no office in Asia.", "supports"),
    # different aspects
    ("Paris", "Paris hosted the 1924 Summer Olympics.", "Paris has a mild oceanic climate.", "unrelated"),
    (
        "Dunmore",
        "The population was 12,741 at the 2010 census.",
        "The population was 13,492 at the 2000 census.",
        "unrelated",
    ),
    ("Cypher", "Cypher is not only declarative but also concise.", "Cypher is hard to learn.", "unrelated"),
]


@pytest.mark.parametrize("concept,new,old,expected", CASES, ids=[f"{c[3]}:{c[1][:30]}" for c in CASES])
def test_relation(concept, new, old, expected):
    resp = OfflineLLM().conflicts(
        ConflictRequest(pairs=[ClaimPair(pair_id="p", concept=concept, new_claim=new, existing_claim=old)])
    )
    (v,) = resp.verdicts
    assert v.relation == expected, v.reason
    assert v.reason


def test_reasons_name_the_opposite_words_as_written():
    pair = ClaimPair(
        pair_id="p", concept="Cypher", new_claim="Cypher is declarative.", existing_claim="Cypher is imperative."
    )
    (v,) = OfflineLLM().conflicts(ConflictRequest(pairs=[pair])).verdicts
    assert "declarative" in v.reason and "imperative" in v.reason


def test_opposite_definitions_under_another_name_of_the_concept_contradict():
    # The claims share nothing but the defining adjective; the subject is an alias.
    pair = ClaimPair(
        pair_id="p",
        concept="Cypher",
        concept_aliases=["CQL"],
        new_claim="CQL is an imperative language in which the user spells out each step.",
        existing_claim="Cypher is a declarative query language for property graphs.",
    )
    (v,) = OfflineLLM().conflicts(ConflictRequest(pairs=[pair])).verdicts
    assert v.relation == "contradicts"
    assert "imperative" in v.reason and "declarative" in v.reason


def test_definitions_of_different_subjects_do_not_contradict():
    pair = ClaimPair(
        pair_id="p",
        concept="Cypher",
        concept_aliases=["CQL"],
        new_claim="Java is an imperative language.",
        existing_claim="Cypher is a declarative query language.",
    )
    (v,) = OfflineLLM().conflicts(ConflictRequest(pairs=[pair])).verdicts
    assert v.relation != "contradicts"
