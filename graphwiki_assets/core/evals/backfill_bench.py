"""Backfill benchmark: the same files through `graphwiki ingest` and through a Dagster
backfill launched the way the UI launches one, each into the empty eval graph.

The Dagster side runs a real webserver and daemon on a temporary instance; the backfill is
launched and watched through the webserver's GraphQL API (the sensor is stopped first, so
only the backfill ingests). Times run from launch to the last run's end, and from the
CLI process's start to its exit; both sides start from a cold LLM cache.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

from graphwiki_assets.core.evals.instance import eval_settings, eval_store, free_port, wipe
from graphwiki_assets.core.evals.multihop import load_jsonl
from graphwiki_assets.core.evals.results.benches import BackfillBenchResult
from graphwiki_assets.core.processes import stoppable
from graphwiki_assets.core.settings import Settings

LOCATION, REPOSITORY = "graphwiki_assets.definitions", "__repository__"
INGEST_ASSETS = ["sources", "extracted_candidates", "resolved_concepts", "claim_links", "summaries"]
DONE = {"COMPLETED", "COMPLETED_SUCCESS", "COMPLETED_FAILED", "FAILED", "CANCELED"}


def write_corpus(records: list[dict], folder: Path) -> list[str]:
    """One markdown file per record, named by its id: the partition keys."""
    folder.mkdir(parents=True, exist_ok=True)
    keys = []
    for record in records:
        key = f"{record['id']}.md"
        (folder / key).write_text(f"# {record.get('title') or record['id']}\n\n{record['text']}\n", encoding="utf-8")
        keys.append(key)
    return keys


class GraphQL:
    def __init__(self, port: int):
        self.url = f"http://127.0.0.1:{port}/graphql"

    def __call__(self, query: str, **variables) -> dict:
        body = json.dumps({"query": query, "variables": variables}).encode()
        request = urllib.request.Request(self.url, data=body, headers={"content-type": "application/json"})
        with urllib.request.urlopen(request, timeout=120) as response:
            data = json.loads(response.read())
        if data.get("errors"):
            raise RuntimeError(f"GraphQL error: {data['errors'][0].get('message')}")
        return data["data"]

    def ready(self) -> bool:
        try:
            return "version" in self("{ version }")
        except OSError:
            return False


REPO = {"repositoryLocationName": LOCATION, "repositoryName": REPOSITORY}

STOP_SENSOR = """
query ($selector: SensorSelector!) { sensorOrError(sensorSelector: $selector) {
  __typename ... on Sensor { sensorState { id status } } } }
"""
STOP = """mutation ($id: String) { stopSensor(id: $id) { __typename } }"""
ADD_PARTITION = """
mutation ($repo: RepositorySelector!, $key: String!) {
  addDynamicPartition(repositorySelector: $repo, partitionsDefName: "sources", partitionKey: $key) { __typename } }
"""
LAUNCH = """
mutation ($params: LaunchBackfillParams!) { launchPartitionBackfill(backfillParams: $params) {
  __typename ... on LaunchBackfillSuccess { backfillId } ... on PythonError { message } } }
"""
STATUS = """
query ($id: String!) { partitionBackfillOrError(backfillId: $id) {
  __typename ... on PartitionBackfill { status numPartitions runs(limit: 1000) { id status startTime endTime } } } }
"""
DAEMONS = """{ instance { daemonHealth { allDaemonStatuses { daemonType required healthy } } } }"""


def _dagster_env(settings: Settings, folder: Path, home: Path, cache: Path) -> dict[str, str]:
    """The environment of the webserver and daemon: a fresh Dagster home of their own, the
    sources folder and the eval instance's Neo4j."""
    dagster_home = home / "dagster"
    dagster_home.mkdir(parents=True)
    (dagster_home / "dagster.yaml").write_text(
        "telemetry:\n  enabled: false\nconcurrency:\n  runs:\n    max_concurrent_runs: 2\n"
    )
    ev = eval_settings(settings)
    return {
        **os.environ,
        "DAGSTER_HOME": str(dagster_home),
        "GRAPHWIKI_SOURCES_DIR": str(folder),
        "GRAPHWIKI_HOME": str(home),
        "GRAPHWIKI_CACHE_DIR": str(cache),
        "NEO4J_URI": ev.neo4j.uri,
        "NEO4J_USERNAME": ev.neo4j.username,
        "NEO4J_PASSWORD": ev.neo4j.password,
    }


def _wait_for(ready: Callable[[], bool], seconds: float, failure: str) -> None:
    started = time.monotonic()
    while not ready():
        if time.monotonic() - started > seconds:
            raise RuntimeError(failure)
        time.sleep(1)


def _backfill(gql: GraphQL, keys: list[str], wait_s: float, logs: Path, log: Callable[[str], None]):
    """Launch the backfill of ``keys`` and wait until it and all its runs are done: the
    backfill's last status, and when it was launched (wall clock and monotonic)."""
    log(f"launching a backfill of {len(keys)} partitions")
    launched_at, started = time.time(), time.monotonic()
    params = {
        "partitionNames": keys,
        "assetSelection": [{"path": [a]} for a in INGEST_ASSETS],
        "title": "graphwiki bench backfill",
    }
    launched = gql(LAUNCH, params=params)["launchPartitionBackfill"]
    if "backfillId" not in launched:
        raise RuntimeError(f"the backfill was not launched: {launched}")
    while True:
        backfill = gql(STATUS, id=launched["backfillId"])["partitionBackfillOrError"]
        if backfill["status"] in DONE and all(
            r["status"] not in ("QUEUED", "STARTING", "STARTED") for r in backfill["runs"]
        ):
            return backfill, launched_at, started
        if time.monotonic() - started > wait_s:
            raise RuntimeError(f"the backfill did not finish within {wait_s:.0f}s; see {logs}")
        time.sleep(1)


