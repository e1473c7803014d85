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
import time
from collections.abc import Callable, Mapping
from typing import Any

from graphwiki_assets.core.audit import read_entries
from graphwiki_assets.core.evals.latency import drawn_questions, measure
from graphwiki_assets.core.evals.query_bench import BenchConfig, Question
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
) -> dict:
    result = measure(store, per_shape=per_shape, seed=seed, hops=hops, k=k, answer=over_http(client))
    if "overall" in result:
        overall = result["overall"]
        result["server"] = client.url
        result["targets"] = {
            "p50_ms": {"limit": TARGET_P50_MS, "measured": overall["p50"], "ok": overall["p50"] <= TARGET_P50_MS},
            "p95_ms": {"limit": TARGET_P95_MS, "measured": overall["p95"], "ok": overall["p95"] <= TARGET_P95_MS},
        }
    return result


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


def time_cli(store: GraphStore, runs: int = 5, seed: int = 1, env: Mapping[str, str] | None = None) -> dict:
    """`graphwiki ask` as a new process per question, through the server and in-process
    (other questions than the latency run's, so no answer is a cached one)."""
    _, drawn = drawn_questions(store, per_shape=2 * runs, seed=seed)
    questions = [q.text for q in drawn.single["what_is"]]
    env = os.environ if env is None else env
    served = [_ask_process(store, text, True, env) for text in questions[:runs]]
    here = [_ask_process(store, text, False, env) for text in questions[runs : 2 * runs]]
    return {
        "runs": runs,
        "served_seconds": [round(s, 2) for s in served],
        "in_process_seconds": [round(s, 2) for s in here],
        "served_median_s": round(statistics.median(served), 2),
        "in_process_median_s": round(statistics.median(here), 2),
    }
