"""`graphwiki ingest --workers N`: batches prepared by N processes, committed one at a time
under the ingest lease, end with the graph a serial run builds; a worker that cannot reach
the graph fails its batches by name instead of hanging the run."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from graphwiki_assets.core.ingest.pipeline import IngestConfig, Ingestor, read_paths
from graphwiki_assets.core.ingest.workers import WorkerSetup, ingest_in_workers
from graphwiki_assets.core.llm.client import build_llm
from tests.support.ingest import SMOKE_TEXTS, ingest, write_sources


def _graph(store) -> dict:
    return {
        "concepts": [r["name"] for r in store.query("MATCH (c:Concept) RETURN c.name AS name ORDER BY name")],
        "claims": sorted(r["text"] for r in store.query("MATCH (k:Claim) RETURN k.text AS text")),
        "contradictions": store.query("MATCH ()-[r:CONTRADICTS]->() RETURN count(r) AS n")[0]["n"],
        "sources": store.query("MATCH (s:Source) RETURN count(s) AS n")[0]["n"],
    }


# "ahead": each worker drafts its batch's judge and conflict calls before its turn, against a
# graph the batches before it have not yet reached, and asks again under the lease what they changed
@pytest.mark.parametrize("draft", ["auto", "ahead"])
def test_workers_build_the_graph_a_serial_run_builds(store, embedder, settings, tmp_path, draft):
    paths = write_sources(tmp_path, SMOKE_TEXTS)
    ingest(store, embedder, settings, paths, cache=False, batch_size=1)
    serial = _graph(store)
    store.query("MATCH (n) DETACH DELETE n")

    config = IngestConfig(batch_size=1, draft=draft)
    parent = Ingestor(store=store, embedder=embedder, llm=build_llm(settings.llm), config=config)
    setup = WorkerSetup(settings=replace(settings, cache_dir=tmp_path / "cache"), config=config, purpose="test")
    report = ingest_in_workers(parent, setup, read_paths(paths), workers=3).as_dict()

    assert _graph(store) == serial
    assert report["sources"]["new"] == len(SMOKE_TEXTS) and report["sources"]["failed"] == 0
    assert report["batches"] == len(SMOKE_TEXTS)
    # every batch's time under the lease is reported, and the LLM calls of all workers counted
    assert len(report["lease"]["per_batch_seconds"]) >= len(SMOKE_TEXTS)
    assert report["llm_by_task"]["extract"]["calls"] >= len(SMOKE_TEXTS)
    assert report["embedding"]["workers"] == 3


def test_workers_that_cannot_reach_the_graph_fail_every_batch_by_name(store, embedder, settings, tmp_path):
    paths = write_sources(tmp_path, SMOKE_TEXTS)
    config = IngestConfig(batch_size=2)
    parent = Ingestor(store=store, embedder=embedder, llm=build_llm(settings.llm), config=config)
    nowhere = replace(settings, neo4j=replace(settings.neo4j, uri="bolt://127.0.0.1:9"))  # nothing listens
    setup = WorkerSetup(settings=nowhere, config=config, purpose="test")

    report = ingest_in_workers(parent, setup, read_paths(paths), workers=2).as_dict()

    assert report["sources"]["failed"] == len(SMOKE_TEXTS)
    assert {p["path"] for p in report["problems"]} == {str(p) for p in paths}
    assert store.query("MATCH (s:Source) RETURN count(s) AS n")[0]["n"] == 0


def test_the_cli_takes_workers_and_reports_a_refused_file(cli, tmp_path):
    folder = tmp_path / "sources"
    write_sources(folder, SMOKE_TEXTS)
    (folder / "broken.md").write_bytes(b"\x00\x01binary\xff")
    code, out = cli("ingest", str(folder), "--workers", "2", "--batch", "2", "--json")
    data = json.loads(out)
    assert code == 0  # a bad file inside a named folder is reported; the rest counts
    assert data["sources"]["new"] == len(SMOKE_TEXTS) and data["sources"]["skipped"] == 1
    assert [p["path"] for p in data["problems"]] == [str(folder / "broken.md")]
    assert cli("ingest", str(folder), "--workers", "0")[0] == 2
