"""Stored neighbourhood signatures: equal to the live ones, refreshed where the graph moved,
and "shaped like X" over them ranks as a comparison with every concept would."""

from __future__ import annotations

from graphwiki_assets.core.evals.generator import generate
from graphwiki_assets.core.query import ask, cypher
from graphwiki_assets.core.query.models import QueryOptions
from graphwiki_assets.core.query.patterns import shaped_like
from graphwiki_assets.core.query.signatures import lucene_query, refresh_signatures, stale, weighted_jaccard
from tests.support.seed_graph import CONCEPTS, build_seed_graph

LIVE = """
MATCH (x:Concept {id: $id})-[r:RELATED_TO|PART_OF]-(m:Concept)
WHERE m.status <> 'superseded'
WITH CASE WHEN type(r) = 'RELATED_TO' THEN 'related' WHEN startNode(r) = x THEN 'part_of>' ELSE 'part_of<' END
     + ':' + m.type AS entry, m
RETURN entry, count(DISTINCT m) AS n
"""


def _stored(store) -> dict[str, dict[str, int]]:
    return {
        r["id"]: dict(zip(r["entries"] or [], r["counts"] or []))
        for r in store.query(
            "MATCH (c:Concept) RETURN c.id AS id, c.shape_entries AS entries, c.shape_counts AS counts"
        )
    }


def _live(store, cid: str) -> dict[str, int]:
    return {r["entry"]: r["n"] for r in store.query(LIVE, id=cid)}


def test_stored_signatures_are_the_live_neighbourhood_counts(store, embedder):
    build_seed_graph(store, embedder)
    assert len(stale(store)) == len(CONCEPTS)  # nothing stored yet
    done = refresh_signatures(store)
    assert done == {"stale": len(CONCEPTS), "written": len(CONCEPTS)}
    stored = _stored(store)
    assert stored["c-apoc"] == {"related:Database": 1, "related:Organization": 1, "related:Programming Language": 1}
    assert all(stored[cid] == _live(store, cid) for cid in CONCEPTS)
    assert stale(store) == [] and refresh_signatures(store) == {"stale": 0, "written": 0}


def test_a_refresh_recomputes_what_changed_and_the_neighbours_of_a_retyped_concept(store, embedder):
    build_seed_graph(store, embedder)
    refresh_signatures(store)
    store.query(
        "MATCH (a:Concept {id: 'c-louvain'}), (b:Concept {id: 'c-java'}) CREATE (a)-[:RELATED_TO {weight: 1}]->(b)"
    )
    assert sorted(stale(store)) == ["c-java", "c-louvain"]  # their edges changed
    refresh_signatures(store)
    assert _stored(store)["c-louvain"]["related:Programming Language"] == 1
    store.query("MATCH (c:Concept {id: 'c-pagerank'}) SET c.type = 'Method'")
    order = stale(store)
    assert order[-1] == "c-pagerank" and set(order) == {"c-pagerank", "c-gds", "c-google"}
    refresh_signatures(store)
    assert _stored(store)["c-gds"]["related:Method"] == 1 and "related:Algorithm" in _stored(store)["c-gds"]


def test_a_batchs_refresh_reads_only_what_it_touched_and_the_last_one_reads_everything(store, embedder):
    from graphwiki_assets.core.query.upkeep import refresh_after_batch

    build_seed_graph(store, embedder)
    refresh_signatures(store)
    store.query(
        "MATCH (a:Concept {id: 'c-louvain'}), (b:Concept {id: 'c-java'}) CREATE (a)-[:RELATED_TO {weight: 1}]->(b)"
    )
    store.query("MATCH (c:Concept {id: 'c-pagerank'}) SET c.type = 'Method'")  # its neighbours' entries move
    # a batch that touched c-pagerank: it and its neighbours, not the edge another writer added
    done = refresh_after_batch(store, last=False, touched=["c-pagerank"])
    assert done["signatures"]["stale"] == 3 and sorted(stale(store)) == ["c-java", "c-louvain"]
    assert _stored(store)["c-gds"]["related:Method"] == 1
    # the run's last batch catches up every stale concept, whoever made it stale
    refresh_after_batch(store, last=True, touched=["c-pagerank"])
    assert stale(store) == [] and _stored(store)["c-louvain"]["related:Programming Language"] == 1


