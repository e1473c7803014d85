"""Query latency per technique, on whatever graph the store holds.

Questions are drawn from the graph itself (seeded random concepts, and pairs of concepts
a few hops apart for paths), so the benchmark runs on any corpus without labelled data.
Each question is answered through the same ``ask`` users call, with the shape forced,
so the numbers are end-to-end (linking, retrieval, synthesis).
"""

from __future__ import annotations

import random
import statistics
import time

from graphwiki_assets.core.query import ask
from graphwiki_assets.core.store.driver import GraphStore

SAMPLE_CONCEPTS = """
MATCH (c:Concept)
WHERE c.status <> 'superseded' AND COUNT { (c)--() } >= 2
RETURN c.name AS name ORDER BY c.id
"""

# Pairs two concept hops apart and not adjacent, so a path has an intermediate to explain.
# Bounded per name (PAIR_VIA intermediates): a variable-length match from a hub would
# enumerate millions of paths.
PAIR_VIA = 20
CONNECTED_PAIRS = """
UNWIND $names AS name
CALL (name) {
  MATCH (a:Concept {name: name})-[:RELATES_TO|PART_OF]-(m:Concept)
  WITH a, m LIMIT $via
  MATCH (m)-[:RELATES_TO|PART_OF]-(b:Concept)
  WHERE b <> a AND b.status <> 'superseded' AND NOT EXISTS { (a)-[:RELATES_TO|PART_OF]-(b) }
  RETURN collect(DISTINCT b.name)[..3] AS others
}
RETURN name, others
"""

SHAPES = {
    "what_is": "What is {a}?",
    "related": "What else relates to {a}?",
    "connect": "How does {a} connect to {b}?",
    "shaped_like": "Find something shaped like {a}",
}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def measure(store: GraphStore, embedder, llm, per_shape: int = 30, seed: int = 0) -> dict:
    rng = random.Random(seed)
    names = [r["name"] for r in store.query(SAMPLE_CONCEPTS)]
    if not names:
        return {"error": "the graph has no connected concepts to ask about"}
    picked = rng.sample(names, min(per_shape, len(names)))
    pairs = [(r["name"], rng.choice(r["others"])) for r in store.query(CONNECTED_PAIRS, names=picked, via=PAIR_VIA) if r["others"]]
    ask(store, embedder, llm, f"What is {picked[0]}?")  # warm-up: projection, model, caches
    results: dict = {}
    for shape, template in SHAPES.items():
        items = pairs if shape == "connect" else [(a, None) for a in picked]
        latencies, found = [], 0
        for a, b in items[:per_shape]:
            entities = [a] if b is None else [a, b]
            started = time.perf_counter()
            answer = ask(store, embedder, llm, template.format(a=a, b=b), shape=shape, entities=entities)
            latencies.append((time.perf_counter() - started) * 1000)
            found += bool(answer.as_dict().get("found"))
        results[shape] = {
            "technique": answer.as_dict()["technique"] if items else None,
            "n": len(latencies),
            "found": found,
            "p50_ms": round(percentile(latencies, 0.5), 1),
            "p95_ms": round(percentile(latencies, 0.95), 1),
            "mean_ms": round(statistics.fmean(latencies), 1) if latencies else 0.0,
        }
    counts = store.query("MATCH (c:Concept) WITH count(c) AS concepts MATCH (s:Source) RETURN concepts, count(s) AS sources")[0]
    return {"graph": counts, "per_shape": per_shape, "seed": seed, "shapes": results}
