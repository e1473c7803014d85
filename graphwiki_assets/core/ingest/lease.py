"""The ingest lease: one writer at a time resolves and commits a batch.

Resolution reads the graph (which concepts exist), asks the LLM about candidates and
then writes what it decided. Two writers doing that at once each see a graph without
the other's new concepts, so each creates its own node for one entity and neither sees
the other's claims to compare. Holding a graph-wide lease from the first read of a batch
to its commit makes every writer resolve against everything committed before it: any
number of CLI processes and Dagster runs end with the graph a serial run would build.
Extraction needs no graph and runs outside the lease; so do the judge's and the conflict
calls, asked in a draft against the graph as it stood (``answered``): under the lease only
the pairs the commits since then changed are asked again.

The lease is a node in the graph itself, so it serialises writers on different
machines as well. Its holder renews it while working; a holder that dies stops renewing
and loses it after ``ttl_s`` (at once, when it was a process on this host that no longer
exists). The commit transaction checks the lease again and locks it, so a holder that
lost its lease (a pause longer than the ttl) writes nothing and redoes the batch.
"""

from __future__ import annotations

import os
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from neo4j import ManagedTransaction

from graphwiki_assets.core.ingest import cypher
from graphwiki_assets.core.processes import pid_alive
from graphwiki_assets.core.store.driver import GraphStore, rows

LEASE_NAME = "ingest"


@dataclass(frozen=True)
class LeaseConfig:
    ttl_s: float = 60.0  # a holder that stops renewing loses the lease after this long
    wait_s: float = 3600.0  # how long a writer waits for a busy lease before giving up
    poll_s: float = 0.25


class LeaseTimeout(RuntimeError):
    """Another writer held the ingest lease for longer than this writer would wait."""


class LeaseLost(RuntimeError):
    """The lease expired while its holder worked; the holder must not commit."""


class IngestLease:
    def __init__(
        self,
        store: GraphStore,
        config: LeaseConfig = LeaseConfig(),
        purpose: str = "ingest",
        log: Callable[[str], None] = lambda msg: None,
    ):
        self.store = store
        self.config = config
        self.purpose = purpose
        self.log = log
        self.host = socket.gethostname()
        self.holder = f"{self.host}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.waited_s = 0.0

    # -- one attempt -----------------------------------------------------------------

    def _try(self, tx: ManagedTransaction) -> dict | None:
        """Take the lease if it is free; else return who holds it. The first statement
        writes to the lease node, so the read that follows cannot race another writer."""
        current = rows(tx, cypher.LOCK_LEASE, name=LEASE_NAME)[0]
        free = (
            current["holder"] in (None, self.holder)
            or current["expired"]
            or (current["host"] == self.host and current["pid"] is not None and not pid_alive(current["pid"]))
        )
        if not free:
            return current
        rows(
            tx,
            cypher.TAKE_LEASE,
            name=LEASE_NAME,
            holder=self.holder,
            host=self.host,
            pid=os.getpid(),
            purpose=self.purpose,
            ttl_ms=int(self.config.ttl_s * 1000),
        )
        return None

    def acquire(self) -> None:
        started = time.monotonic()
        announced = 0.0
        while True:
            busy = self.store.write(self._try)
            if busy is None:
                self.waited_s += time.monotonic() - started
                return
            waited = time.monotonic() - started
            if waited > self.config.wait_s:
                raise LeaseTimeout(
                    f"another writer ({busy['purpose'] or 'ingest'} on {busy['host']}, pid {busy['pid']}) has held the "
                    f"ingest lease for over {self.config.wait_s:.0f}s; if it is gone, its lease expires "
                    f"{self.config.ttl_s:.0f}s after its last renewal"
                )
            if waited - announced >= 30 or announced == 0.0:
                self.log(
                    f"waiting for the ingest lease held by {busy['purpose'] or 'ingest'} "
                    f"on {busy['host']} (pid {busy['pid']})"
                )
                announced = max(waited, 1e-9)
            time.sleep(self.config.poll_s)

    def renew(self) -> bool:
        found = self.store.query(
            cypher.RENEW_LEASE, name=LEASE_NAME, holder=self.holder, ttl_ms=int(self.config.ttl_s * 1000)
        )
        return bool(found and found[0]["renewed"])

    def release(self) -> None:
        self.store.query(cypher.RELEASE_LEASE, name=LEASE_NAME, holder=self.holder)

    def check(self, tx: ManagedTransaction) -> None:
        """Inside a commit: lock the lease and make sure this writer still holds it."""
        if not rows(tx, cypher.CHECK_LEASE, name=LEASE_NAME, holder=self.holder)[0]["held"]:
            raise LeaseLost("the ingest lease expired before the commit; the batch is redone")

    @contextmanager
    def held(self) -> Iterator[IngestLease]:
        self.acquire()
        stop = threading.Event()

        def heartbeat() -> None:
            while not stop.wait(self.config.ttl_s / 3):
                try:
                    self.renew()
                except Exception:  # a missed renewal is caught by check() at commit
                    pass

        thread = threading.Thread(target=heartbeat, name="ingest-lease", daemon=True)
        thread.start()
        try:
            yield self
        finally:
            stop.set()
            thread.join(timeout=5)
            try:
                self.release()
            except Exception:  # unreachable graph: the lease expires on its own
                pass
