"""The ingest assets materialise through Dagster against the real Neo4j: many partitions per
run, with the blocking gates, metadata, and nothing spent on unchanged text."""

from __future__ import annotations

import dagster as dg

from graphwiki_assets.defs.ingest.assets import resolve_and_commit, sources, summaries
from graphwiki_assets.defs.ingest.extract import extracted_candidates
from graphwiki_assets.defs.ingest.io import PartitionFilesIOManager
from graphwiki_assets.defs.ingest.jobs import execution_config
from graphwiki_assets.defs.resources import EmbeddingResource, GraphwikiConfig, LLMResource, Neo4jResource
from tests.support.ingest import SMOKE_TEXTS, counts, write_sources

ASSETS = [sources, extracted_candidates, resolve_and_commit, summaries]
RANGE = ("dagster/asset_partition_range_start", "dagster/asset_partition_range_end")


def _resources(settings, folder):
    return {
        "neo4j": Neo4jResource(
            uri=settings.neo4j.uri, username=settings.neo4j.username, password=settings.neo4j.password
        ),
        "embeddings": EmbeddingResource(),
        "llm": LLMResource(cache_dir=str(folder.parent / "llm-cache")),  # fresh: calls are counted
        "graphwiki": GraphwikiConfig(home=str(folder), sources_dir=str(folder), ingest_batch=2),
        "ingest_io_manager": PartitionFilesIOManager(base_dir=str(folder.parent / "io")),
    }


def _run(settings, folder, keys, instance=None):
    """One run over the range of all keys, as the sensor or a backfill launches it."""
    instance = instance or dg.DagsterInstance.ephemeral()
    known = set(instance.get_dynamic_partitions("sources"))
    instance.add_dynamic_partitions("sources", [k for k in keys if k not in known])
    result = dg.materialize(
        ASSETS,
        instance=instance,
        resources=_resources(settings, folder),
        raise_on_error=False,
        tags={RANGE[0]: keys[0], RANGE[1]: keys[-1]},
    )
    return instance, result


def _metadata(result, asset):
    events = [e for e in result.get_asset_materialization_events() if e.asset_key.path[-1] == asset]
    return events[0].materialization.metadata, {e.partition for e in events}


def _smoke_run(settings, tmp_path, instance=None):
    """The smoke texts as a sources folder, and one run over all of them."""
    folder = tmp_path / "sources"
    write_sources(folder, SMOKE_TEXTS)
    keys = sorted(SMOKE_TEXTS)
    return (folder, keys, *_run(settings, folder, keys, instance))


def test_one_run_ingests_many_partitions_and_passes_the_blocking_gates(store, settings, tmp_path):
    _, keys, _, result = _smoke_run(settings, tmp_path)
    assert result.success
    for asset in ("sources", "extracted_candidates", "resolved_concepts", "claim_links", "summaries"):
        assert _metadata(result, asset)[1] == set(keys), asset  # every partition materialised by the one run
    checks = result.get_asset_check_evaluations()
    assert len(checks) == 4 and all(c.passed for c in checks)
    meta, _ = _metadata(result, "extracted_candidates")
    assert meta["extraction_batches"].value == 2  # one step per batch of two sources
    assert meta["llm_calls"].value >= 1 and meta["llm_prompt_tokens"].value > 0
    assert "offline" in meta["llm_backend"].value
    assert store.query("MATCH (s:Source) RETURN count(s) AS n")[0]["n"] == 3
    assert store.query("MATCH ()-[r:CONTRADICTS]->() RETURN count(r) AS n")[0]["n"] == 1


def test_a_run_commits_its_partitions_in_key_order_so_a_rerun_decides_the_same(store, settings, tmp_path):
    # Dagster hands a run's partitions over unordered; batches (two sources here) and their
    # order decide which name a concept two sources share is created under.
    _, keys, _, result = _smoke_run(settings, tmp_path)
    assert result.success
    rows = store.query("MATCH (s:Source) RETURN s.path AS path, s.ingested_at AS at ORDER BY at, path")
    batches: dict = {}
    for row in rows:
        batches.setdefault(row["at"], []).append(row["path"])
    assert [batches[at] for at in sorted(batches)] == [keys[:2], keys[2:]]


