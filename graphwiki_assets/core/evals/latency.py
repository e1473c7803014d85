"""Query latency per technique, on whatever graph the store holds (``graphwiki latency``).

The questions and the timing are the query benchmark's (``query_bench``): drawn from the
graph itself, answered through ``ask`` with the shape forced, so the numbers are end to
end, and split by phase. Nothing is written first: a graph no ingest has refreshed pays
for building the projection and signatures in the untimed warm-up questions.
"""

from __future__ import annotations

from graphwiki_assets.core.evals import cypher
from graphwiki_assets.core.evals.query_bench import PHASES, BenchConfig, draw, measure_single, percentile
from graphwiki_assets.core.store.driver import GraphStore

__all__ = ["measure", "percentile"]


def measure(store: GraphStore, embedder, llm, per_shape: int = 30, seed: int = 0, hops: int = 2, k: int = 8) -> dict:
    config = BenchConfig(per_shape=per_shape, warmup=1, seed=seed, hops=hops, k=k)
    drawn = draw(store, config, set(), extra=False)
    if not any(drawn.single.values()):
        return {"error": "the graph has no connected concepts to ask about"}
    single, _ = measure_single(store, embedder, llm, drawn, config)
    shapes = {
        shape: {
            "technique": s["technique"] if s["n"] else None,
            "n": s["n"],
            "found": s["found"],
            "errors": s["errors"],
            "p50_ms": s["total_ms"]["p50"],
            "p95_ms": s["total_ms"]["p95"],
            "p99_ms": s["total_ms"]["p99"],
            "mean_ms": s["total_ms"]["mean"],
            "p95_by_phase_ms": {p: s[f"{p}_ms"]["p95"] for p in PHASES},
        }
        for shape, s in single.items()
    }
    counts = store.query(cypher.GRAPH_SIZE)[0]
    return {
        "graph": {"concepts": counts["concepts"], "sources": counts["sources"]},
        "per_shape": per_shape,
        "seed": seed,
        "hops": hops,
        "k": k,
        "shapes": shapes,
    }
