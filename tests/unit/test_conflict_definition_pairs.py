"""Two definitions of one concept are compared for a contradiction however far apart their
vectors are: the names they open with may be aliases the vectors do not know are one."""

from __future__ import annotations

from graphwiki_assets.core.ingest.compared import Existing
from graphwiki_assets.core.ingest.conflicts import _other_definitions

NAMES = {"c1": ("Quarrel", ["QL", "Quarrel Language"])}


def _existing(cid: str, text: str) -> Existing:
    return Existing(cid, text, "current", [0.0], None, None, frozenset({"a.md"}))


def test_a_definition_under_an_alias_is_paired_with_the_new_definition():
    rest = [(0.1, _existing("x1", "QL is a compiled language."), "c1")]
    assert [o.id for _, o, _ in _other_definitions("Quarrel is an interpreted language.", rest, NAMES)] == ["x1"]


def test_claims_that_define_nothing_are_left_to_the_similarity_screen():
    rest = [
        (0.1, _existing("x1", "QL queries run in a sandbox."), "c1"),
        (0.1, _existing("x2", "Parsers are a kind of program."), "c1"),
    ]
    assert _other_definitions("Quarrel is an interpreted language.", rest, NAMES) == []
    assert (
        _other_definitions("Quarrel runs everywhere.", [(0.1, _existing("x3", "QL is a language."), "c1")], NAMES) == []
    )
