"""Ingest jobs outlive the process that accepted them: recorded before they are
acknowledged, taken over by the next queue that starts after their process ended (however
it ended), never by a queue whose process is alive, and never run again once finished."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from graphwiki_assets.core.service.job_records import JobRecords
from graphwiki_assets.core.service.jobs import JobQueue


class Recorder:
    """An ingest that notes what it was given (and can be held at its first call)."""

    def __init__(self, hold: bool = False):
        self.calls: list[tuple[str, str]] = []
        self.release = threading.Event()
        if not hold:
            self.release.set()

    def __call__(self, request, actor, progress) -> dict:
        self.release.wait(30)
        self.calls.append((request.name, request.text))
        progress(f"ingested {request.name}")
        return {"sources": {"new": 1}}


def _until_finished(queue: JobQueue, ids: list[str], timeout: float = 20.0) -> dict[str, str]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        statuses = {i: queue.get(i).status for i in ids}
        if all(s in ("done", "failed") for s in statuses.values()):
            return statuses
        time.sleep(0.05)
    raise AssertionError(f"jobs unfinished: {statuses}")


def test_a_job_is_on_disk_with_its_text_before_it_is_acknowledged(tmp_path):
    ingest = Recorder(hold=True)
    queue = JobQueue(ingest, records=JobRecords(tmp_path / "jobs"))
    job = queue.submit({"name": "notes/a.md", "text": "Alpha is a letter."}, actor="http")
    record = json.loads((tmp_path / "jobs" / f"{job.id}.json").read_text())
    assert record["text"] == "Alpha is a letter." and record["status"] in ("queued", "running")
    ingest.release.set()
    _until_finished(queue, [job.id])
    queue.stop(5)
    done = json.loads((tmp_path / "jobs" / f"{job.id}.json").read_text())
    assert done["status"] == "done" and "text" not in done and done["progress"] == ["ingested notes/a.md"]


def test_jobs_left_queued_at_a_stop_run_once_at_the_next_start_and_finished_ones_never_again(tmp_path):
    first = Recorder(hold=True)
    queue = JobQueue(first, records=JobRecords(tmp_path / "jobs"))
    ids = [queue.submit({"name": f"n{i}.md", "text": f"Text {i}."}, actor="http").id for i in range(3)]
    first.release.set()
    queue.stop(5)  # the first job ends; the other two were still queued
    assert [name for name, _ in first.calls] == ["n0.md"]

    second = Recorder()
    restarted = JobQueue(second, records=JobRecords(tmp_path / "jobs"))
    restarted.start()
    assert _until_finished(restarted, ids) == dict.fromkeys(ids, "done")
    assert [name for name, _ in second.calls] == ["n1.md", "n2.md"]  # in their order, n0 not again
    assert restarted.get(ids[0]).report == {"sources": {"new": 1}}  # a finished job can still be polled
    assert "resumed" in restarted.get(ids[1]).progress[0]
    restarted.stop(5)


def test_a_live_queue_keeps_its_jobs_from_another_that_starts(tmp_path):
    held = Recorder(hold=True)
    alive = JobQueue(held, records=JobRecords(tmp_path / "jobs"))
    ids = [alive.submit({"name": f"n{i}.md", "text": "T."}, actor="mcp").id for i in range(2)]
    other = Recorder()
    second = JobQueue(other, records=JobRecords(tmp_path / "jobs"))
    second.start()
    time.sleep(0.3)
    assert other.calls == []
    held.release.set()
    assert _until_finished(alive, ids) == dict.fromkeys(ids, "done")
    alive.stop(5)
    second.stop(5)


WORKER = """
import sys, threading
from graphwiki_assets.core.service.job_records import JobRecords
from graphwiki_assets.core.service.jobs import JobQueue

def ingest(request, actor, progress):
    threading.Event().wait()  # never ends: the process is killed mid-ingest

queue = JobQueue(ingest, records=JobRecords(sys.argv[1]))
for i in range(3):
    queue.submit({"name": f"k{i}.md", "text": f"Kept {i}."}, actor="http")
print("submitted", flush=True)
threading.Event().wait()
"""


def test_jobs_of_a_killed_process_run_once_in_the_next(tmp_path):
    worker = subprocess.Popen(
        [sys.executable, "-c", WORKER, str(tmp_path / "jobs")],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
    )
    try:
        assert worker.stdout.readline().strip() == "submitted"
        time.sleep(0.2)  # the first job is running
    finally:
        worker.send_signal(signal.SIGKILL)
        worker.wait(10)
    statuses = sorted(json.loads(p.read_text())["status"] for p in (tmp_path / "jobs").glob("*.json"))
    assert statuses == ["queued", "queued", "running"]

    ingest = Recorder()
    queue = JobQueue(ingest, records=JobRecords(tmp_path / "jobs"))
    queue.start()
    ids = [json.loads(p.read_text())["id"] for p in (tmp_path / "jobs").glob("*.json")]
    assert _until_finished(queue, ids) == dict.fromkeys(ids, "done")
    assert sorted(ingest.calls) == [("k0.md", "Kept 0."), ("k1.md", "Kept 1."), ("k2.md", "Kept 2.")]
    queue.stop(5)


def test_a_job_whose_source_failed_is_a_failed_job_with_the_reason(tmp_path):
    def failing(request, actor, progress) -> dict:  # the ingest reports a failed source, not an error
        reason = "openai:model judge: gave up after 5 attempts: Error code: 503"
        return {"sources": {"new": 0, "failed": 1}, "problems": [{"status": "failed", "reason": reason}]}

    queue = JobQueue(failing, records=JobRecords(tmp_path / "jobs"))
    job = queue.submit({"name": "notes/a.md", "text": "Alpha is a letter."}, actor="http")
    assert _until_finished(queue, [job.id]) == {job.id: "failed"}
    view = queue.get(job.id)
    assert "gave up after 5 attempts" in view.error and view.report["sources"]["failed"] == 1
    queue.stop(5)