def test_a_superseded_concept_is_no_candidate(store, embedder, offline_llm):
    build_seed_graph(store, embedder)
    store.query("MATCH (c:Concept {id: 'c-gds'}) SET c.status = 'superseded'")
    refresh_signatures(store)
    assert store.query("MATCH (c:Concept {id: 'c-gds'}) RETURN c.shape_tokens AS t")[0]["t"] is None
    answer = ask(store, embedder, offline_llm, "Find something shaped like APOC")
    assert "c-gds" not in [m["id"] for m in answer.details["matches"]]


def test_the_first_shaped_like_question_catches_up_a_graph_no_ingest_refreshed(store, embedder, offline_llm):
    build_seed_graph(store, embedder)
    answer = ask(store, embedder, offline_llm, "Find something shaped like APOC")
    assert answer.details["matches"][0]["id"] == "c-gds"
    assert stale(store) == []


def test_lucene_query_asks_for_the_type_and_at_least_one_shared_entry():
    query = lucene_query("Library", {"related:Database": 2, "related:Programming Language": 1})
    required, shared = query.split(" ", 1)
    assert required.startswith("+t") and shared.startswith("+(") and shared.count(" ") == 2  # 2 + 1 tokens
    assert lucene_query(None, {"related:Database": 1}).startswith("+(")


def test_shaped_like_ranks_as_an_exhaustive_comparison_does(store, embedder):
    """On a skewed generated graph, with a pool as large as the graph, the index returns every
    candidate, so the top scores are those of comparing X with every concept."""
    generate(store, 500, embedder.dimension, seed=3)
    refresh_signatures(store)
    signatures = _stored(store)
    types = {r["id"]: r["type"] for r in store.query("MATCH (c:Concept) RETURN c.id AS id, c.type AS type")}
    xs = [cid for cid, sig in sorted(signatures.items()) if sig][::40]
    assert len(xs) >= 8
    question = embedder.encode_one("Find something shaped like it")
    for x in xs:
        mine = _live(store, x)
        same_type = {
            cid: s for cid, s in signatures.items() if cid != x and types[cid] == types[x] and set(s) & set(mine)
        }
        pool = same_type or {cid: s for cid, s in signatures.items() if cid != x and set(s) & set(mine)}
        exact = sorted((weighted_jaccard(mine, s) for s in pool.values()), reverse=True)[:8]
        found = shaped_like(store, question, [x], QueryOptions(shape_pool=10_000)).details["matches"]
        assert [m["score"] for m in found] == [round(s, 3) for s in exact], x
        narrow = shaped_like(store, question, [x], QueryOptions(shape_pool=20)).details["matches"]
        assert narrow and narrow[0]["score"] <= found[0]["score"]


def test_candidates_come_from_the_index_not_a_scan(store, embedder):
    """The statement that finds candidates reads the full-text index, never every concept."""
    with store.driver.session() as session:
        summary = session.run("EXPLAIN " + cypher.SHAPE_CANDIDATES, tokens="+(x)", pool=5, id="x").consume()
    operators = set()

    def walk(op):
        operators.add(op.get("operatorType", "").split("@")[0])
        for child in op.get("children", []):
            walk(child)

    walk(summary.plan)
    assert "ProcedureCall" in operators and not operators & {"NodeByLabelScan", "AllNodesScan"}


def test_ingest_leaves_signatures_and_projection_up_to_date(store, embedder, settings, tmp_path):
    from graphwiki_assets.core.query.projection import projection_status
    from tests.support.ingest import SMOKE_TEXTS, ingest, write_sources

    ingest(store, embedder, settings, write_sources(tmp_path, SMOKE_TEXTS), batch_size=1)
    assert stale(store) == []
    status = projection_status(store)
    assert status.exists and not status.stale


def test_the_signature_check_bench_measures_every_concept_against_a_batchs_share(store, embedder):
    from graphwiki_assets.core.evals.signature_check import measure

    build_seed_graph(store, embedder)
    refresh_signatures(store)
    data = measure(store, touched=(3,), runs=2)
    assert data["concepts"] == len(CONCEPTS)
    assert set(data["median_ms"]) == {"every concept", "3 touched"}
    assert all(ms >= 0 for ms in data["median_ms"].values())
    assert stale(store) == []  # it only reads
