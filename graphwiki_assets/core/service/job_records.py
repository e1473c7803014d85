"""Ingest jobs on disk, so that a job acknowledged is a job that will run.

Each job is one JSON file under ``$GRAPHWIKI_HOME/jobs``, written (and synced) before the
request that submitted it is answered, rewritten when it starts and when it ends; the
document's text is kept only until then. A process that runs jobs holds a lock on its own
owner file for its lifetime. When a queue starts, it takes over every unfinished job whose
owner's lock is free (its process has ended, however it ended) and runs it again. Running
an interrupted job again is safe: an ingest commits batch by batch and skips what a
source's hash says it already holds, so a job's effect happens once.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

UNFINISHED = ("queued", "running")


class JobRecords:
    def __init__(self, root: Path):
        self.root = Path(root)
        self.owner = uuid.uuid4().hex
        self._owner_lock: IO[bytes] | None = None

    def open(self) -> None:
        """Create the folder and hold this process's owner lock (idempotent)."""
        if self._owner_lock is not None:
            return
        (self.root / "owners").mkdir(parents=True, exist_ok=True)
        handle = open(self._owner_file(self.owner), "wb")  # noqa: SIM115 - held for the process's life
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        self._owner_lock = handle

    def close(self) -> None:
        if self._owner_lock is not None:
            fcntl.flock(self._owner_lock, fcntl.LOCK_UN)
            self._owner_lock.close()
            self._owner_lock = None
            self._owner_file(self.owner).unlink(missing_ok=True)

    def save(self, record: dict[str, Any]) -> None:
        """Write one job's record atomically and durably (a crash leaves the old or the new)."""
        path = self.root / f"{record['id']}.json"
        tmp = path.with_suffix(f".{uuid.uuid4().hex}.tmp")
        with open(tmp, "w", encoding="utf-8") as handle:
            json.dump({**record, "owner": self.owner}, handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)

    def load(self) -> list[dict[str, Any]]:
        """Every readable record, oldest queued first. A file that does not parse (a disk
        that filled mid-write leaves none: writes are renamed into place) is skipped."""
        records = []
        for path in self.root.glob("*.json"):
            with contextlib.suppress(OSError, ValueError):
                records.append(json.loads(path.read_text(encoding="utf-8")))
        return sorted(records, key=lambda r: (r.get("queued_at", ""), r.get("id", "")))

    def take_over(self) -> list[dict[str, Any]]:
        """The unfinished jobs of ended processes, now this process's, oldest first. Two
        processes starting at once take turns here, so a job is taken over once."""
        with self._resume_lock():
            taken = []
            for record in self.load():
                if record.get("status") in UNFINISHED and record.get("owner") != self.owner:
                    if self._ended(record.get("owner", "")):
                        self.save(record)  # now ours
                        taken.append(record)
            return taken

    def forget(self, job_id: str) -> None:
        (self.root / f"{job_id}.json").unlink(missing_ok=True)

    def _owner_file(self, owner: str) -> Path:
        return self.root / "owners" / f"{owner}.lock"

    def _ended(self, owner: str) -> bool:
        path = self._owner_file(owner)
        if not owner or not path.exists():
            return True
        with open(path, "ab") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return False  # its process still holds it
            fcntl.flock(handle, fcntl.LOCK_UN)
        path.unlink(missing_ok=True)
        return True

    @contextlib.contextmanager
    def _resume_lock(self) -> Iterator[None]:
        with open(self.root / "resume.lock", "ab") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)
