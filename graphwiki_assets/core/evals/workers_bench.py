"""How ingest throughput grows with workers when the models are elsewhere.

The chat and embeddings endpoints are a separate process that only sleeps
(``sleeping_endpoints.py``): replies are real ones remembered from a warm-up pass, so a
measured pass costs this machine nothing for the models, as remote servers would. The same
corpus is then ingested into a wiped eval graph with 1, 2, 4, 8... workers. Commits take
the ingest lease in the batches' order, so every pass asks the same questions and builds
the same graph; the lease's share of the wall time says where the ceiling is:
passages / (seconds the lease was held) is the most any number of workers can reach.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from statistics import median

from graphwiki_assets.core.encoders import build_encoder
from graphwiki_assets.core.evals.instance import eval_server, eval_settings, eval_store, free_port, wipe
from graphwiki_assets.core.evals.multihop import load_jsonl
from graphwiki_assets.core.evals.results.benches import WorkersBenchResult
from graphwiki_assets.core.ingest.pipeline import IngestConfig, Ingestor, records_as_documents
from graphwiki_assets.core.ingest.workers import WorkerSetup, ingest_in_workers
from graphwiki_assets.core.llm.client import build_llm
from graphwiki_assets.core.processes import wait_until
from graphwiki_assets.core.settings import Settings

SECONDS_PER_DAY = 86_400


def _answers(url: str) -> bool:
    try:
        _get(url)
        return True
    except OSError:
        return False


def _get(url: str, method: str = "GET") -> dict:
    request = urllib.request.Request(url, method=method, data=b"" if method == "POST" else None)
    with urllib.request.urlopen(request, timeout=10) as reply:
        return json.loads(reply.read())


@contextmanager
def sleeping_endpoints(chat_latency: float, embed_latency: float, embedding_model: str) -> Iterator[str]:
    """The endpoints' process, up; yields its base URL (``.../v1``)."""
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "graphwiki_assets.core.evals.sleeping_endpoints",
        f"--port={port}",
        f"--chat-latency={chat_latency}",
        f"--embed-latency={embed_latency}",
        f"--embedding-model={embedding_model}",
    ]
    process = subprocess.Popen(command, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    try:
        if not wait_until(lambda: _answers(f"http://127.0.0.1:{port}/stats"), 60, process):
            raise RuntimeError(f"the sleeping endpoints did not start (exit code {process.poll()})")
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def remote_settings(settings: Settings, base_url: str, cache_dir: Path) -> Settings:
    """The settings with chat and embeddings both sent to ``base_url``, and an empty LLM cache."""
    return replace(
        settings,
        cache_dir=cache_dir,
        llm=replace(settings.llm, base_url=base_url, api_key="sleeping", model="offline-rules-remembered"),
        embeddings=replace(settings.embeddings, base_url=base_url, api_key="sleeping", model=settings.embedding_model),
    )


def run_workers_bench(
    settings: Settings,
    corpus: Path | str,
    workers: tuple[int, ...] = (1, 2, 4, 8),
    limit: int | None = 256,
    batch_size: int = 8,
    chat_latency: float = 1.0,
    embed_latency: float = 0.05,
    log: Callable[[str], None] = lambda msg: None,
) -> WorkersBenchResult:
    docs = load_jsonl(corpus)[:limit] if limit else load_jsonl(corpus)
    namespace = Path(corpus).parent.name or "corpus"
    config = replace(IngestConfig.from_settings(settings), batch_size=batch_size)
    runs: list[dict] = []
    with (
        sleeping_endpoints(chat_latency, embed_latency, settings.embedding_model) as base_url,
        eval_server(eval_settings(settings), log=log) as on_eval,
        tempfile.TemporaryDirectory(prefix="graphwiki-workers-bench-") as scratch,
    ):
        stats_url = base_url.removesuffix("/v1") + "/stats"

        def one_pass(n: int, label: str) -> dict:
            remote = remote_settings(on_eval, base_url, Path(scratch) / label)  # a cold LLM cache each pass
            with eval_store(remote, log=log) as store:
                wipe(store)
                _get(stats_url + "/reset", method="POST")
                parent = Ingestor(
                    store=store,
                    embedder=build_encoder(remote),
                    llm=build_llm(remote.llm, remote.cache_dir),
                    config=config,
                )
                setup = WorkerSetup(settings=remote, config=config, purpose=f"graphwiki bench workers ({label})")
                started = time.monotonic()
                report = ingest_in_workers(parent, setup, records_as_documents(docs, namespace), n).as_dict()
                wall = time.monotonic() - started
                concepts = store.query("MATCH (c:Concept) RETURN count(c) AS n")[0]["n"]
            return _pass_numbers(n, len(docs), wall, report, _get(stats_url), concepts)

        log(f"warm-up: {len(docs)} passages with {max(workers)} workers, replies computed and remembered")
        warm = one_pass(max(workers), "warm-up")
        for n in workers:
            log(f"{n} worker(s)")
            runs.append(one_pass(n, f"workers-{n}"))
    return _summary(runs, warm, len(docs), batch_size, chat_latency, embed_latency, str(corpus))


def _pass_numbers(n: int, passages: int, wall: float, report: dict, served: dict, concepts: int) -> dict:
    lease = report["lease"]
    held = lease["held_seconds"]
    turn_held = report["stages_seconds"].get("turn_held", 0.0)
    return {
        "workers": n,
        "seconds": round(wall, 2),
        "passages_per_second": round(passages / max(wall, 1e-9), 3),
        "lease_held_seconds": held,
        "lease_share_of_wall": lease["share_of_wall"],
        "lease_median_per_batch_s": round(median(lease["per_batch_seconds"]), 3)
        if lease["per_batch_seconds"]
        else None,
        # what no number of workers can beat while every commit holds the one lease
        "lease_ceiling_passages_per_second": round(passages / held, 3) if held else None,
        "turn_wait_seconds": report["stages_seconds"].get("turn_wait", 0.0),
        # batches commit in order: from a batch's turn to its commit nothing else commits
        "turn_held_seconds": turn_held,
        "order_ceiling_passages_per_second": round(passages / turn_held, 3) if turn_held else None,
        "stages_seconds": report["stages_seconds"],  # summed over workers: they overlap in time
        "sources": report["sources"],
        "concepts": concepts,
        "claims": report["claims"],
        "llm_calls": report["llm_calls"],
        "chat": served["chat"],
        "embeddings": served["embeddings"],
        "rechecked": {k: v for k, v in lease.items() if k.endswith(("_reused", "_asked"))},
    }


def _summary(
    runs: list[dict], warm: dict, passages: int, batch: int, chat_latency: float, embed_latency: float, corpus: str
) -> WorkersBenchResult:
    one = next((r for r in runs if r["workers"] == 1), runs[0])
    for r in runs:
        r["speedup_over_one"] = round(r["passages_per_second"] / one["passages_per_second"], 3)
    best = max(runs, key=lambda r: r["passages_per_second"])
    ceiling = min(r["lease_ceiling_passages_per_second"] or float("inf") for r in runs)
    in_order = min(r["order_ceiling_passages_per_second"] or float("inf") for r in runs)
    return WorkersBenchResult.of(
        {
            "corpus": corpus,
            "passages": passages,
            "batch_size": batch,
            "chat_latency_s": chat_latency,
            "embed_latency_s": embed_latency,
            "warm_up": {"seconds": warm["seconds"], "chat": warm["chat"], "embeddings": warm["embeddings"]},
            "runs": runs,
            "same_graph_every_pass": len({(r["concepts"], r["claims"]) for r in runs}) == 1,
            "best": {"workers": best["workers"], "passages_per_second": best["passages_per_second"]},
            "lease_ceiling_passages_per_second": ceiling,
            "lease_ceiling_documents_per_day": int(ceiling * SECONDS_PER_DAY) if ceiling != float("inf") else None,
            "order_ceiling_passages_per_second": in_order if in_order != float("inf") else None,
            "best_documents_per_day": int(best["passages_per_second"] * SECONDS_PER_DAY),
        }
    )


def workers_plot(result: WorkersBenchResult) -> bytes:
    """Passages per second by workers, against linear scaling, the lease's ceiling and the
    ceiling of committing in order (whichever is lower binds)."""
    from graphwiki_assets.core.figures import plt, png

    runs = result.runs
    xs = [r.workers for r in runs]
    one = runs[0].passages_per_second / runs[0].workers
    fig, ax = plt.subplots(figsize=(6, 3.8))
    ax.plot(xs, [r.passages_per_second for r in runs], "o-", color="#2a6f97", label="measured")
    ax.plot(xs, [one * x for x in xs], ":", color="#8d99ae", label="linear in workers")
    ceiling = result.lease_ceiling_passages_per_second
    if ceiling:
        ax.axhline(ceiling, color="#e76f51", linestyle="--", label=f"lease ceiling ({ceiling:.2f}/s)")
    in_order = result.order_ceiling_passages_per_second
    if in_order:
        ax.axhline(in_order, color="#6a994e", linestyle="-.", label=f"in-order commit ceiling ({in_order:.2f}/s)")
    ax.set_xscale("log", base=2)
    ax.minorticks_off()
    ax.set(
        xticks=xs,
        xticklabels=[str(x) for x in xs],
        xlabel="ingest workers",
        ylabel="passages per second",
        title=f"{result.passages} passages, chat {result.chat_latency_s} s/call, "
        f"embeddings {result.embed_latency_s} s/request",
    )
    top = max(max(r.passages_per_second for r in runs), ceiling or 0, in_order or 0)
    ax.set_ylim(bottom=0, top=top * 1.25)
    ax.legend(fontsize=8)
    return png(fig)
