"""Latency as a client of ``graphwiki serve`` sees it (``graphwiki latency --serve``).

The questions are the latency benchmark's (drawn from the graph, per shape); each goes to
the server over HTTP as a client would send it (the question and its shape; the server
links the entities itself), timed from request to parsed JSON. Beside it, ``graphwiki ask``
as a user runs it: a new process per question, through the server and in-process.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from graphwiki_assets.core.audit import read_entries
from graphwiki_assets.core.evals import cypher
from graphwiki_assets.core.evals.datasets import MULTIHOP_SETS
from graphwiki_assets.core.evals.latency import drawn_questions, measure
from graphwiki_assets.core.evals.multihop import load_jsonl
from graphwiki_assets.core.evals.query_bench import BenchConfig, Question, concurrent_summary, draw, timed
from graphwiki_assets.core.evals.results.queries import CliTimes, LatencyResult, ServedConcurrent
from graphwiki_assets.core.store.driver import GraphStore
from graphwiki_assets.server.client import ServerClient

# The targets for asking a running server, 30 questions per shape.
TARGET_P50_MS = 300
TARGET_P95_MS = 800


def over_http(client: ServerClient) -> Callable[[Question, BenchConfig], Mapping[str, Any]]:
    def answer(q: Question, config: BenchConfig) -> Mapping[str, Any]:
        request = {"question": q.text, "shape": q.shape, "hops": config.hops, "k": config.k}
        return client.ask(request, actor="graphwiki latency --serve")

    return answer


def measure_served(
    store: GraphStore, client: ServerClient, per_shape: int = 30, seed: int = 0, hops: int = 2, k: int = 8
) -> LatencyResult:
    result = measure(store, per_shape=per_shape, seed=seed, hops=hops, k=k, answer=over_http(client))
    overall = result.overall
    if overall is None:
        return result
    targets = {
        "p50_ms": {"limit": TARGET_P50_MS, "measured": overall.p50, "ok": overall.p50 <= TARGET_P50_MS},
        "p95_ms": {"limit": TARGET_P95_MS, "measured": overall.p95, "ok": overall.p95 <= TARGET_P95_MS},
    }
    return result.with_(server=client.url, targets=targets)


def _ask_process(store: GraphStore, text: str, served: bool, env: Mapping[str, str]) -> float:
    """Wall seconds of one `graphwiki ask` process, start to exit; checked in the audit log
    to have gone the way it is timed for (a server too slow to answer its probe is skipped)."""
    argv = [sys.executable, "-m", "graphwiki_assets.cli.main", "ask", text, *([] if served else ["--no-server"])]
    started = time.perf_counter()
    done = subprocess.run(argv, env=dict(env), capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"`graphwiki ask` failed: {done.stderr.strip()[-300:]}")
    last = read_entries(store, action="question", limit=1)
    if not last or last[-1].actor.startswith("http:") != served:
        raise RuntimeError(
            f"`graphwiki ask` was timed {'through the server' if served else 'in-process'} but went the other way"
        )
    return elapsed


def time_cli(store: GraphStore, runs: int = 5, seed: int = 1, env: Mapping[str, str] | None = None) -> CliTimes:
    """`graphwiki ask` as a new process per question, through the server and in-process
    (drawn with another seed than the latency run's, so few meet the server's caches)."""
    _, drawn = drawn_questions(store, per_shape=2 * runs, seed=seed)
    questions = [q.text for q in drawn.single["what_is"]]
    env = os.environ if env is None else env
    served = [_ask_process(store, text, True, env) for text in questions[:runs]]
    here = [_ask_process(store, text, False, env) for text in questions[runs : 2 * runs]]
    return CliTimes.of(
        {
            "runs": runs,
            "served_seconds": [round(s, 2) for s in served],
            "in_process_seconds": [round(s, 2) for s in here],
            "served_median_s": round(statistics.median(served), 2),
            "in_process_median_s": round(statistics.median(here), 2),
        }
    )


# What the askers' server ingests meanwhile: passages of another corpus than the graph's, so
# the ingest has new concepts and claims to write.
ADDED_PASSAGES = 40
ADDED_PREFIX = "serve-bench/added-"


def _added_document(store: GraphStore) -> tuple[str, str]:
    """The next unused slice of passages and its name: a repeated run adds new text again."""
    n = store.query(cypher.SOURCES_NAMED_LIKE, fragment=ADDED_PREFIX)[0]["n"]
    records = load_jsonl(MULTIHOP_SETS["multihop_eval_hotpotqa"].corpus)
    chosen = records[n * ADDED_PASSAGES % len(records) :][:ADDED_PASSAGES]
    return f"{ADDED_PREFIX}{n}.md", "\n\n".join(f"# {r['title']}\n\n{r['text']}" for r in chosen)


def _wait_for_job(client: ServerClient, job_id: str, timeout: float = 1800.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = client.request("GET", f"/jobs/{job_id}", timeout=30)
        if job["status"] in ("done", "failed"):
            return job
        time.sleep(0.5)
    raise RuntimeError(f"ingest job {job_id} did not finish in {timeout:.0f} s")


def measure_concurrent_served(
    store: GraphStore, client: ServerClient, askers: int = 8, per_asker: int = 12, seed: int = 2
) -> ServedConcurrent:
    """``askers`` HTTP clients asking while the server ingests a source: every answer and
    the source's claims in the graph are checked (0 errors, nothing lost)."""
    config = BenchConfig(per_shape=1, warmup=0, askers=askers, per_asker=per_asker, seed=seed)
    questions = draw(store, config, set()).concurrent
    answer, ingesting = over_http(client), threading.Event()

    def ask_until_ingested(share: list[Question]) -> list[dict]:
        results: list[dict] = []
        while share and (len(results) < len(share) or ingesting.is_set()):
            results.append(timed(answer, share[len(results) % len(share)], config))
        return results

    name, text = _added_document(store)
    ingesting.set()
    started = time.perf_counter()
    job = client.request("POST", "/sources", {"name": name, "text": text}, timeout=60)
    with ThreadPoolExecutor(max_workers=askers, thread_name_prefix="http-asker") as pool:
        shares = [pool.submit(ask_until_ingested, questions[i::askers]) for i in range(askers)]
        finished = _wait_for_job(client, job["id"])
        ingesting.clear()
        results = [r for share in shares for r in share.result()]
    summary = concurrent_summary(results, askers, time.perf_counter() - started)
    stored = store.query(cypher.SOURCE_CLAIMS_BY_NAME, name=name)
    report = finished.get("report") or {}
    return ServedConcurrent.of(
        {
            **summary,
            "ingest": {
                "status": finished["status"],
                "error": finished.get("error"),
                "passages": ADDED_PASSAGES,
                "claims_reported": report.get("claims"),
                "claims_in_graph": stored[0]["claims"] if stored else 0,
                "sources": report.get("sources"),
                "name": name,
                "started_at": finished["started_at"],
                "finished_at": finished["finished_at"],
            },
            "nothing_lost": bool(stored)
            and finished["status"] == "done"
            and stored[0]["claims"] == report.get("claims"),
        }
    )
