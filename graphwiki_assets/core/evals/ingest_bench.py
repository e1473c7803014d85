"""The ingest benchmark: a corpus through the real pipeline into the eval graph, measured.

One run gives wall time, passages per second, peak memory, LLM calls and prompt tokens per
passage by task, the time split by stage, the CPU time of this process and of a local Neo4j
against what the cores could give (with the word pieces the encoder read), and (with
``rerun``) the cost of ingesting the unchanged corpus again. With ``llm_latency`` the LLM is the OpenAI backend talking to the
rules served over HTTP with that latency per call, so the concurrency of real endpoints is
measured against its ideal, calls x latency / concurrency.
"""

from __future__ import annotations

import resource
import tempfile
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path

import pandas as pd

from graphwiki_assets.core.cpu_time import CpuMeter, local_server_pid
from graphwiki_assets.core.embeddings import Encoder
from graphwiki_assets.core.evals.instance import eval_settings, eval_store, wipe
from graphwiki_assets.core.evals.multihop import load_jsonl
from graphwiki_assets.core.evals.results.benches import IngestBenchResult
from graphwiki_assets.core.ingest.pipeline import IngestConfig, Ingestor, ingest_documents, records_as_documents
from graphwiki_assets.core.llm.client import build_llm
from graphwiki_assets.core.settings import Settings

LLM_STAGES = ("extract", "judge", "conflict", "summaries")


def _per(value: float, n: int, digits: int = 3) -> float:
    return round(value / max(n, 1), digits)


def by_task(llm_by_task: dict[str, dict], passages: int) -> dict:
    """LLM calls, prompt and output tokens per task, in all and per passage."""
    columns = ["calls", "prompt_tokens", "completion_tokens"]
    counts = pd.DataFrame(list(llm_by_task.values()), index=list(llm_by_task), columns=columns)
    tasks = counts.astype(float).fillna(0).astype(int)  # a task without a count made none
    tasks = tasks.rename(columns={"completion_tokens": "output_tokens"})
    tasks["calls_per_passage"] = tasks["calls"].map(lambda n: _per(n, passages))
    tasks["prompt_tokens_per_passage"] = tasks["prompt_tokens"].map(lambda n: _per(n, passages, 1))
    tasks["output_tokens_per_passage"] = tasks["output_tokens"].map(lambda n: _per(n, passages, 1))
    return tasks.to_dict("index")


def _first_pass(corpus: Path | str, docs: list[dict], first: dict, embedder: Encoder, config, llm, wall: float) -> dict:
    """The cold ingest's numbers, per passage where a rate is read."""
    return {
        "corpus": str(corpus),
        "passages": len(docs),
        "backend": first["backend"],
        "embedding_model": getattr(embedder, "name", "unnamed"),
        "batch_size": config.batch_size,
        "llm_concurrency": llm.concurrency,
        "seconds": round(wall, 2),
        "passages_per_second": round(len(docs) / max(wall, 1e-9), 2),
        "seconds_per_passage": _per(wall, len(docs), 2),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "sources": first["sources"],
        "concepts": first["concepts"],
        "claims": first["claims"],
        "contradictions": first["contradictions"],
        "judgments": first["judgments"],
        "llm_calls": first["llm_calls"],
        "prompt_tokens": first["prompt_tokens"],
        "output_tokens": first["llm"].get("completion_tokens", 0),
        "llm_calls_per_passage": _per(first["llm_calls"], len(docs)),
        "prompt_tokens_per_passage": _per(first["prompt_tokens"], len(docs), 1),
        "output_tokens_per_passage": _per(first["llm"].get("completion_tokens", 0), len(docs), 1),
        "by_task": by_task(first["llm_by_task"], len(docs)),
        "stages_seconds": first["stages_seconds"],
        "lease": first["lease"],
        "embedding": first["embedding"],
        "batches": first["batches"],
        "failed": first["sources"]["failed"],
        "problems": first["problems"],  # each failed or skipped source with its reason
    }