def test_rematerialising_changes_no_count_and_spends_no_llm_call(store, settings, tmp_path):
    folder, keys, instance, _ = _smoke_run(settings, tmp_path)
    before = counts(store)
    _, again = _run(settings, folder, keys, instance)
    assert again.success and counts(store) == before
    meta, _ = _metadata(again, "sources")
    assert meta["sources_unchanged"].value == 3 and meta["sources_new"].value == 0
    for asset in ("extracted_candidates", "resolved_concepts", "summaries"):
        assert _metadata(again, asset)[0]["llm_calls"].value == 0


def test_a_bad_file_is_skipped_with_its_reason_and_the_run_goes_on(store, settings, tmp_path):
    folder = tmp_path / "sources"
    write_sources(folder, {"ok.md": SMOKE_TEXTS["cypher.md"]})
    (folder / "bad.txt").write_bytes(b"\xff\xfe\x00\x00binary")
    _, result = _run(settings, folder, ["bad.txt", "ok.md"])
    assert result.success
    meta, _ = _metadata(result, "sources")
    [skipped] = meta["skipped"].records
    assert meta["sources_skipped"].value == 1 and "binary" in skipped.data["reason"]
    assert store.query("MATCH (s:Source) RETURN count(s) AS n")[0]["n"] == 1


def test_each_partition_says_what_its_own_source_gave_beside_the_runs_totals(store, settings, tmp_path):
    _, keys, _, result = _smoke_run(settings, tmp_path)
    by_partition = {
        e.partition: e.materialization.metadata
        for e in result.get_asset_materialization_events()
        if e.asset_key.path[-1] == "claim_links"
    }
    claims = {key: by_partition[key]["source_claims"].value for key in keys}
    assert all(by_partition[key]["source_status"].value == "new" for key in keys)
    # Each partition its own count; the run's total, on every partition, is their sum.
    assert all(n >= 1 for n in claims.values())
    assert {meta["claims"].value for meta in by_partition.values()} == {sum(claims.values())}
    extracted = {
        e.partition: e.materialization.metadata
        for e in result.get_asset_materialization_events()
        if e.asset_key.path[-1] == "extracted_candidates"
    }
    assert sum(extracted[key]["source_claims"].value for key in keys) == extracted[keys[0]]["claims"].value


def test_with_workers_a_run_extracts_its_batches_in_parallel_steps(store, settings, tmp_path, monkeypatch):
    """The real code location under the multiprocess executor, as the sensor launches it with
    GRAPHWIKI_INGEST_WORKERS=2: one extraction step per batch, each its own process."""
    folder = tmp_path / "sources"
    write_sources(folder, SMOKE_TEXTS)
    keys = sorted(SMOKE_TEXTS)
    for name, value in {
        "NEO4J_URI": settings.neo4j.uri,
        "NEO4J_PASSWORD": settings.neo4j.password,
        "GRAPHWIKI_HOME": str(tmp_path),
        "GRAPHWIKI_SOURCES_DIR": str(folder),
        "GRAPHWIKI_INGEST_BATCH": "1",
        "GRAPHWIKI_INGEST_WORKERS": "2",
        "GRAPHWIKI_CACHE_DIR": str(tmp_path / "llm-cache"),
    }.items():
        monkeypatch.setenv(name, value)
    (tmp_path / "dagster").mkdir()
    with dg.instance_for_test(temp_dir=str(tmp_path / "dagster")) as instance:
        instance.add_dynamic_partitions("sources", keys)
        result = dg.execute_job(
            dg.reconstructable(ingest_job_of_the_code_location),
            instance=instance,
            run_config=execution_config(2),
            tags={RANGE[0]: keys[0], RANGE[1]: keys[-1]},
        )
        assert result.success
        steps = {e.step_key for e in result.all_events if e.is_step_success}
        pids = {e.pid for e in result.all_events if e.is_step_start}
    assert {f"extracted_candidates.extract_batch[batch_{n:04d}]" for n in (1, 2, 3)} <= steps
    assert len(pids) > 1  # steps ran in processes of their own
    assert store.query("MATCH (s:Source) RETURN count(s) AS n")[0]["n"] == 3
    assert store.query("MATCH ()-[r:CONTRADICTS]->() RETURN count(r) AS n")[0]["n"] == 1


def ingest_job_of_the_code_location() -> dg.JobDefinition:
    from graphwiki_assets.definitions import defs

    return defs().resolve_job_def("ingest_sources")
