"""The generated benchmark graph: ingest's schema and shape (skewed degrees, hubs, disputes),
deterministic, and grown in place (the small graph is the beginning of the large one)."""

from __future__ import annotations

import pytest

from graphwiki_assets.core.evals.generator import generate
from graphwiki_assets.core.evals.generator_plan import concept_name, plan
from graphwiki_assets.core.store.keys import name_key
from tests.support.seed_graph import assert_schema, build_seed_graph

SNAPSHOT = """
CALL () { MATCH (n) RETURN collect(n.id + '|' + coalesce(n.status, '') + '|' + toString(coalesce(n.source_count, 0))
                       + '|' + coalesce(n.type, '')) AS nodes }
CALL () { MATCH (a)-[r]->(b) RETURN collect(a.id + '-' + type(r) + coalesce(r.kind, '') + '->' + b.id + '|'
                                   + toString(coalesce(r.weight, 0))) AS edges }
RETURN nodes, edges
"""


def _snapshot(store) -> dict:
    found = store.query(SNAPSHOT)[0]
    return {"nodes": sorted(found["nodes"]), "edges": sorted(found["edges"])}


def test_the_plan_is_deterministic_and_names_are_unique_keys():
    first = [(s.id, [c["name"] for c in s.concepts], [c["text"] for c in s.claims]) for s in plan(600, seed=5)]
    assert first == [(s.id, [c["name"] for c in s.concepts], [c["text"] for c in s.claims]) for s in plan(600, seed=5)]
    assert first != [(s.id, [c["name"] for c in s.concepts], [c["text"] for c in s.claims]) for s in plan(600, seed=6)]
    keys = [name_key(concept_name(i, "Concept")) for i in range(20_000)]
    assert len(set(keys)) == len(keys)


def test_the_generated_graph_follows_ingests_schema_and_shape(store, embedder):
    made = generate(store, 600, embedder.dimension, seed=1)
    graph = made.graph
    assert graph["concepts"] >= 600 and graph["sources"] == made.sources_planned == made.sources_written
    assert graph["contradictions"] > 0
    assert_schema(store)
    # disputed <=> an open CONTRADICTS
    assert (
        store.query(
            "MATCH (c:Claim) WHERE (c.status = 'disputed') <> EXISTS { (c)-[:CONTRADICTS]-() } RETURN count(c) AS n"
        )[0]["n"]
        == 0
    )
    types = {r["t"] for r in store.query("MATCH ()-[r]->() RETURN DISTINCT type(r) AS t")}
    assert types == {"DERIVED_FROM", "ABOUT", "RELATED_TO", "NOT_SAME_AS", "CONTRADICTS", "PART_OF"}
    assert store.query("MATCH ()-[r:PART_OF]->() RETURN count(r) AS n")[0]["n"] > 0
    degrees = sorted(r["d"] for r in store.query("MATCH (c:Concept) RETURN COUNT { (c)-[:RELATED_TO]-() } AS d"))
    assert degrees[-1] >= 8 * max(1, degrees[len(degrees) // 2])  # skewed: a few hubs, most concepts small
    hub = store.query("MATCH (c:Concept) RETURN c.id AS id ORDER BY c.source_count DESC LIMIT 1")[0]["id"]
    assert hub in {f"gen1-c{i}" for i in range(5)}
    # the vectors are the model's dimension and the index serves them
    probe = embedder.encode_one("a question")
    for index in ("concept_embedding", "claim_embedding", "source_embedding"):
        assert (
            len(
                store.query(
                    "CALL db.index.vector.queryNodes($i, 3, $v) YIELD node RETURN node.id AS id", i=index, v=probe
                )
            )
            == 3
        )
    assert store.query("MATCH (c:Concept {id: 'gen1-c7'}) RETURN c.keys AS keys")[0]["keys"]


def test_growing_a_generated_graph_writes_only_what_it_lacks_and_equals_generating_it_at_once(store, embedder):
    small = generate(store, 200, embedder.dimension, seed=2)
    grown = generate(store, 500, embedder.dimension, seed=2)
    assert grown.sources_written == grown.sources_planned - small.sources_planned
    again = generate(store, 500, embedder.dimension, seed=2)
    assert again.sources_written == 0
    stepwise = _snapshot(store)
    store.query("MATCH (n) DETACH DELETE n")
    generate(store, 500, embedder.dimension, seed=2)
    assert _snapshot(store) == stepwise


def test_a_graph_that_is_not_a_smaller_generated_one_is_replaced_only_when_asked(store, embedder):
    build_seed_graph(store, embedder)
    with pytest.raises(RuntimeError, match="other nodes"):
        generate(store, 100, embedder.dimension, seed=0)
    made = generate(store, 100, embedder.dimension, seed=0, replace=True)
    assert store.query("MATCH (c:Concept {id: 'c-neo4j'}) RETURN count(c) AS n")[0]["n"] == 0
    assert made.graph["concepts"] >= 100
    with pytest.raises(RuntimeError):  # a larger graph of the same seed cannot shrink
        generate(store, 20, embedder.dimension, seed=0)
