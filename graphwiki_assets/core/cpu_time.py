"""CPU time spent by this process and by a local Neo4j server, for the benchmarks.

On a machine with few cores the ingest's wall time is bounded by the CPU time all its
parts need (the encoder, the rules, the driver, Neo4j) divided by the cores: no overlap
of stages gets below that. Measuring both processes says whether a slow run waited or
worked, and how far any time target is from what the cores allow.
"""

from __future__ import annotations

import os
import socket
import time
from dataclasses import dataclass
from urllib.parse import urlparse

_LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1", "0.0.0.0"}


def cores() -> int:
    """Cores this process may run on (its affinity, not the machine's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def process_seconds(pid: int) -> float | None:
    """User + system CPU seconds of a process, all its threads; None if it is gone or not
    ours to read."""
    if pid == os.getpid():
        return time.process_time()  # the kernel's own clock: finer than the tick counts of /proc
    import psutil  # here: the encoder imports cores() at start-up and needs none of psutil

    try:
        times = psutil.Process(pid).cpu_times()  # its threads, not its children
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return None
    return times.user + times.system


def local_server_pid(uri: str) -> int | None:
    """The process listening on a Bolt URI's port on this machine; None for a remote server,
    or one this user may not see (another user's, in a container)."""
    parsed = urlparse(uri)
    host, port = parsed.hostname, parsed.port or 7687
    if host is None or (host not in _LOCAL_HOSTS and host != socket.gethostname()):
        return None
    import psutil

    try:
        connections = psutil.net_connections(kind="tcp")
    except psutil.AccessDenied:
        return None
    for conn in connections:
        if conn.status == psutil.CONN_LISTEN and conn.laddr and conn.laddr.port == port and conn.pid:
            return conn.pid
    return None


@dataclass
class CpuMeter:
    """CPU seconds of this process and of a server process between ``start`` and ``stop``."""

    server_pid: int | None = None
    _own: float = 0.0
    _server: float | None = None
    own_seconds: float = 0.0
    server_seconds: float | None = None

    def start(self) -> CpuMeter:
        self._own = time.process_time()
        self._server = process_seconds(self.server_pid) if self.server_pid else None
        return self

    def stop(self) -> CpuMeter:
        self.own_seconds = time.process_time() - self._own
        after = process_seconds(self.server_pid) if self.server_pid else None
        # A server that restarted meanwhile is another process: its count says nothing.
        self.server_seconds = after - self._server if after is not None and self._server is not None else None
        return self

    def budget(self, wall: float) -> dict:
        """The CPU both processes used against what the cores could give in ``wall`` seconds."""
        n = cores()
        total = self.own_seconds + (self.server_seconds or 0.0)
        return {
            "cores": n,
            "process_seconds": round(self.own_seconds, 1),
            "neo4j_seconds": round(self.server_seconds, 1) if self.server_seconds is not None else None,
            "total_seconds": round(total, 1),
            # The least wall time this work could take on these cores, every core busy throughout.
            "least_wall_seconds": round(total / n, 1),
            "busy_share": round(total / (n * wall), 3) if wall > 0 else None,
        }
