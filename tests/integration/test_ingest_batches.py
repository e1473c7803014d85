"""Ingest works in batches: one encode call and a few LLM calls per batch, one transaction
per batch, independent calls side by side within a bound, and a source whose calls keep
failing fails alone."""

from __future__ import annotations

from dataclasses import replace

from graphwiki_assets.core.ingest.pipeline import IngestConfig, Ingestor, ingest_documents, read_paths
from graphwiki_assets.core.llm.client import build_llm
from graphwiki_assets.core.llm.rules_server import RulesServer
from tests.support.ingest import SMOKE_TEXTS, counts, ingest, write_sources

NOTES = {
    f"note{i:02d}.md": f"# Probe {i}\n\nProbe {i} is an instrument built by the Tarnwell lab. "
    f"Probe {i} measures salinity in the Orrin estuary."
    for i in range(12)
}


def _served_llm(server, settings, concurrency=4):
    llm_settings = replace(
        settings.llm,
        base_url=server.base_url,
        api_key="test",
        model="rules",
        concurrency=concurrency,
        max_retries=1,
        timeout_s=10,
    )
    return build_llm(llm_settings, None, backoff_base=0.01, backoff_max=0.02)


def _ingest(store, embedder, llm, paths, batch_size=32, pack_chars=None):
    config = IngestConfig(batch_size=batch_size)
    if pack_chars:
        config = replace(config, extract=replace(config.extract, pack_chars=pack_chars))
    return ingest_documents(Ingestor(store=store, embedder=embedder, llm=llm, config=config), read_paths(paths))


def test_a_batch_is_embedded_in_one_call_and_judged_in_few(store, embedder, settings, tmp_path):
    paths = write_sources(tmp_path, NOTES)
    before = embedder.model_calls
    report = _ingest(store, embedder, build_llm(settings.llm, None), paths)
    data = report.as_dict()
    assert data["sources"]["new"] == 12 and data["batches"] == 1
    assert embedder.model_calls - before <= 1  # every text of the batch in one encode call
    assert data["llm_by_task"]["extract"]["calls"] == 1  # twelve short notes share one extraction call
    assert data["llm_by_task"].get("judge", {}).get("calls", 0) <= 1


def test_batch_size_does_not_change_what_the_graph_holds(store, embedder, settings, tmp_path):
    paths = write_sources(tmp_path, SMOKE_TEXTS)
    ingest(store, embedder, settings, paths, batch_size=1)
    one_by_one = store.query("MATCH (c:Concept) RETURN c.name AS name ORDER BY name")
    contradictions = store.query("MATCH ()-[r:CONTRADICTS]->() RETURN count(r) AS n")[0]["n"]
    store.query("MATCH (n) DETACH DELETE n")
    ingest(store, embedder, settings, paths, batch_size=3)
    assert store.query("MATCH (c:Concept) RETURN c.name AS name ORDER BY name") == one_by_one
    assert store.query("MATCH ()-[r:CONTRADICTS]->() RETURN count(r) AS n")[0]["n"] == contradictions == 1


def test_independent_calls_run_side_by_side_within_the_bound(store, embedder, settings, tmp_path):
    paths = write_sources(tmp_path, NOTES)
    with RulesServer(latency=0.3) as server:
        llm = _served_llm(server, settings, concurrency=3)
        report = _ingest(store, embedder, llm, paths, pack_chars=1).as_dict()  # one call per note
    assert report["sources"]["new"] == 12 and report["backend"] == "openai:rules"
    # Twelve extraction calls: three were in flight at once (side by side), never more.
    assert server.max_in_flight == 3
    assert report["llm_by_task"]["extract"]["calls"] == 12
    # The stand-in model's own work is counted apart from its latency (CPU time, not the sleep).
    assert 0 < server.compute_seconds < 12 * 0.3


def test_a_source_whose_extraction_keeps_failing_fails_alone(store, embedder, settings, tmp_path):
    texts = dict(NOTES)
    texts["note05.md"] += " Its calibration log says BROKEN-CALL."
    paths = write_sources(tmp_path, texts)
    with RulesServer(fail_marker="BROKEN-CALL", fail_task="extract") as server:
        report = _ingest(store, embedder, _served_llm(server, settings), paths).as_dict()
    assert report["sources"] == {"new": 11, "unchanged": 0, "skipped": 0, "failed": 1}
    [problem] = report["problems"]
    assert problem["path"].endswith("note05.md") and "gave up" in problem["reason"]
    sources = {r["path"] for r in store.query("MATCH (s:Source) RETURN s.path AS path")}
    assert len(sources) == 11 and not any(p.endswith("note05.md") for p in sources)


def test_a_source_whose_judgment_keeps_failing_fails_alone_and_the_batch_commits(store, embedder, settings, tmp_path):
    texts = dict(NOTES)
    texts["note07.md"] = "# Gauge Seven\n\nGauge Seven is a BROKEN-CALL instrument built by the Tarnwell lab."
    paths = write_sources(tmp_path, texts)
    with RulesServer(fail_marker="BROKEN-CALL", fail_task="judge") as server:
        report = _ingest(store, embedder, _served_llm(server, settings), paths).as_dict()
    assert server.failed > 0
    assert report["sources"]["failed"] == 1 and report["problems"][0]["path"].endswith("note07.md")
    assert report["sources"]["new"] == 11
    assert store.query("MATCH (s:Source) RETURN count(s) AS n")[0]["n"] == 11


def test_re_ingesting_a_batch_changes_nothing(store, embedder, settings, tmp_path):
    paths = write_sources(tmp_path, NOTES)
    llm = build_llm(settings.llm, None)
    _ingest(store, embedder, llm, paths, batch_size=5)
    before = counts(store)
    again = _ingest(store, embedder, llm, paths, batch_size=5).as_dict()
    assert again["sources"]["unchanged"] == 12 and again["llm_calls"] == 0
    assert counts(store) == before


def test_the_report_gives_the_time_each_batch_held_the_ingest_lease(store, embedder, settings, tmp_path):
    paths = write_sources(tmp_path, NOTES)
    data = _ingest(store, embedder, build_llm(settings.llm, None), paths, batch_size=4).as_dict()
    lease = data["lease"]
    assert data["batches"] == 3 and len(lease["per_batch_seconds"]) == 3
    assert all(s > 0 for s in lease["per_batch_seconds"])
    assert lease["held_seconds"] == data["stages_seconds"]["lease_held"]
    assert 0 < lease["share_of_wall"] < 1  # reading, extraction and embedding happen outside it
