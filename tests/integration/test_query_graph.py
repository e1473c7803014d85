"""The seed-style test graph (tests/support/seed_graph.py) keeps to the schema."""

from __future__ import annotations

from tests.support.seed_graph import assert_schema, build_seed_graph


def test_fixture_follows_the_schema(store, embedder):
    build_seed_graph(store, embedder)
    assert_schema(store)
    disputes = store.query("MATCH (a:Claim)-[:CONTRADICTS]->(b:Claim) RETURN a.status AS a, b.status AS b")
    assert disputes == [{"a": "disputed", "b": "disputed"}]
