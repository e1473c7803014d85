"""Ingest requests of the HTTP API and of MCP, queued and run one after another by one
worker thread.

A request returns as soon as its job is recorded and queued; the caller polls the job for
its status, its progress lines and, when done, the ingest report. With records
(``JobRecords``) a job outlives the process: recorded before it is acknowledged, and taken
over by the next queue that starts if its process ended before it did. One worker keeps
this process's ingests in arrival order (the workspace serialises them too, and the
ingest lease serialises them against every other writer). A failed job records its error
and the next one still runs. Finished jobs are kept up to a bound, oldest dropped first.
"""

from __future__ import annotations

import logging
import queue
import threading
import uuid
from collections import OrderedDict, deque
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from graphwiki_assets.core.service.job_records import UNFINISHED, JobRecords
from graphwiki_assets.core.service.requests import AddSource, NotFound
from graphwiki_assets.core.service.validation import validated

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

    def _state(self) -> dict[str, Any]:
        """What a caller and the job's file both say of it (under the lock)."""
        return {
            "id": self.id,
            "name": self.request.name,
            "status": self.status,
            "queued_at": self.queued_at,
            "started_at": self.started_at,
            "finished_at": self.finished_at,
            "report": self.report,
            "error": self.error,
        }

    def record(self) -> dict:
        """What the job's file holds: the text only while the job has still to run."""
        with self._lock:
            record: dict[str, Any] = {**self._state(), "actor": self.actor}
            if self.status in UNFINISHED:
                record["text"] = self.request.text
            else:
                record["progress"] = list(self.lines)
            return record

    @classmethod
    def restored(cls, record: dict) -> Job:
        text = record.get("text")
        # a finished job's text is gone with the need for it; an unfinished one's is checked again
        request = (
            AddSource(name=record["name"], text=text)
            if text
            else AddSource.model_construct(name=record["name"], text="")
        )
        job = cls(request, record.get("actor", "api"))
        job.id, job.queued_at = record["id"], record["queued_at"]
        job.status = record["status"]
        job.started_at, job.finished_at = record.get("started_at"), record.get("finished_at")
        job.report, job.error = record.get("report"), record.get("error")
        job.lines.extend(record.get("progress") or [])
        return job

    def view(self) -> JobView:
        with self._lock:
            return JobView(**self._state(), progress=list(self.lines))


Ingest = Callable[[AddSource, str, Callable[[str], None]], dict]


class JobQueue:
    """Ingest jobs in arrival order on one worker thread; ``ingest(request, actor, progress)``
    does the work (``Workspace.add_source``)."""

    def __init__(self, ingest: Ingest, records: JobRecords | None = None, kept: int = KEPT_JOBS):
        self._ingest = ingest
        self._records = records
        self._kept = kept
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._lock = threading.Lock()
        self._pending: queue.Queue[Job | None] = queue.Queue()
        self._worker: threading.Thread | None = None
        self._stopping = threading.Event()

    def start(self) -> None:
        """Start the worker (idempotent). With records: the finished jobs on disk can be
        polled again, and the unfinished ones of ended processes are queued first."""
        with self._lock:
            if self._worker is not None:
                return
            self._stopping.clear()
            self._drop_stop_marks()
            if self._records is not None:
                self._resume(self._records)
            self._worker = threading.Thread(target=self._run, name="graphwiki-ingest-jobs", daemon=True)
            self._worker.start()

    def _resume(self, records: JobRecords) -> None:
        records.open()
        for record in records.load():
            if record.get("status") not in UNFINISHED and record["id"] not in self._jobs:
                self._jobs[record["id"]] = Job.restored(record)
        for record in records.take_over():
            try:
                job = Job.restored(record)
            except (KeyError, TypeError, ValueError) as exc:  # a record edited or damaged by hand
                logger.error("ingest job record %s cannot be resumed: %s", record.get("id"), exc)
                records.save({**record, "status": "failed", "error": f"its record cannot be resumed: {exc}"})
                continue
            job.status = "queued"
            job.note(f"resumed: its process ended while the job was {record['status']}")
            self._jobs[job.id] = job
            self._pending.put(job)
            logger.info("ingest job %s (%s) resumed", job.id, job.request.name)

    def stop(self, timeout: float | None = None) -> None:
        """Let the running job finish, then stop. Jobs still queued stay recorded (with
        records) and run when a queue starts again; without records they are lost."""
        with self._lock:
            worker, self._worker = self._worker, None
        if worker is not None:
            self._stopping.set()
            self._pending.put(None)  # wakes an idle worker
            worker.join(timeout)
        if self._records is not None and (worker is None or not worker.is_alive()):
            self._records.close()

    def submit(self, request: AddSource | dict, actor: str) -> JobView:
        """Queue one source; a request that could never be ingested is refused here (BadRequest)."""
        job = Job(validated(AddSource, request), actor)
        self.start()
        self._save(job)  # on disk before the caller hears of it: a crash now loses nothing
        with self._lock:
            self._jobs[job.id] = job
            self._forget_oldest_finished()
        self._pending.put(job)
        return job.view()

    def _save(self, job: Job) -> None:
        if self._records is not None:
            self._records.save(job.record())

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
        finished = [j.id for j in self._jobs.values() if j.status not in UNFINISHED]
        for job_id in finished[: max(0, len(self._jobs) - self._kept)]:
            del self._jobs[job_id]
            if self._records is not None:
                self._records.forget(job_id)

    def _run(self) -> None:
        while not self._stopping.is_set() and (job := self._pending.get()) is not None:
            self._run_one(job)

    def _drop_stop_marks(self) -> None:
        """The queue without the wake-up marks an earlier stop left in it."""
        left = []
        while not self._pending.empty():
            if (job := self._pending.get_nowait()) is not None:
                left.append(job)
        for job in left:
            self._pending.put(job)

    def _run_one(self, job: Job) -> None:
        job.started()
        try:
            self._save(job)
            report = self._ingest(job.request, job.actor, job.note)
        except Exception as exc:  # one job's failure is its own; the queue goes on
            logger.exception("ingest job %s (%s) failed", job.id, job.request.name)
            job.finished(error=f"{type(exc).__name__}: {exc}")
        else:
            job.finished(report=report, error=source_failure(report))
        try:
            self._save(job)
        except OSError:  # the disk filled: the job ran, its record says running and is re-run (a no-op)
            logger.exception("ingest job %s: its record could not be written", job.id)


def source_failure(report: dict) -> str | None:
    """Why the job's source was not ingested (the ingest reports a failed source as a
    problem, not an error): a job whose file failed is a failed job, with the reason."""
    failed = [p for p in report.get("problems", []) if p.get("status") == "failed"]
    if not failed or report.get("sources", {}).get("new") or report.get("sources", {}).get("unchanged"):
        return None
    return f"the source failed: {failed[0].get('reason')}; the file is kept under sources/ for the next ingest"
