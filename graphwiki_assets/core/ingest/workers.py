"""The ingest spread over worker processes: ``graphwiki ingest --workers N``.

Extraction and embedding of a batch need no graph, so N processes prepare batches side by
side, and so do the drafts of their resolution and conflicts, which ask the model
(``Ingestor.draft``); resolution and the commit take the ingest lease (``lease.py``) one batch
at a time, asking only the pairs the commits since the draft changed, so the graph ends as
a serial run leaves it. Each worker opens its own
Neo4j driver, embedder and LLM client once and keeps them for every batch it takes; the
parent only reads sources, hands out batches, refreshes the query signatures after each
commit and writes the summaries at the end.

Processes, not threads: the offline rules and a local embedder are CPU-bound Python. A
worker that dies (out of memory, killed) fails only the batch it held, by name; the others
go on.
"""

from __future__ import annotations

import multiprocessing as mp
import queue
import resource
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from multiprocessing.process import BaseProcess
from typing import Any

from graphwiki_assets.core.ingest.models import CommitReport
from graphwiki_assets.core.ingest.pipeline import IngestConfig, Ingestor, IngestReport, batched
from graphwiki_assets.core.ingest.timing import StageTimes
from graphwiki_assets.core.llm.base import Usage
from graphwiki_assets.core.settings import Settings
from graphwiki_assets.core.sources import SourceDocument, SourceRejected

# Batches waiting per worker: enough that no worker idles between batches, few enough that a
# large folder is not read into memory ahead of the workers.
QUEUED_PER_WORKER = 2
POLL_S = 1.0


@dataclass(frozen=True)
class WorkerSetup:
    """What a worker process needs to open its own clients (picklable: sent to the child)."""

    settings: Settings
    config: IngestConfig
    purpose: str


class CommitTurn:
    """Whose turn it is to commit, shared by the workers: batch k commits after batch k-1,
    whichever worker prepared it. A batch that fails still passes the turn on, and the
    parent passes on the turn of a batch whose worker died."""

    def __init__(self, ctx: Any) -> None:
        self._next = ctx.Value("q", 1, lock=False)
        self._changed = ctx.Condition()

    def wait_for(self, batch_no: int) -> None:
        with self._changed:
            while self._next.value != batch_no:
                self._changed.wait(timeout=POLL_S)

    def done(self, batch_no: int) -> None:
        """Batch ``batch_no`` is over (committed, failed, or its worker gone)."""
        with self._changed:
            if self._next.value == batch_no:
                self._next.value = batch_no + 1
                self._changed.notify_all()


@dataclass
class BatchDone:
    """One batch's results, sent back from a worker."""

    number: int
    reports: list[CommitReport]
    seconds: dict[str, float]
    lease_held: list[float]
    usage: dict[str, Any]
    encoded: int
    encode_calls: int
    worker: int
    rechecked: dict[str, int] = field(default_factory=dict)  # pairs reused from the draft or asked again


def worker_main(number: int, setup: WorkerSetup, turn: CommitTurn, tasks: Any, results: Any) -> None:
    """A worker's life: open the clients once, then ingest batches until told to stop."""
    from graphwiki_assets.core.encoders import build_encoder
    from graphwiki_assets.core.llm.client import build_llm
    from graphwiki_assets.core.store.driver import GraphStore

    try:
        with GraphStore(setup.settings.neo4j) as store:
            ingestor = Ingestor(
                store=store,
                embedder=build_encoder(setup.settings),
                llm=build_llm(setup.settings.llm, setup.settings.cache_dir),
                config=setup.config,
                log=lambda msg: results.put(("log", number, f"worker {number}: {msg}")),
                purpose=f"{setup.purpose} worker {number}",
            )
            while (task := tasks.get()) is not None:
                results.put(("took", number, task[0]))
                results.put(("done", number, _ingest_one(ingestor, turn, number, *task)))
    except Exception as exc:  # the parent fails this worker's batch by name and goes on
        results.put(("dead", number, f"{type(exc).__name__}: {exc}"))


