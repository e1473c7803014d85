"""Writers at the same time, as real processes: overlapping ingests (CLI or Dagster runs)
end with one concept per entity, and with exactly the graph a serial ingest of the same
batches in the order they were committed builds: the ingest lease makes concurrent
writers serialisable. (Which order the lease grants varies from run to run; resolution
is order-sensitive, so the check replays the committed order rather than a fixed one.)"""
# Each test starts several Python processes that load the embedding model: about a minute.

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from graphwiki_assets.core.ingest.pipeline import IngestConfig, Ingestor, read_paths
from graphwiki_assets.core.llm.client import build_llm
from graphwiki_assets.core.llm.rules_server import RulesServer
from graphwiki_assets.core.sources import discover
from tests.support.paths import REPO_ROOT

SAMPLE = REPO_ROOT / "data" / "sources"


def _graph(store) -> dict:
    names = [r["name"] for r in store.query("MATCH (c:Concept) RETURN c.name AS name")]
    keys = [k for r in store.query("MATCH (c:Concept) RETURN c.keys AS keys") for k in set(r["keys"])]
    return {
        "concepts": sorted(names),
        "keys_on_two_concepts": sorted({k for k in keys if keys.count(k) > 1}),
        "claims": sorted(r["t"] for r in store.query("MATCH (c:Claim) RETURN c.text AS t")),
        "contradictions": store.query("MATCH ()-[r:CONTRADICTS]->() RETURN count(r) AS n")[0]["n"],
        "sources": store.query("MATCH (s:Source) RETURN count(s) AS n")[0]["n"],
        # Not the judgment count: a vector computed beside other texts can differ in the 7th
        # decimal, which reorders near-tied candidates, so which pairs were judged can differ
        # by a few without any node or edge differing.
    }


def _committed(store, folders: list[Path]) -> list[list[Path] | None]:
    """What the writers did under the lease, in order: each committed batch (its sources
    share one timestamp) and each summary refresh (``None``)."""
    rows = store.query("MATCH (s:Source) RETURN s.path AS path, s.ingested_at AS at ORDER BY at, path")
    events: dict = {}
    for row in rows:
        path = Path(row["path"])
        if not path.is_absolute():  # a Dagster partition key: relative to its sources folder
            path = next(f / path for f in folders if (f / path).exists())
        events.setdefault(row["at"], []).append(path)
    for row in store.query("MATCH (c:Concept) UNWIND coalesce(c.summary_history, []) AS at RETURN DISTINCT at"):
        events[row["at"]] = None
    return [events[at] for at in sorted(events)]


def _replay(store, embedder, settings, events: list[list[Path] | None]) -> dict:
    store.query("MATCH (n) DETACH DELETE n")
    # The rules answer the same over HTTP as in process: the offline backend replays them.
    ingestor = Ingestor(
        store=store, embedder=embedder, llm=build_llm(settings.llm, None), config=IngestConfig(batch_size=100)
    )
    for batch in events:
        if batch is None:
            ingestor.summaries()
        else:
            ingestor.ingest_batch(list(read_paths(batch)))
    return _graph(store)


def _split(tmp_path: Path) -> tuple[Path, Path]:
    """Two folders over the sample that share one file: 4 + 4 of 7."""
    files = discover(SAMPLE)
    first, second = tmp_path / "first", tmp_path / "second"
    for folder, part in ((first, files[:4]), (second, files[3:])):
        folder.mkdir()
        for path in part:
            shutil.copy(path, folder / path.name)
    return first, second


def _env(settings, tmp_path: Path, name: str, server: RulesServer) -> dict:
    # Every LLM call takes half a second, as a remote model's would: each writer spends
    # that long between reading the graph and writing what it decided, so the two
    # writers' resolutions overlap in time (without the lease they would race).
    return {
        **os.environ,
        "NEO4J_URI": settings.neo4j.uri,
        "NEO4J_PASSWORD": settings.neo4j.password,
        "GRAPHWIKI_HOME": str(tmp_path / f"home-{name}"),
        "GRAPHWIKI_CACHE_DIR": str(tmp_path / f"cache-{name}"),
        "GRAPHWIKI_INGEST_BATCH": "2",
        "OPENAI_BASE_URL": server.base_url,
        "OPENAI_API_KEY": "test",
        "GRAPHWIKI_LLM_MODEL": "rules",
    }


def _at_once(commands: list[tuple[list[str], dict]]) -> None:
    procs = [
        subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for cmd, env in commands
    ]
    for proc in procs:
        out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err[-2000:]


def _same(graph: dict, replayed: dict) -> None:
    for key in graph:
        if isinstance(graph[key], list):
            extra, missing = sorted(set(graph[key]) - set(replayed[key])), sorted(set(replayed[key]) - set(graph[key]))
            assert graph[key] == replayed[key], (
                f"{key}: only in the concurrent graph {extra}, only in the replay {missing}"
            )
        else:
            assert graph[key] == replayed[key], key


@pytest.mark.parametrize("round_", [1, 2])
def test_two_cli_ingests_of_overlapping_sources_build_a_serial_graph(store, embedder, settings, tmp_path, round_):
    first, second = _split(tmp_path)
    cli = [sys.executable, "-m", "graphwiki_assets.cli.main", "ingest", "--json"]
    with RulesServer(latency=0.5) as server:
        _at_once(
            [
                (cli + [str(first)], _env(settings, tmp_path, "a", server)),
                (cli + [str(second)], _env(settings, tmp_path, "b", server)),
            ]
        )
    graph = _graph(store)
    assert graph["keys_on_two_concepts"] == [] and graph["sources"] == 7
    _same(graph, _replay(store, embedder, settings, _committed(store, [first, second])))


def test_two_dagster_runs_at_once_build_a_serial_graph(store, embedder, settings, tmp_path):
    first, second = _split(tmp_path)
    with RulesServer(latency=0.5) as server:
        commands = []
        for name, folder in (("a", first), ("b", second)):
            env = _env(settings, tmp_path, name, server)
            env.pop("DAGSTER_HOME", None)  # each run in its own ephemeral instance
            commands.append(
                (
                    [
                        sys.executable,
                        "-m",
                        "graphwiki_assets.cli.main",
                        "materialize",
                        "--no-lint",
                        "--json",
                        "--sources",
                        str(folder),
                    ],
                    env,
                )
            )
        _at_once(commands)
    graph = _graph(store)
    assert graph["keys_on_two_concepts"] == [] and graph["sources"] == 7
    _same(graph, _replay(store, embedder, settings, _committed(store, [first, second])))
