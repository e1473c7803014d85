"""PageRank on the named projection: direct before indirect, weighted seeds, kept fresh."""

from __future__ import annotations

import pytest

from graphwiki_assets.core.query import cypher, flat_sources, refresh_projection, retrieve_sources
from graphwiki_assets.core.query.ppr import node_ids, rank_related
from graphwiki_assets.core.query.projection import current_projection, ensure_projection, projection_status
from graphwiki_assets.core.query.retrieval import RetrievalConfig, concept_seeds, seed_groups
from tests.support.seed_graph import CONCEPTS


@pytest.mark.parametrize("seed", ["c-cypher", "c-docker", "c-gds"])
def test_ppr_ranks_directly_connected_concepts_above_indirect_ones(seed_graph, seed):
    ranked, newer = rank_related(seed_graph, [seed], k=len(CONCEPTS), damping=0.5)
    scores = dict(ranked)
    assert newer == []
    direct = {
        r["id"]
        for r in seed_graph.query(
            "MATCH (:Concept {id: $id})-[:RELATED_TO|PART_OF]-(n:Concept) RETURN DISTINCT n.id AS id", id=seed
        )
    }
    indirect = set(scores) - direct
    assert direct and indirect and seed not in scores
    assert min(scores[d] for d in direct) > max(scores[i] for i in indirect)


def test_weighted_seeds_equal_the_weighted_sum_of_single_seed_runs(seed_graph):
    """GDS weighs sourceNodes equally; PPR is linear, so weighted groups are summed runs."""
    ids = node_ids(seed_graph, ["c-gql", "c-kubernetes"])
    projection = current_projection(seed_graph)["name"]
    groups = seed_groups({ids["c-gql"]: 1.0, ids["c-kubernetes"]: 0.25}, ratio=2.0)
    assert [g["weight"] for g in groups] == [1.0, 0.25]
    combined = {
        r["id"]: r["score"]
        for r in seed_graph.query(
            cypher.WEIGHTED_PPR_SOURCES,
            graph=projection,
            groups=groups,
            damping=0.5,
            iterations=40,
            k=50,
            concurrency=1,
        )
    }
    single = {}
    for cid, weight in (("c-gql", 1.0), ("c-kubernetes", 0.25)):
        for r in seed_graph.query(
            "CALL gds.pageRank.stream($g, {sourceNodes: [$n], dampingFactor: 0.5, maxIterations: 40, "
            "relationshipWeightProperty: 'weight'}) YIELD nodeId, score "
            "WITH gds.util.asNode(nodeId) AS n, score WHERE n:Source RETURN n.id AS id, score",
            g=projection,
            n=ids[cid],
        ):
            single[r["id"]] = single.get(r["id"], 0.0) + weight * r["score"]
    assert combined.keys() == {s for s, v in single.items() if v > 0} - {"src-neo4j-old"}
    for sid, score in combined.items():
        assert score == pytest.approx(single[sid], rel=1e-6)


def test_seed_groups_bucket_close_weights_and_drop_negligible_ones():
    groups = seed_groups({1: 1.0, 2: 0.9, 3: 0.3, 4: 0.001}, ratio=2.0, min_share=1 / 64)
    assert [sorted(g["nodes"]) for g in groups] == [[1, 2], [3]]
    assert groups[0]["weight"] == pytest.approx(0.95)


def test_seeds_are_weighted_by_specificity(seed_graph, embedder):
    question = "How are Neo4j and GQL related?"
    seeds = concept_seeds(seed_graph, question, embedder.encode_one(question), RetrievalConfig())
    # both are named in the question (score 1); Neo4j derives from 7 sources, GQL from 1
    assert seeds["c-gql"] == pytest.approx(1.0)
    assert seeds["c-neo4j"] == pytest.approx(1 / 7)


def test_ppr_ranks_the_sources_around_the_question_entities(seed_graph, embedder):
    ranked = retrieve_sources(seed_graph, embedder, "Tell me about GQL", k=3, method="ppr")
    assert len(ranked) == 3 and ranked[0][0] == "src-cypher"  # GQL's only source
    assert [s for _, s in ranked] == sorted((s for _, s in ranked), reverse=True)
    for method in ("ppr", "bridge", "traversal"):
        assert "src-neo4j-old" not in [
            s for s, _ in retrieve_sources(seed_graph, embedder, "Neo4j 4.4 LTS", k=12, method=method)
        ]


