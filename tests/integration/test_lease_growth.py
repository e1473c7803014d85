"""The lease-growth benchmark on a real Neo4j: seeds the candidate search finds, a probe that
is new at every size and taken out cleanly, and nothing seeded left behind."""

from __future__ import annotations

import json
import statistics
from dataclasses import replace

import pytest

from graphwiki_assets.core.config import default_config
from graphwiki_assets.core.embeddings import vector_model_name
from graphwiki_assets.core.evals.datasets import MULTIHOP_SETS
from graphwiki_assets.core.evals.lease_growth import MARKER, PROBE_NAMESPACE, run_lease_growth, take_out_probe
from graphwiki_assets.core.evals.seed_concepts import corpus_concepts, seed_plan, seed_vectors, write_seeds
from graphwiki_assets.core.ingest import cypher as ingest_cypher
from graphwiki_assets.core.ingest.mention_vectors import mention_parts, mention_vectors
from graphwiki_assets.core.ingest.pipeline import (
    IngestConfig,
    Ingestor,
    ingest_documents,
    records_as_documents,
    utc_now,
)
from graphwiki_assets.core.store.keys import key_query
from graphwiki_assets.core.store.schema import ensure_schema

# Properties ingest or the query upkeep rewrite every time (dates, the structural embedding).
VOLATILE = {"created_at", "updated_at", "shape_at", "needs_review_since", "structure"}


@pytest.fixture
def passages(tmp_path):
    """The first 40 passages of the MuSiQue corpus: ~200 distinct names, the rest padded."""
    lines = MULTIHOP_SETS["multihop_eval_musique"].corpus.read_text(encoding="utf-8").splitlines()[:40]
    path = tmp_path / "corpus.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _seeds(store) -> dict[str, dict]:
    found = store.query("MATCH (c:Concept) WHERE c.seeded_by = $m RETURN c.id AS id, properties(c) AS p", m=MARKER)
    return {r["id"]: {k: v for k, v in r["p"].items() if k not in VOLATILE} for r in found}


def test_seeds_are_what_the_candidate_search_finds_and_a_probe_is_taken_out_to_the_seeded_state(
    store, embedder, offline_llm, passages, tmp_path
):
    records = [json.loads(line) for line in passages.read_text().splitlines()]
    schema = default_config()
    plan = seed_plan(corpus_concepts(records, schema.taxonomy), 32, 300)
    texts = list(dict.fromkeys(t for c in plan for t in mention_parts(c.name, c.identity)))
    encoded = seed_vectors(embedder, texts, tmp_path / "vectors")[1]
    assert encoded == len(texts) > 300 and seed_vectors(embedder, texts, tmp_path / "vectors")[1] == 0
    # each seed's vector is the one ingest's stage 1 gives a mention of that name and identity
    vectors = mention_vectors(
        lambda ts: seed_vectors(embedder, ts, tmp_path / "vectors")[0], [(c.name, c.identity) for c in plan]
    )
    ensure_schema(store, embedder.dimension, vector_model_name(embedder))
    write_seeds(store, plan, vectors, MARKER, schema.stamp(), utc_now())
    store.query("CALL db.awaitIndexes(60)")
    # resolution's two lookups: the exact key in the full-text index, the nearest vectors
    target = next(c for c in plan if c.padded)
    exact = store.query(
        ingest_cypher.EXACT_KEY_MATCHES,
        mentions=[{"index": 0, "keys": list(target.keys), "query": key_query(list(target.keys))}],
    )
    assert [r["id"] for r in exact] == [target.id]
    near = store.query(
        ingest_cypher.VECTOR_CANDIDATES, k=3, mentions=[{"index": 0, "embedding": vectors[plan.index(target)].tolist()}]
    )
    assert near[0]["id"] == target.id and near[0]["score"] == pytest.approx(1.0, abs=1e-3)

    seeded = _seeds(store)
    ingestor = Ingestor(store, embedder, offline_llm, IngestConfig(batch_size=4))
    report = ingest_documents(ingestor, records_as_documents(records[32:], PROBE_NAMESPACE)).as_dict()
    assert report["sources"]["new"] == 8 and report["concepts"]["merged"] > 0  # it wrote to seeds
    assert _seeds(store) != seeded
    take_out_probe(store, plan, vectors, schema.stamp())
    assert _seeds(store) == seeded
    assert (
        store.query("MATCH (n) WHERE NOT n:Concept AND NOT n:Lease AND NOT n:GraphwikiMeta RETURN count(n) AS n")[0][
            "n"
        ]
        == 0
    )
    assert store.query("MATCH ()-[r]->() RETURN count(r) AS n")[0]["n"] == 0


def test_the_probe_is_new_at_every_size_and_no_seed_outlives_the_run(
    store, settings, embedder, passages, tmp_path, monkeypatch
):
    monkeypatch.setenv("GRAPHWIKI_EVAL_NEO4J_URI", settings.neo4j.uri)  # the disposable test server
    monkeypatch.setenv("GRAPHWIKI_EVAL_NEO4J_PASSWORD", settings.neo4j.password)
    # the user's graph is on a port nothing listens on: the run must only reach the eval graph
    user = replace(settings, home=tmp_path, neo4j=replace(settings.neo4j, uri="bolt://127.0.0.1:9"))
    said: list[str] = []
    result = run_lease_growth(user, embedder, passages, sizes=(1000, 200), probe=8, batch_size=4, log=said.append)
    assert result.sizes == [200, 1000]
    assert result.seeds.corpus_names < 1000 <= result.seeds.corpus_names + result.seeds.padded_names
    rows = result.by_size
    assert [r.concepts_before for r in rows] == [200, 1000]
    for row in rows:
        assert row.sources.as_json() == {"new": 8, "unchanged": 0, "skipped": 0, "failed": 0}
        assert row.batches == 2 and len(row.lease_held_seconds) == 2
        assert all(s > 0 for s in row.lease_held_seconds)
        assert row.lease_median_s == pytest.approx(statistics.median(row.lease_held_seconds), abs=1e-3)
        assert row.judgments > 0 and row.concepts_created > 0
    assert len(result.warm_up.lease_held_seconds) == 2
    ratio = rows[1].lease_median_s / rows[0].lease_median_s
    assert result.lease_median_ratio_largest_over_smallest == pytest.approx(ratio, abs=1e-2)
    # the eval graph is left empty: no seed, no probe source
    assert store.query("MATCH (n) WHERE NOT n:Lease AND NOT n:GraphwikiMeta RETURN count(n) AS n")[0]["n"] == 0
