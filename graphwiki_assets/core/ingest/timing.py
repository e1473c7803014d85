"""Wall time per ingest stage, so a run can say where its time went.

The next batch is prepared while the current one is resolved, so stage times of two
threads can overlap: their sum may exceed the wall time.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

STAGES = (
    "read",
    "extract",
    "embed",
    "vector_search",
    "judge",
    "conflict",
    "lease_wait",
    "lease_held",
    "write",
    "summaries",
)


@dataclass
class StageTimes:
    seconds: dict[str, float] = field(default_factory=dict)
    # Seconds each batch held the ingest lease, in order: the serial part every writer
    # shares, so its share of the wall time bounds what more writers can gain.
    lease_held: list[float] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def add(self, name: str, seconds: float) -> None:
        with self._lock:
            self.seconds[name] = self.seconds.get(name, 0.0) + seconds

    def held(self, seconds: float) -> None:
        with self._lock:
            self.lease_held.append(seconds)
        self.add("lease_held", seconds)

    def lease(self, wall_s: float) -> dict:
        """The lease's time per batch and its share of ``wall_s``."""
        held = list(self.lease_held)
        total = sum(held)
        return {
            "held_seconds": round(total, 3),
            "share_of_wall": round(total / wall_s, 4) if wall_s > 0 else None,
            "per_batch_seconds": [round(s, 3) for s in held],
        }

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        started = time.perf_counter()
        try:
            yield
        finally:
            self.add(name, time.perf_counter() - started)

    def as_dict(self) -> dict[str, float]:
        known = {name: round(self.seconds.get(name, 0.0), 3) for name in STAGES}
        return {**known, **{k: round(v, 3) for k, v in self.seconds.items() if k not in known}}
