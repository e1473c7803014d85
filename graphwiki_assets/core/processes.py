"""Background servers this package starts (Neo4j, llama.cpp): their pid files, waiting for
them to answer, and stopping them by process group; and the file lock that lets one process
at a time fill a cache entry or write a folder."""

from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def file_lock(path: Path) -> Iterator[None]:
    """An exclusive lock on ``path``, held for the block; another process waits for it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def pid_alive(pid: int) -> bool:
    """Whether a process with this pid exists (someone else's counts: it is alive)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _is_zombie(pid: int) -> bool:
    """A server started by this process lingers as a zombie after exit until reaped."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    if state == "Z":
        try:
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            pass
        return True
    return False


def live_pid(pid_file: Path) -> int | None:
    """The pid in ``pid_file`` while that process runs, else None."""
    try:
        pid = int(pid_file.read_text().strip())
    except (FileNotFoundError, ValueError):
        return None
    return pid if pid_alive(pid) and not _is_zombie(pid) else None


def wait_until(ready: Callable[[], bool], timeout_s: float, proc: subprocess.Popen | None = None) -> bool:
    """True once ``ready()`` is; False at the timeout or as soon as ``proc`` has exited."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            return False
        if ready():
            return True
        time.sleep(0.5)
    return False


def stoppable() -> None:
    """In a server's child before exec: SIGTERM and SIGINT back to their defaults. Ignored
    signals survive exec, and a JVM leaves an ignored SIGTERM ignored; a parent running in
    the background ignores SIGINT, and Dagster maps SIGTERM to SIGINT's handler, so without
    this a server started from a Dagster run could not be stopped until SIGKILL."""
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})


def signal_group(pid: int, sig: int) -> None:
    try:
        os.killpg(pid, sig)
    except ProcessLookupError:
        pass
    except PermissionError:
        os.kill(pid, sig)


def stop_group(pid_file: Path, timeout_s: float) -> None:
    """SIGTERM to the process group of the pid in ``pid_file``, SIGKILL if it outlives the
    timeout; the pid file is removed."""
    pid = live_pid(pid_file)
    if pid is not None:
        signal_group(pid, signal.SIGTERM)
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline and live_pid(pid_file) is not None:
            time.sleep(0.2)
        if live_pid(pid_file) is not None:
            signal_group(pid, signal.SIGKILL)
            time.sleep(0.3)
    pid_file.unlink(missing_ok=True)
