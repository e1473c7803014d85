"""The ingest assets materialise through Dagster against the real Neo4j, with checks and metadata."""

from __future__ import annotations

import dagster as dg

from graphwiki_assets.defs.ingest.assets import claim_links, extracted_candidates, resolved_concepts, sources, summaries
from graphwiki_assets.defs.resources import EmbeddingResource, GraphwikiConfig, LLMResource, Neo4jResource
from tests.ingest_helpers import SMOKE_TEXTS, counts, write_sources

ASSETS = [sources, extracted_candidates, resolved_concepts, claim_links, summaries]


def _resources(settings, folder):
    return {
        "neo4j": Neo4jResource(uri=settings.neo4j.uri, username=settings.neo4j.username,
                               password=settings.neo4j.password),
        "embeddings": EmbeddingResource(),
        "llm": LLMResource(cache_dir=str(folder.parent / "llm-cache")),  # fresh: calls are counted
        "graphwiki": GraphwikiConfig(home=str(folder), sources_dir=str(folder)),
    }


def _materialise_all(settings, folder, keys):
    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("sources", keys)
    results = [dg.materialize(ASSETS, partition_key=key, instance=instance, resources=_resources(settings, folder),
                              raise_on_error=False) for key in keys]
    return instance, results


def test_each_source_partition_materialises_and_passes_the_blocking_gates(store, settings, tmp_path):
    folder = tmp_path / "sources"
    write_sources(folder, SMOKE_TEXTS)
    keys = sorted(SMOKE_TEXTS)
    _, results = _materialise_all(settings, folder, keys)
    assert all(r.success for r in results)
    for result in results:
        checks = result.get_asset_check_evaluations()
        assert len(checks) == 4 and all(c.passed for c in checks)
        materialised = {m.asset_key.path[-1]: m for m in result.get_asset_materialization_events()}
        assert set(materialised) == {"sources", "extracted_candidates", "resolved_concepts", "claim_links", "summaries"}
        meta = materialised["extracted_candidates"].materialization.metadata
        assert meta["llm_calls"].value >= 1 and meta["llm_prompt_tokens"].value > 0
        assert "offline" in meta["llm_backend"].value
    assert store.query("MATCH (s:Source) RETURN count(s) AS n")[0]["n"] == 3
    assert store.query("MATCH ()-[r:CONTRADICTS]->() RETURN count(r) AS n")[0]["n"] == 1


def test_rematerialising_changes_no_count_and_spends_no_llm_call(store, settings, tmp_path):
    folder = tmp_path / "sources"
    write_sources(folder, SMOKE_TEXTS)
    keys = sorted(SMOKE_TEXTS)
    _materialise_all(settings, folder, keys)
    before = counts(store)
    _, again = _materialise_all(settings, folder, keys)
    assert counts(store) == before
    for result in again:
        meta = {m.asset_key.path[-1]: m.materialization.metadata for m in result.get_asset_materialization_events()}
        assert meta["sources"]["status"].value == "unchanged"


def test_a_bad_file_is_skipped_in_its_own_partition_without_failing(store, settings, tmp_path):
    folder = tmp_path / "sources"
    write_sources(folder, {"ok.md": SMOKE_TEXTS["cypher.md"]})
    (folder / "bad.txt").write_bytes(b"\xff\xfe\x00\x00binary")
    _, results = _materialise_all(settings, folder, ["bad.txt", "ok.md"])
    assert all(r.success for r in results)
    meta = {m.asset_key.path[-1]: m.materialization.metadata for m in results[0].get_asset_materialization_events()}
    assert meta["sources"]["status"].value == "skipped"
    assert "binary" in meta["sources"]["reason"].value
    assert store.query("MATCH (s:Source) RETURN count(s) AS n")[0]["n"] == 1