def _dagster(
    settings: Settings,
    folder: Path,
    home: Path,
    cache: Path,
    keys: list[str],
    wait_s: float,
    log: Callable[[str], None],
) -> dict:
    port = free_port()
    env = _dagster_env(settings, folder, home, cache)
    bin_dir = Path(sys.executable).parent
    logs = home / "logs"
    logs.mkdir()
    with ExitStack() as stack:

        def spawn(name: str, args: list[str]) -> None:
            out = stack.enter_context(open(logs / f"{name}.log", "w"))
            proc = subprocess.Popen(
                args,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                cwd=home,
                start_new_session=True,
                preexec_fn=stoppable,
            )

            def stop() -> None:
                proc.terminate()
                proc.wait(timeout=60)

            stack.callback(stop)

        spawn("webserver", [str(bin_dir / "dagster-webserver"), "-h", "127.0.0.1", "-p", str(port), "-m", LOCATION])
        gql = GraphQL(port)
        _wait_for(gql.ready, 180, f"the Dagster webserver did not come up; see {logs / 'webserver.log'}")
        state = gql(STOP_SENSOR, selector={**REPO, "sensorName": "sources_sensor"})["sensorOrError"]["sensorState"]
        gql(STOP, id=state["id"])  # only the backfill ingests
        for key in keys:
            gql(ADD_PARTITION, repo=REPO, key=key)
        spawn("daemon", [str(bin_dir / "dagster-daemon"), "run", "-m", LOCATION])
        # A user's daemon is a running service, like the webserver: its own start is not the backfill's time.
        daemon_started = time.monotonic()
        healthy = lambda: _daemons_healthy(gql)  # noqa: E731
        _wait_for(healthy, 180, f"the Dagster daemon did not report healthy; see {logs / 'daemon.log'}")
        daemon_seconds = time.monotonic() - daemon_started
        backfill, launched_at, started = _backfill(gql, keys, wait_s, logs, log)
        # The graph is complete when the last run ends; the backfill's own status follows at the
        # daemon's next tick, which is bookkeeping, not ingest.
        ended = [r["endTime"] for r in backfill["runs"] if r.get("endTime")]
        seconds = max(ended) - launched_at if ended else time.monotonic() - started
        first_start = min((r["startTime"] for r in backfill["runs"] if r.get("startTime")), default=launched_at)
    return {
        "seconds": round(seconds, 2),
        "status": backfill["status"],
        "runs": len(backfill["runs"]),
        "run_statuses": sorted({r["status"] for r in backfill["runs"]}),
        "until_first_run_started": round(first_start - launched_at, 2),
        "until_backfill_marked_done": round(time.monotonic() - started, 2),
        "daemon_start_seconds": round(daemon_seconds, 2),
    }


def _daemons_healthy(gql: GraphQL) -> bool:
    statuses = gql(DAEMONS)["instance"]["daemonHealth"]["allDaemonStatuses"]
    return bool(statuses) and all(d["healthy"] for d in statuses if d["required"])


def _cli(settings: Settings, folder: Path, home: Path, cache: Path) -> dict:
    ev = eval_settings(settings)
    env = {
        **os.environ,
        "GRAPHWIKI_HOME": str(home),
        "GRAPHWIKI_CACHE_DIR": str(cache),
        "NEO4J_URI": ev.neo4j.uri,
        "NEO4J_USERNAME": ev.neo4j.username,
        "NEO4J_PASSWORD": ev.neo4j.password,
    }
    started = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "graphwiki_assets.cli.main", "ingest", "--json", str(folder)],
        env=env,
        capture_output=True,
        text=True,
    )
    seconds = time.monotonic() - started
    if proc.returncode != 0:
        raise RuntimeError(f"graphwiki ingest failed: {proc.stderr[-1000:]}")
    report = json.loads(proc.stdout)
    return {"seconds": round(seconds, 2), "sources": report["sources"], "llm_calls": report["llm_calls"]}


def _counts(store) -> dict:
    return store.query("""
        CALL () { MATCH (s:Source) RETURN count(s) AS sources }
        CALL () { MATCH (c:Concept) RETURN count(c) AS concepts }
        CALL () { MATCH (c:Claim) RETURN count(c) AS claims }
        RETURN sources, concepts, claims""")[0]


def run_backfill_bench(
    settings: Settings,
    corpus: Path | str,
    limit: int = 200,
    wait_s: float = 3600,
    log: Callable[[str], None] = lambda msg: None,
) -> BackfillBenchResult:
    records = load_jsonl(corpus)[:limit]
    with tempfile.TemporaryDirectory(prefix="graphwiki-backfill-") as tmp:
        root = Path(tmp)
        folder = root / "sources"
        keys = write_corpus(records, folder)
        with eval_store(eval_settings(settings), log=log) as store:
            wipe(store)
            log(f"graphwiki ingest of {len(keys)} files")
            cli = _cli(settings, folder, root / "cli", root / "cli-cache")
            cli["graph"] = _counts(store)
            wipe(store)
            dagster = _dagster(settings, folder, root / "dagster-run", root / "dagster-cache", keys, wait_s, log)
            dagster["graph"] = _counts(store)
        shutil.rmtree(root / "dagster-run", ignore_errors=True)
    return BackfillBenchResult.of(
        {
            "files": len(keys),
            "cli": cli,
            "dagster_backfill": dagster,
            "backfill_over_cli": round(dagster["seconds"] / max(cli["seconds"], 1e-9), 3),
        }
    )
