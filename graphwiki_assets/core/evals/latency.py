"""Query latency per technique, on whatever graph the store holds (``graphwiki latency``).

The questions and the timing are the query benchmark's (``query_bench``): drawn from the
graph itself, answered through ``ask`` with the shape forced, so the numbers are end to
end, and split by phase. Nothing is written first: a graph no ingest has refreshed pays
for building the projection and signatures in the untimed warm-up questions.
"""

from __future__ import annotations

from graphwiki_assets.core.evals import cypher
from graphwiki_assets.core.evals.query_bench import (
    PHASES,
    Answerer,
    BenchConfig,
    Drawn,
    draw,
    in_process,
    measure_answers,
    percentile,
    spread,
)
from graphwiki_assets.core.evals.results.queries import LatencyResult
from graphwiki_assets.core.store.driver import GraphStore

__all__ = ["drawn_questions", "measure", "percentile"]


def drawn_questions(
    store: GraphStore, per_shape: int = 30, seed: int = 0, hops: int = 2, k: int = 8
) -> tuple[BenchConfig, Drawn]:
    """The questions a latency run asks, per shape, drawn from the graph (seeded)."""
    config = BenchConfig(per_shape=per_shape, warmup=1, seed=seed, hops=hops, k=k)
    return config, draw(store, config, set(), extra=False)


def measure(
    store: GraphStore,
    embedder=None,
    llm=None,
    per_shape: int = 30,
    seed: int = 0,
    hops: int = 2,
    k: int = 8,
    answer: Answerer | None = None,
) -> LatencyResult:
    """p50/p95 per shape and over all shapes; ``answer`` asks elsewhere (a server) instead of
    in this process, where the embedder and LLM are needed."""
    config, questions = drawn_questions(store, per_shape, seed, hops, k)
    if not any(questions.single.values()):
        return LatencyResult.of({"error": "the graph has no connected concepts to ask about"})
    single, totals = measure_answers(answer or in_process(store, embedder, llm), questions, config)
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
            "answer_p50_ms": s["answer_ms"]["p50"],
            "p95_by_phase_ms": {p: s[f"{p}_ms"]["p95"] for p in PHASES},
        }
        for shape, s in single.items()
    }
    counts = store.query(cypher.GRAPH_SIZE)[0]
    return LatencyResult.of(
        {
            "graph": {"concepts": counts["concepts"], "sources": counts["sources"]},
            "per_shape": per_shape,
            "seed": seed,
            "hops": hops,
            "k": k,
            "shapes": shapes,
            "overall": spread(totals),
        }
    )
