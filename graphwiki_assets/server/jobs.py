"""Ingest requests of the HTTP API, queued and run one after another by one worker thread.

A request returns as soon as its job is queued; the caller polls the job for its status,
its progress lines and, when done, the ingest report. One worker keeps this process's
ingests in arrival order (the workspace serialises them too, and the ingest lease
serialises them against every other writer). A failed job records its error and the next
one still runs. Finished jobs are kept up to a bound, oldest dropped first.
"""

from __future__ import annotations

import logging
import queue
import threading
import uuid
from collections import OrderedDict, deque
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Literal

from pydantic import BaseModel, Field

from graphwiki_assets.core.service import AddSource, NotFound
from graphwiki_assets.core.service.workspace import validated

logger = logging.getLogger("graphwiki.serve")

JobStatus = Literal["queued", "running", "done", "failed"]
KEPT_JOBS = 200  # finished jobs remembered for polling
KEPT_LINES = 500  # progress lines per job: a large ingest's first lines matter less than its last


class JobView(BaseModel):
    """What a caller sees of one ingest job."""

    id: str
    name: str = Field(description="the source's name under the sources folder")
    status: JobStatus
    queued_at: str
    started_at: str | None = None
    finished_at: str | None = None
    progress: list[str] = Field(default_factory=list, description="the ingest's progress lines, oldest first")
    report: dict | None = Field(None, description="the ingest report, once done")
    error: str | None = Field(None, description="why the job failed")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class Job:
    def __init__(self, request: AddSource, actor: str):
        self.id = uuid.uuid4().hex
        self.request = request
        self.actor = actor
        self.status: JobStatus = "queued"
        self.queued_at = _now()
        self.started_at: str | None = None
        self.finished_at: str | None = None
        self.lines: deque[str] = deque(maxlen=KEPT_LINES)
        self.report: dict | None = None
        self.error: str | None = None
        self._lock = threading.Lock()

    def note(self, line: str) -> None:
        with self._lock:
            self.lines.append(line)

    def started(self) -> None:
        with self._lock:
            self.status, self.started_at = "running", _now()

    def finished(self, report: dict | None = None, error: str | None = None) -> None:
        with self._lock:
            self.status = "failed" if error is not None else "done"
            self.report, self.error, self.finished_at = report, error, _now()

    def view(self) -> JobView:
        with self._lock:
            return JobView(
                id=self.id,
                name=self.request.name,
                status=self.status,
                queued_at=self.queued_at,
                started_at=self.started_at,
                finished_at=self.finished_at,
                progress=list(self.lines),
                report=self.report,
                error=self.error,
            )


Ingest = Callable[[AddSource, str, Callable[[str], None]], dict]


class JobQueue:
    """Ingest jobs in arrival order on one worker thread; ``ingest(request, actor, progress)``
    does the work (``Workspace.add_source``)."""

    def __init__(self, ingest: Ingest, kept: int = KEPT_JOBS):
        self._ingest = ingest
        self._kept = kept
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._lock = threading.Lock()
        self._pending: queue.Queue[Job | None] = queue.Queue()
        self._worker: threading.Thread | None = None

    def start(self) -> None:
        if self._worker is None:
            self._worker = threading.Thread(target=self._run, name="graphwiki-ingest-jobs", daemon=True)
            self._worker.start()

    def stop(self, timeout: float | None = None) -> None:
        """Let the running job finish, then stop; jobs still queued stay queued (and are lost
        with the process: their sources were never written)."""
        if self._worker is not None:
            self._pending.put(None)
            self._worker.join(timeout)
            self._worker = None

    def submit(self, request: AddSource | dict, actor: str) -> JobView:
        """Queue one source; a request that could never be ingested is refused here (BadRequest)."""
        job = Job(validated(AddSource, request), actor)
        with self._lock:
            self._jobs[job.id] = job
            self._forget_oldest_finished()
        self._pending.put(job)
        return job.view()

    def get(self, job_id: str) -> JobView:
        with self._lock:
            job = self._jobs.get(job_id)
        if job is None:
            raise NotFound(f"no ingest job {job_id!r} (finished jobs are kept up to {self._kept})")
        return job.view()

    def views(self) -> list[JobView]:
        with self._lock:
            jobs = list(self._jobs.values())
        return [job.view() for job in jobs]

    def _forget_oldest_finished(self) -> None:
        finished = [j.id for j in self._jobs.values() if j.status in ("done", "failed")]
        for job_id in finished[: max(0, len(self._jobs) - self._kept)]:
            del self._jobs[job_id]

    def _run(self) -> None:
        while (job := self._pending.get()) is not None:
            self._run_one(job)

    def _run_one(self, job: Job) -> None:
        job.started()
        try:
            report = self._ingest(job.request, job.actor, job.note)
        except Exception as exc:  # one job's failure is its own; the queue goes on
            logger.exception("ingest job %s (%s) failed", job.id, job.request.name)
            job.finished(error=f"{type(exc).__name__}: {exc}")
            return
        job.finished(report=report)
