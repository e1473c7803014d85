"""What the per-batch signature check costs at a graph's size: the full scan of every
concept, against the check among the concepts one batch touched (``query.signatures.stale``).

The check only reads; nothing is written. Touched sets are drawn at random from the graph's
concepts, a batch's worth each (its concepts and the other ends of its new edges).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Sequence

from graphwiki_assets.core.query.signatures import stale
from graphwiki_assets.core.store.driver import Graph

ALL_IDS = "MATCH (c:Concept) RETURN c.id AS id"


def _median_ms(store: Graph, among: list[str] | None, runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        stale(store, among)
        times.append(time.perf_counter() - started)
    return round(1000 * statistics.median(times), 1)


def measure(store: Graph, touched: Sequence[int] = (40, 400), runs: int = 7, seed: int = 0) -> dict:
    """Median milliseconds of ``runs`` checks: every concept, and each touched-set size."""
    ids = [r["id"] for r in store.query(ALL_IDS)]
    draw = random.Random(seed)
    checks = {"every concept": _median_ms(store, None, runs)}
    for n in touched:
        checks[f"{n} touched"] = _median_ms(store, draw.sample(ids, min(n, len(ids))), runs)
    full = checks["every concept"]
    return {
        "concepts": len(ids),
        "runs": runs,
        "median_ms": checks,
        "full_over_touched": {k: round(full / v, 1) for k, v in checks.items() if k != "every concept" and v > 0},
    }