def test_traversal_and_flat_methods(seed_graph, embedder):
    walked = retrieve_sources(seed_graph, embedder, "Tell me about GQL", k=4, hops=1, method="traversal")
    assert walked[0][0] == "src-cypher" and len(walked) == 4
    flat = flat_sources(seed_graph, embedder, "Which port does Bolt listen on?", 2)
    assert flat[0][0] == "src-bolt" and flat[0][1] >= flat[1][1]
    assert retrieve_sources(seed_graph, embedder, "Which port does Bolt listen on?", 2, method="flat") == flat
    with pytest.raises(ValueError, match="method"):
        retrieve_sources(seed_graph, embedder, "x", 2, method="bfs")


def test_the_projection_is_kept_not_rebuilt_per_query_and_refreshed_after_change(seed_graph, embedder):
    status = projection_status(seed_graph)
    assert status.exists and not status.stale and {"DERIVED_FROM", "ABOUT", "RELATED_TO"} <= set(status.types)
    assert (
        status.nodes
        == seed_graph.query("MATCH (n) WHERE n:Concept OR n:Claim OR n:Source RETURN count(n) AS n")[0]["n"]
    )
    retrieve_sources(seed_graph, embedder, "Tell me about GQL", k=3, method="ppr")
    assert ensure_projection(seed_graph)["name"] == status.name  # queries only stream from it
    seed_graph.query("CREATE (:Concept {id: 'c-new', name: 'New', type: 'Concept', status: 'current'})")
    assert projection_status(seed_graph).stale
    retrieve_sources(seed_graph, embedder, "Tell me about GQL", k=3, method="ppr")
    assert current_projection(seed_graph)["name"] == status.name  # a moved graph is not rebuilt by a query
    fresh = refresh_projection(seed_graph)
    assert fresh.refreshed and not fresh.stale and fresh.nodes == status.nodes + 1 and fresh.name != status.name
    builds = seed_graph.query("CALL gds.graph.list() YIELD graphName RETURN collect(graphName) AS names")[0]["names"]
    # the older build and its concept layer are dropped once the new ones are complete
    assert sorted(builds) == sorted([fresh.name, fresh.name.replace("@", "-concepts@")])
    for name in builds:
        seed_graph.query("CALL gds.graph.drop($g) YIELD graphName RETURN graphName", g=name)
    # missing (a restart): GDS's path builds it once
    assert rank_related(seed_graph, ["c-cypher"], k=2, damping=0.5, via="cypher")[0]


def test_seeds_written_after_the_last_refresh_are_left_out_not_an_error(seed_graph, embedder):
    seed_graph.query("""
        MATCH (g:Concept {id: 'c-gql'})
        CREATE (n:Concept {id: 'c-newer', name: 'Newer', type: 'Concept', status: 'current'})-[:RELATED_TO
               {weight: 1}]->(g)""")
    # GDS ranks on its projection, which does not hold the newer seed yet
    ranked, newer = rank_related(seed_graph, ["c-newer", "c-cypher"], k=3, damping=0.5, via="cypher")
    assert newer == ["c-newer"] and ranked  # c-cypher still ranks
    ranked, newer = rank_related(seed_graph, ["c-newer"], k=3, damping=0.5, via="cypher")
    assert (ranked, newer) == ([], ["c-newer"])
    # local pushes read the live graph: the newer seed is ranked at once
    ranked, newer = rank_related(seed_graph, ["c-newer"], k=3, damping=0.5, via="local")
    assert newer == [] and ranked[0][0] == "c-gql"
    assert retrieve_sources(seed_graph, embedder, "Newer and GQL", k=3, method="ppr")