def _llm_server(server, first: dict, llm, llm_latency: float, wall: float) -> dict:
    """The LLM stages' time against the ideal of the served latency at the client's concurrency."""
    llm_seconds = sum(first["stages_seconds"].get(s, 0.0) for s in LLM_STAGES)
    ideal = first["llm_calls"] * llm_latency / max(llm.concurrency, 1)
    # The server answers with the offline rules in this process, one at a time under the
    # GIL: that compute is the stand-in model's own time, which a remote model spends on
    # its own hardware. It is reported apart, and the ideal with it added.
    rules = server.compute_seconds
    return {
        "latency_s": llm_latency,
        "requests": server.requests,
        "max_in_flight": server.max_in_flight,
        "ideal_seconds": round(ideal, 2),
        "llm_stage_seconds": round(llm_seconds, 2),
        "llm_stage_over_ideal": round(llm_seconds / ideal, 3) if ideal else None,
        "wall_over_ideal": round(wall / ideal, 3) if ideal else None,
        "rules_compute_seconds": round(rules, 2),
        "llm_stage_over_ideal_plus_rules": round(llm_seconds / (ideal + rules), 3) if ideal + rules else None,
    }


def _rerun(store, embedder: Encoder, llm, config, docs: list[dict], namespace: str, wall: float) -> dict:
    """The same corpus again, unchanged: what an ingest that has nothing to do costs."""
    before = llm.usage.snapshot()
    started = time.monotonic()
    again = ingest_documents(
        Ingestor(store=store, embedder=embedder, llm=llm, config=config), records_as_documents(docs, namespace)
    ).as_dict()
    seconds = time.monotonic() - started
    used = llm.usage.snapshot() - before
    return {
        "seconds": round(seconds, 2),
        "share_of_first": round(seconds / max(wall, 1e-9), 4),
        "llm_calls": used.calls,
        "cache_hits": used.cache_hits,
        "sources": again["sources"],
    }


def _pieces_read(embedder: Encoder) -> int | None:
    """Word pieces the local model has read so far; None for a service, whose model runs elsewhere."""
    return getattr(embedder, "pieces_read", None)


def run_ingest_bench(
    settings: Settings,
    embedder: Encoder,
    corpus: Path | str,
    limit: int | None = None,
    llm_latency: float | None = None,
    rerun: bool = True,
    batch_size: int | None = None,
    log: Callable[[str], None] = lambda msg: None,
) -> IngestBenchResult:
    docs = load_jsonl(corpus)
    docs = docs[:limit] if limit else docs
    namespace = Path(corpus).parent.name or "corpus"
    config = IngestConfig.from_settings(settings)
    if batch_size:
        config = replace(config, batch_size=batch_size)
    with ExitStack() as stack:
        cache = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="graphwiki-bench-cache-")))
        llm_settings = settings.llm
        server = None
        if llm_latency is not None:
            from graphwiki_assets.core.llm.rules_server import RulesServer

            server = stack.enter_context(RulesServer(latency=llm_latency))
            llm_settings = replace(
                settings.llm, base_url=server.base_url, api_key="rules-server", model="offline-rules-over-http"
            )
        llm = build_llm(llm_settings, cache)  # a fresh cache: the first pass is cold
        store = stack.enter_context(eval_store(eval_settings(settings), log=log))
        wipe(store)
        done = {"n": 0}

        def progress(_report) -> None:
            done["n"] += 1
            if done["n"] % 200 == 0:
                log(f"{done['n']}/{len(docs)} passages")

        ingestor = Ingestor(store=store, embedder=embedder, llm=llm, config=config, log=log, purpose="graphwiki bench")
        meter = CpuMeter(server_pid=local_server_pid(store.settings.uri))
        pieces = _pieces_read(embedder)
        meter.start()
        started = time.monotonic()
        first = ingest_documents(ingestor, records_as_documents(docs, namespace), progress=progress).as_dict()
        wall = time.monotonic() - started
        meter.stop()
        out = _first_pass(corpus, docs, first, embedder, config, llm, wall)
        read = _pieces_read(embedder)
        encoded = read - pieces if read is not None and pieces is not None else None
        out["cpu"] = {**meter.budget(wall), "word_pieces_encoded": encoded}
        if server is not None and llm_latency is not None:
            out["llm_server"] = _llm_server(server, first, llm, llm_latency, wall)
        if rerun:
            out["rerun"] = _rerun(store, embedder, llm, config, docs, namespace, wall)
    return IngestBenchResult.of(out)