def _ingest_one(
    ingestor: Ingestor, turn: CommitTurn, worker: int, batch_no: int, docs: list[SourceDocument]
) -> BatchDone:
    ingestor.times = StageTimes()
    ingestor.rechecked = Counter()
    usage_before = ingestor.llm.usage.snapshot()
    encoded, calls = ingestor.embedder.encoded, ingestor.embedder.model_calls
    try:
        prepared = ingestor.prepare(list(docs), draft=ingestor.drafts_ahead)
        with ingestor.times.stage("turn_wait"):
            turn.wait_for(batch_no)
        with ingestor.times.stage("turn_held"):  # the part of a batch no other batch overlaps
            reports = ingestor.finish(ingestor.drafted(prepared))  # drafted now unless drafted ahead
    except Exception as exc:  # one batch's failure (Neo4j gone, lease lost thrice) is that batch's
        reports = _failed(docs, f"{type(exc).__name__}: {exc}")
    finally:
        turn.done(batch_no)
    used = ingestor.llm.usage.snapshot() - usage_before
    return BatchDone(
        number=batch_no,
        reports=reports,
        seconds=dict(ingestor.times.seconds),
        lease_held=list(ingestor.times.lease_held),
        usage=used.portable(),
        encoded=ingestor.embedder.encoded - encoded,
        encode_calls=ingestor.embedder.model_calls - calls,
        worker=worker,
        rechecked=dict(ingestor.rechecked),
    )


@dataclass
class _Pool:
    """The worker processes and what each holds, seen from the parent."""

    processes: dict[int, BaseProcess]
    turn: CommitTurn
    tasks: Any
    results: Any
    holding: dict[int, int] = field(default_factory=dict)  # worker -> batch number
    dead: dict[int, str] = field(default_factory=dict)  # worker -> why


def ingest_in_workers(
    ingestor: Ingestor,
    setup: WorkerSetup,
    documents: Iterable[SourceDocument | SourceRejected],
    workers: int,
    progress: Callable[[CommitReport], None] | None = None,
) -> IngestReport:
    """``ingest_documents`` with the batches prepared and committed by ``workers`` processes.

    ``ingestor`` is the parent's (its store refreshes the query upkeep, its LLM writes the
    summaries); its embedder is never loaded here."""
    if workers < 1:
        raise ValueError("workers must be at least 1")
    started = time.monotonic()
    report = IngestReport(backend=ingestor.llm.label, config_version=setup.config.schema.version)
    times = ingestor.times
    parent_before = ingestor.llm.usage.snapshot()
    usage = Usage()
    encoded = calls = 0
    rechecked: Counter[str] = Counter()

    def record(reports: list[CommitReport]) -> None:
        for r in reports:
            report.reports.append(r)
            if progress:
                progress(r)

    ctx = mp.get_context("spawn")  # a fork would copy the parent's driver threads and locks
    pool = _Pool(processes={}, turn=CommitTurn(ctx), tasks=ctx.Queue(), results=ctx.Queue())
    for n in range(1, workers + 1):
        process = ctx.Process(
            target=worker_main,
            args=(n, setup, pool.turn, pool.tasks, pool.results),
            name=f"graphwiki-ingest-{n}",
            daemon=True,
        )
        process.start()
        pool.processes[n] = process
    try:
        batches = _numbered(documents, setup.config.batch_size, record)
        queued: dict[int, list[SourceDocument]] = {}
        exhausted = False
        while True:
            while not exhausted and len(queued) < QUEUED_PER_WORKER * _alive(pool):
                nxt = next(batches, None)
                if nxt is None:
                    exhausted = True
                    break
                queued[nxt[0]] = nxt[1]
                pool.tasks.put(nxt)
            if not queued:
                break
            if not _alive(pool):  # nobody left to take what is queued
                for no in list(queued):
                    record(_failed(queued.pop(no), "every ingest worker exited: " + "; ".join(pool.dead.values())))
                break
            for done in _collect(pool, queued, ingestor.log):
                record(done.reports)
                report.batches += 1
                for name, seconds in done.seconds.items():
                    times.add(name, seconds)
                times.lease_held.extend(done.lease_held)
                rechecked.update(done.rechecked)
                usage = usage + Usage.from_portable(done.usage)
                encoded, calls = encoded + done.encoded, calls + done.encode_calls
                ingestor.upkeep(last=exhausted and not queued)
    finally:
        _stop(pool)
    summary = ingestor.summaries()
    report.summaries, report.summary_failures = summary.refreshed, summary.failed_calls
    usage = usage + (ingestor.llm.usage.snapshot() - parent_before)  # the summaries' calls
    report.llm, report.llm_by_task = usage.as_dict(), usage.tasks()
    report.stages = times.as_dict()
    report.embedding = {"texts_encoded": encoded, "encode_calls": calls, "workers": workers}
    report.seconds = time.monotonic() - started
    report.lease = {**times.lease(report.seconds), **rechecked}
    report.peak_rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return report


