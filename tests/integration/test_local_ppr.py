"""'What else relates to X' by local pushes: the ranking GDS computes over the whole
projection, read a few nodes at a time from the live graph."""

from __future__ import annotations

import pytest

from graphwiki_assets.core.evals.generator import generate
from graphwiki_assets.core.query import ask, local_ppr
from graphwiki_assets.core.query.ppr import rank_related
from graphwiki_assets.core.query.projection import refresh_projection


@pytest.fixture
def generated(store, embedder):
    generate(store, 400, embedder.dimension, seed=5, replace=True)
    refresh_projection(store)
    return store


def _exact(store, seed: str) -> dict[str, float]:
    """Every concept's PPR score from GDS run to a tolerance far below the pushes' own."""
    layer = store.query(
        "CALL gds.graph.list() YIELD graphName WHERE graphName STARTS WITH 'graphwiki-query-concepts' "
        "RETURN graphName ORDER BY graphName DESC LIMIT 1"
    )[0]["graphName"]
    rows = store.query(
        "MATCH (c:Concept {id: $seed}) WITH id(c) AS node "
        "CALL gds.pageRank.stream($layer, {sourceNodes: [node], dampingFactor: 0.5, "
        "relationshipWeightProperty: 'weight', tolerance: 1e-10, maxIterations: 500}) "
        "YIELD nodeId, score RETURN gds.util.asNode(nodeId).id AS id, score",
        seed=seed,
        layer=layer,
    )
    return {r["id"]: r["score"] for r in rows}


def test_the_pushes_rank_what_gds_ranks(generated):
    seeds = [r["id"] for r in generated.query("MATCH (c:Concept)-[:RELATED_TO]-() RETURN DISTINCT c.id AS id LIMIT 8")]
    for seed in seeds:
        exact = _exact(generated, seed)
        pushed = local_ppr.rank(generated, [seed], 0.5, 8)
        assert pushed, seed
        best = sorted((s for cid, s in exact.items() if cid != seed and s > 0), reverse=True)[:8]
        # each concept the pushes rank is one GDS ranks as high, up to a tie at the cut
        for row in pushed:
            assert exact[row["id"]] >= best[-1] - 1e-6, (seed, row)
        # and the scores are GDS's up to one scale (GDS gives the seed 1 - damping, the pushes 1)
        scale = pushed[0]["score"] / exact[pushed[0]["id"]]
        for row in pushed[:3]:
            assert row["score"] == pytest.approx(exact[row["id"]] * scale, rel=0.05), (seed, row)


def test_a_concept_written_after_the_projection_is_ranked_at_once(generated):
    seed = generated.query("MATCH (c:Concept)-[:RELATED_TO]-() RETURN c.id AS id LIMIT 1")[0]["id"]
    generated.query(
        "MATCH (s:Concept {id: $seed}) CREATE (n:Concept {id: 'fresh-one', name: 'Fresh One', status: 'current'}) "
        "CREATE (n)-[:RELATED_TO {weight: 50.0}]->(s)",
        seed=seed,
    )
    ranked, newer = rank_related(generated, ["fresh-one"], 8, 0.5, via="local")
    assert newer == [] and ranked and ranked[0][0] == seed
    by_gds, newer_gds = rank_related(generated, ["fresh-one"], 8, 0.5, via="cypher")
    assert newer_gds == ["fresh-one"] and by_gds == []


def test_superseded_concepts_are_not_ranked(generated):
    seed = generated.query("MATCH (c:Concept)-[:RELATED_TO]-() RETURN c.id AS id LIMIT 1")[0]["id"]
    first = local_ppr.rank(generated, [seed], 0.5, 8)[0]["id"]
    generated.query("MATCH (c:Concept {id: $id}) SET c.status = 'superseded'", id=first)
    assert first not in {r["id"] for r in local_ppr.rank(generated, [seed], 0.5, 8)}


def test_a_related_question_says_how_it_ranked(seed_graph, embedder, offline_llm):
    asked = {
        via: ask(seed_graph, embedder, offline_llm, "What else relates to Cypher?", shape="related", ppr_via=via)
        for via in ("cypher", "local")
    }
    assert asked["local"].found and asked["local"].details["via"] == "local"
    assert asked["local"].details["ranking"][0]["id"] == asked["cypher"].details["ranking"][0]["id"]
