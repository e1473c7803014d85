"""A node is in play unless superseded, with or without a status: one rule for every query."""

from __future__ import annotations

import re
from pathlib import Path

import graphwiki_assets
from graphwiki_assets.core.store.schema import in_play

PACKAGE = Path(graphwiki_assets.__file__).parent
# Any Cypher comparison of a status with 'superseded' that keeps what is not superseded.
FILTER = re.compile(r"(?:coalesce\(\s*)?(\w+)\.status(?:\s*,\s*'[^']*'\s*\))?\s*<>\s*'superseded'")


def test_every_written_out_in_play_filter_is_the_one_rule():
    found = 0
    for path in sorted(PACKAGE.rglob("*.py")):
        for match in FILTER.finditer(path.read_text()):
            found += 1
            assert match.group(0) == in_play(match.group(1)), f"{path.relative_to(PACKAGE)}: {match.group(0)}"
    assert found  # core/review/cypher.py holds plain constants, so it writes the rule out


def test_a_node_without_a_status_is_in_play(store):
    store.query(
        "CREATE (:Concept {id: 'a'}), (:Concept {id: 'b', status: 'current'}), "
        "(:Concept {id: 'c', status: 'disputed'}), (:Concept {id: 'd', status: 'superseded'})"
    )
    rows = store.query(f"MATCH (n:Concept) WHERE {in_play('n')} RETURN n.id AS id ORDER BY id")
    assert [r["id"] for r in rows] == ["a", "b", "c"]