def _numbered(
    documents: Iterable[SourceDocument | SourceRejected],
    size: int,
    refused: Callable[[list[CommitReport]], None],
) -> Iterator[tuple[int, list[SourceDocument]]]:
    """Batches of readable documents, numbered; a refused file is reported here and never
    sent (its reason is all there is to say about it)."""
    number = 0
    for chunk in batched(documents, size):
        docs = [d for d in chunk if isinstance(d, SourceDocument)]
        refused(
            [
                CommitReport(source_id="", path=r.path, status="skipped", reason=r.reason)
                for r in chunk
                if isinstance(r, SourceRejected)
            ]
        )
        if docs:
            number += 1
            yield number, docs


def _alive(pool: _Pool) -> int:
    return sum(1 for n, p in pool.processes.items() if n not in pool.dead and p.is_alive())


def _collect(pool: _Pool, queued: dict[int, list[SourceDocument]], log: Callable[[str], None]) -> list[BatchDone]:
    """What the workers sent within one poll; a worker found dead fails the batch it held."""
    done: list[BatchDone] = []
    try:
        kind, worker, payload = pool.results.get(timeout=POLL_S)
    except queue.Empty:
        kind = None
    if kind == "log":
        log(payload)
    elif kind == "took":
        pool.holding[worker] = payload
    elif kind == "done":
        pool.holding.pop(worker, None)
        queued.pop(payload.number, None)
        done.append(payload)
    elif kind == "dead":
        pool.dead[worker] = payload
        log(f"ingest worker {worker} stopped: {payload}")
    for n, process in pool.processes.items():
        if n not in pool.dead and not process.is_alive() and pool.results.empty():
            pool.dead[n] = f"worker {n} exited with code {process.exitcode}"
            log(pool.dead[n])
    for n in list(pool.holding):
        if n in pool.dead:
            held = pool.holding.pop(n)
            pool.turn.done(held)  # the batches after it may commit
            if held in queued:
                done.append(
                    BatchDone(
                        number=held,
                        reports=_failed(queued.pop(held), f"the ingest worker died ({pool.dead[n]})"),
                        seconds={},
                        lease_held=[],
                        usage={"by_task": {}},
                        encoded=0,
                        encode_calls=0,
                        worker=n,
                    )
                )
    return done


def _failed(docs: list[SourceDocument], reason: str) -> list[CommitReport]:
    return [CommitReport(source_id=d.source_id, path=d.path, status="failed", reason=reason) for d in docs]


def _stop(pool: _Pool) -> None:
    for _ in pool.processes:
        pool.tasks.put(None)
    for process in pool.processes.values():
        process.join(timeout=30)
        if process.is_alive():
            process.terminate()
            process.join(timeout=5)
        if process.is_alive():  # SIGTERM ignored (a disposition inherited from our parent)
            process.kill()
            process.join(timeout=5)
    pool.tasks.cancel_join_thread()
    pool.results.cancel_join_thread()