def test_a_refresh_never_pulls_the_projection_from_under_a_query(seed_graph):
    """A query holding a build that a refresh has dropped asks again, on the newer build."""
    from graphwiki_assets.core.query.projection import with_projection

    old = current_projection(seed_graph)["name"]
    calls = []

    def work(projection):
        calls.append(projection["name"])
        if len(calls) == 1:
            refresh_projection(seed_graph)  # a writer refreshes between the lookup and the stream
        return seed_graph.query(
            "CALL gds.pageRank.stream($g, {maxIterations: 2}) YIELD nodeId RETURN count(*) AS n", g=projection["name"]
        )[0]["n"]

    assert with_projection(seed_graph, work) > 0
    assert calls[0] == old and calls[1] != old


# An invented corpus (no world knowledge can help): the waterfall's passage never names the
# river, and other waterfall passages are closer to the question's wording than it is.
BRIDGE_SOURCES = {
    "s-river": (
        "Varn River",
        "The Varn River rises in the hills of Oskeland and flows north into the Tull.",
        ["Varn River", "Oskeland", "Tull"],
    ),
    "s-falls": (
        "Brennick Falls",
        "Brennick Falls drops two hundred metres into a gorge in the south of Oskeland.",
        ["Brennick Falls", "Oskeland"],
    ),
    "s-mallow": (
        "Mallow Falls",
        "Mallow Falls is the tallest waterfall of Dantria, a country of rivers.",
        ["Mallow Falls", "Dantria"],
    ),
    "s-quell": (
        "Quell Falls",
        "Quell Falls is a waterfall on a river in Dantria that tourists visit in spring.",
        ["Quell Falls", "Dantria"],
    ),
    "s-harn": (
        "Harn Falls",
        "Harn Falls is a famous waterfall where a river leaves the Perrow plateau.",
        ["Harn Falls", "Perrow"],
    ),
    "s-tull": ("Tull", "The Tull is a river that reaches the sea at Corrane.", ["Tull", "Corrane"]),
}
BRIDGE_QUESTION = "What is the name of the waterfall in the country where the Varn River rises?"


@pytest.fixture
def bridge_graph(store, embedder):
    for sid, (title, text, names) in BRIDGE_SOURCES.items():
        store.query(
            "CREATE (:Source {id: $id, title: $title, text: $text, status: 'current', embedding: $e})",
            id=sid,
            title=title,
            text=text,
            e=embedder.encode_one(f"{title}\n\n{text}"),
        )
        for name in names:
            store.query(
                "MERGE (c:Concept {id: $cid}) ON CREATE SET c.name = $name, c.status = 'current' "
                "WITH c MATCH (s:Source {id: $sid}) MERGE (c)-[:DERIVED_FROM]->(s)",
                cid="c-" + name.lower().replace(" ", "-"),
                name=name,
                sid=sid,
            )
    return store


def test_bridge_reaches_the_passage_that_shares_a_concept_with_the_best_match(bridge_graph, embedder):
    flat = [sid for sid, _ in flat_sources(bridge_graph, embedder, BRIDGE_QUESTION, 3)]
    assert flat[0] == "s-river" and "s-falls" not in flat[:2]  # the premise: flat ranks it low
    ranked = retrieve_sources(bridge_graph, embedder, BRIDGE_QUESTION, k=2, method="bridge")
    assert [sid for sid, _ in ranked] == ["s-river", "s-falls"]  # bridged through Oskeland
    assert ranked[0][1] >= ranked[1][1]


def test_bridge_does_not_follow_concepts_in_too_many_passages(bridge_graph, embedder):
    # With Oskeland over the degree cap only the passages' own cosines remain: flat's order.
    capped = retrieve_sources(
        bridge_graph, embedder, BRIDGE_QUESTION, k=3, method="bridge", config=RetrievalConfig(max_bridge_degree=1)
    )
    assert [sid for sid, _ in capped] == [sid for sid, _ in flat_sources(bridge_graph, embedder, BRIDGE_QUESTION, 3)]


def test_bridge_is_the_default_graph_method(bridge_graph, embedder):
    assert retrieve_sources(bridge_graph, embedder, BRIDGE_QUESTION, k=2) == retrieve_sources(
        bridge_graph, embedder, BRIDGE_QUESTION, k=2, method="bridge"
    )
