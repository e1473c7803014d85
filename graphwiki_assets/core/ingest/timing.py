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

STAGES = ("read", "extract", "embed", "vector_search", "judge", "conflict", "lease_wait", "write", "summaries")


@dataclass
class StageTimes:
    seconds: dict[str, float] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def add(self, name: str, seconds: float) -> None:
        with self._lock:
            self.seconds[name] = self.seconds.get(name, 0.0) + seconds

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
