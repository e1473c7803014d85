"""Query latency on a graph: per technique, per phase, beside flat vector search, and under load.

Questions are drawn from the graph itself (seeded; concepts with at least two edges, and
pairs two hops apart for paths), so any graph can be measured without labelled data, and
every question is answered through the same ``ask`` users call with its shape forced. A
concept is asked about once per run: the embedding cache would otherwise answer a repeat
for free. For each technique the run reports p50/p95/p99 end to end and per phase
(linking, retrieval = the technique's Cypher/GDS and loading the subgraph, synthesis); the
same run measures flat vector top-k (embedding the question plus one vector-index query) as
the reference, and then ``askers`` threads asking at once (a mix of the four shapes), with
their throughput, p95 and errors. ``targets`` checks the numbers against issue 16's goals.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from typing import Any

import pandas as pd

from graphwiki_assets.core.evals import cypher
from graphwiki_assets.core.evals.results.queries import QueryBenchResult
from graphwiki_assets.core.query import ask
from graphwiki_assets.core.query.models import PPR_VIAS, TECHNIQUES
from graphwiki_assets.core.query.retrieval import flat_by_vector
from graphwiki_assets.core.query.upkeep import refresh_query_state
from graphwiki_assets.core.store.driver import GraphStore

SHAPES = {
    "what_is": "What is {a}?",
    "related": "What else relates to {a}?",
    "connect": "How does {a} connect to {b}?",
    "shaped_like": "Find something shaped like {a}",
}
FLAT = "Tell me about {a}"
PHASES = ("linking", "retrieval", "synthesis")
PAIR_VIA = 20  # intermediates tried per concept when drawing a connected pair
BOTH = "both"  # BenchConfig.ppr_via: each PageRank path on alternate related questions


@dataclass(frozen=True)
class BenchConfig:
    per_shape: int = 30  # timed questions per technique (and for flat search)
    # Untimed questions per technique first: a freshly started Neo4j compiles its hot paths
    # over the first few hundred queries (two per technique left the 1k graph, measured
    # first, slower than the 100k one), and caches and the page cache fill.
    warmup: int = 10
    askers: int = 8
    per_asker: int = 12  # questions each concurrent asker asks, cycling through the shapes
    hops: int = 2
    k: int = 8
    flat_k: int = 5
    seed: int = 0
    # how "related" runs PageRank (QueryOptions.ppr_via); "both": the timed related questions
    # take the paths in turn, so one run under one load measures each
    ppr_via: str = PPR_VIAS[0]

    def __post_init__(self) -> None:
        for name in ("per_shape", "askers", "per_asker", "k", "flat_k"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, not {getattr(self, name)}")
        if self.hops < 0 or self.warmup < 0:
            raise ValueError("hops and warmup must be at least 0")
        if self.ppr_via not in (*PPR_VIAS, BOTH):
            raise ValueError(f"ppr_via must be one of {', '.join((*PPR_VIAS, BOTH))}, not {self.ppr_via!r}")

    def via(self, q: Question) -> str:
        """The PageRank path question ``q`` is answered with."""
        return q.ppr_via or (PPR_VIAS[0] if self.ppr_via == BOTH else self.ppr_via)


def percentile(values: Sequence[float] | pd.Series, q: float) -> float:
    """Nearest rank of the sorted values (30 values: p95 is the 29th, p99 the largest); 0 for none.
    (Series.quantile, not GroupBy.quantile: the grouped one picks another rank at some sizes.)"""
    series = pd.Series(values, dtype=float)
    return float(series.quantile(q, interpolation="nearest")) if len(series) else 0.0


def spread(values: Sequence[float] | pd.Series) -> dict:
    series = pd.Series(values, dtype=float)
    return {
        "p50": round(percentile(series, 0.5), 1),
        "p95": round(percentile(series, 0.95), 1),
        "p99": round(percentile(series, 0.99), 1),
        "mean": round(float(series.mean()), 1) if len(series) else 0.0,
        "n": len(series),
    }


@dataclass
class Question:
    shape: str
    text: str
    entities: list[str]
    ppr_via: str | None = None  # this question's PageRank path when the run measures both


@dataclass
class Drawn:
    warmup: list[Question]
    single: dict[str, list[Question]]
    flat: list[str]
    concurrent: list[Question]


def draw(store: GraphStore, config: BenchConfig, used: set[str], extra: bool = True) -> Drawn:
    """Fresh questions for one run; ``used`` (names asked before) grows with the ones drawn.
    Without ``extra`` only the per-technique questions are drawn (no flat, no concurrent)."""
    rng = random.Random(config.seed)
    concepts = [r for r in store.query(cypher.SAMPLE_CONCEPTS) if r["name"] not in used]
    rng.shuffle(concepts)
    single_n = config.per_shape + config.warmup
    flat_n = config.per_shape if extra else 0
    concurrent_n = config.askers * config.per_asker if extra else 0
    names = [r["name"] for r in concepts]
    single_names = names[:single_n]
    flat_names = names[single_n : single_n + flat_n]
    concurrent_names = names[single_n + flat_n : single_n + flat_n + concurrent_n]
    taken = set(names[: single_n + flat_n + concurrent_n])
    pairs = _pairs(
        store,
        concepts[single_n + flat_n + concurrent_n :],
        single_n + concurrent_n // len(SHAPES) + 1,
        used | taken,
        rng,
    )
    used |= taken | {name for pair in pairs for name in pair}

    def question(shape: str, a: str, b: str | None = None) -> Question:
        return Question(shape, SHAPES[shape].format(a=a, b=b), [a] if b is None else [a, b])

    single = {
        shape: [question(shape, *pair) for pair in pairs[:single_n]]
        if shape == "connect"
        else [question(shape, a) for a in single_names]
        for shape in SHAPES
    }
    warmup = [q for qs in single.values() for q in qs[: config.warmup]]
    single = {shape: qs[config.warmup :] for shape, qs in single.items()}
    if config.ppr_via == BOTH:
        for i, q in enumerate(single["related"] + [q for q in warmup if q.shape == "related"]):
            q.ppr_via = PPR_VIAS[i % len(PPR_VIAS)]
    later_pairs = iter(pairs[single_n:])
    concurrent = []
    for i, a in enumerate(concurrent_names):
        shape = list(SHAPES)[i % len(SHAPES)]
        pair = next(later_pairs, None) if shape == "connect" else (a,)
        if pair is not None:
            concurrent.append(question(shape, *pair))
    return Drawn(warmup=warmup, single=single, flat=[FLAT.format(a=a) for a in flat_names], concurrent=concurrent)


def _pairs(
    store: GraphStore, candidates: list[dict], wanted: int, avoid: set[str], rng: random.Random
) -> list[tuple[str, str]]:
    """Up to ``wanted`` pairs of concepts two hops apart, no name twice, none of ``avoid``."""
    pairs: list[tuple[str, str]] = []
    avoid = set(avoid)
    for start in range(0, len(candidates), 4 * wanted):
        names = {r["id"]: r["name"] for r in candidates[start : start + 4 * wanted]}
        for row in store.query(cypher.CONNECTED_PAIRS, ids=list(names), via=PAIR_VIA):
            a = names[row["id"]]
            others = [o for o in row["others"] if o not in avoid and o != a]
            if others and a not in avoid and len(pairs) < wanted:
                b = rng.choice(others)
                pairs.append((a, b))
                avoid |= {a, b}
        if len(pairs) >= wanted:
            break
    return pairs


# What answers one drawn question: returns the answer's fields (found, technique, timings_ms,
# latency_ms), as an ``Answer``'s attributes or the JSON of a server's answer.
Answerer = Callable[[Question, BenchConfig], Mapping[str, Any]]


def in_process(store: GraphStore, embedder, llm) -> Answerer:
    """``ask`` in this process, with the question's entities given (the router is skipped)."""

    def answer(q: Question, config: BenchConfig) -> Mapping[str, Any]:
        options: dict[str, Any] = {"hops": config.hops, "k": config.k, "ppr_via": config.via(q)}
        found = ask(store, embedder, llm, q.text, shape=q.shape, entities=q.entities, **options)
        return vars(found)

    return answer


# One timed answer: a row of the timings table (``error`` set when it failed, no timings then).
TIMED = ("shape", "ms", "found", "technique", "answer_ms", *PHASES, "error")


def timings(results: Sequence[dict]) -> pd.DataFrame:
    return pd.DataFrame(list(results), columns=list(TIMED))


def _failed(frame: pd.DataFrame) -> pd.Series:
    return frame["error"].notna()


def _error_samples(frame: pd.DataFrame) -> list[str]:
    return sorted(frame["error"].dropna().unique())[:3]


def timed(answer: Answerer, q: Question, config: BenchConfig) -> dict:
    """One question end to end as the caller sees it, split by the answer's own phases."""
    started = time.perf_counter()
    try:
        found = answer(q, config)
    except Exception as exc:  # a benchmark counts failures; it does not stop at the first
        return {
            "shape": q.shape,
            "error": f"{type(exc).__name__}: {exc}"[:300],
            "ms": (time.perf_counter() - started) * 1000,
        }
    return {
        "shape": q.shape,
        "ms": (time.perf_counter() - started) * 1000,
        "found": found["found"],
        "technique": found["technique"],
        "answer_ms": found.get("latency_ms") or 0.0,
        **{p: found["timings_ms"].get(p, 0.0) for p in PHASES},
    }


def _ask(store: GraphStore, embedder, llm, q: Question, config: BenchConfig) -> dict:
    return timed(in_process(store, embedder, llm), q, config)


def _summary(shape: str, results: pd.DataFrame) -> dict:
    """One technique's timed answers (a frame of ``TIMED`` rows) as its spreads per phase."""
    ok = results[~_failed(results)]
    out = {
        "technique": TECHNIQUES[shape],
        "n": len(results),
        "found": int(ok["found"].map(bool).sum()),
        "errors": len(results) - len(ok),
        "total_ms": spread(ok["ms"]),
        "answer_ms": spread(ok["answer_ms"]),  # what ask itself measured: total_ms less any transport
    }
    out.update({f"{p}_ms": spread(ok[p]) for p in PHASES})
    out["error_samples"] = _error_samples(results)
    return out


def measure_single(store: GraphStore, embedder, llm, drawn: Drawn, config: BenchConfig) -> tuple[dict, list[float]]:
    """Per technique, one question at a time; and every timed total, for the mixed p95."""
    return measure_answers(in_process(store, embedder, llm), drawn, config)


def measure_answers(answer: Answerer, drawn: Drawn, config: BenchConfig) -> tuple[dict, list[float]]:
    """``measure_single`` with any answerer (in this process, or a server over HTTP)."""
    for q in drawn.warmup:
        timed(answer, q, config)
    questions = [q for qs in drawn.single.values() for q in qs]
    raw = timings([timed(answer, q, config) for q in questions])
    totals = raw.loc[~_failed(raw), "ms"].tolist()
    summaries = {shape: _summary(shape, raw[raw["shape"] == shape]) for shape in drawn.single}
    if config.ppr_via == BOTH and "related" in drawn.single:
        # "related" stays the default path's; the other is reported beside it
        via_of = pd.Series([q.ppr_via for q in questions], index=raw.index)
        for via in PPR_VIAS:
            key = "related" if via == PPR_VIAS[0] else f"related via {via}"
            summaries[key] = _summary("related", raw[(raw["shape"] == "related") & (via_of == via)])
            summaries[key]["ppr_via"] = via
    return summaries, totals


def measure_flat(store: GraphStore, embedder, questions: list[str], k: int) -> dict:
    """Flat top-k sources by vector: embedding plus the index query, and the query alone."""
    total, query = [], []
    for text in questions:
        started = time.perf_counter()
        vector = embedder.encode_one(text)
        embedded = time.perf_counter()
        flat_by_vector(store, vector, k)
        done = time.perf_counter()
        total.append((done - started) * 1000)
        query.append((done - embedded) * 1000)
    return {"k": k, "total_ms": spread(total), "retrieval_ms": spread(query)}


def measure_concurrent(
    store: GraphStore, embedder, llm, questions: list[Question], config: BenchConfig, single_p95: float
) -> dict:
    """``askers`` threads on one store (one driver, its connection pool), asking back to back."""
    shares = [questions[i :: config.askers] for i in range(config.askers)]
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=config.askers, thread_name_prefix="asker") as pool:
        done = pool.map(lambda share: [_ask(store, embedder, llm, q, config) for q in share], shares)
        results = [r for share in done for r in share]
    summary = concurrent_summary(results, config.askers, time.perf_counter() - started)
    p95 = summary["total_ms"]["p95"]
    summary["single_p95_ms"] = round(single_p95, 1)
    summary["p95_ratio"] = round(p95 / single_p95, 2) if single_p95 else None
    return summary


def concurrent_summary(results: list[dict], askers: int, wall: float) -> dict:
    """Timed answers of askers asking at once: errors, throughput, spread, p95 per shape."""
    frame = timings(results)
    ok = frame[~_failed(frame)]
    return {
        "askers": askers,
        "questions": len(frame),
        "errors": len(frame) - len(ok),
        "error_samples": _error_samples(frame),
        "seconds": round(wall, 2),
        "throughput_qps": round(len(ok) / wall, 2) if wall else 0.0,
        "total_ms": spread(ok["ms"]),
        "per_shape_p95_ms": {s: round(percentile(ok.loc[ok["shape"] == s, "ms"], 0.95), 1) for s in SHAPES},
    }


def _load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def measure_graph(
    store: GraphStore,
    embedder,
    llm,
    config: BenchConfig,
    used: set[str] | None = None,
    log: Callable[[str], None] = lambda msg: None,
) -> dict:
    """Everything for the graph the store holds now (it is brought up to date first, as
    ingest leaves it: signatures and projection)."""
    used = set() if used is None else used
    load_before = _load()
    started = time.monotonic()
    upkeep = refresh_query_state(store)
    upkeep_s = round(time.monotonic() - started, 2)
    drawn = draw(store, config, used)
    if not any(drawn.single.values()):
        return {"error": "the graph has no connected concepts to ask about"}
    log(f"single asker: {sum(map(len, drawn.single.values()))} questions")
    single, totals = measure_single(store, embedder, llm, drawn, config)
    flat = measure_flat(store, embedder, drawn.flat, config.flat_k)
    log(f"{config.askers} askers at once: {len(drawn.concurrent)} questions")
    # the single-asker reference: the p95 over the four techniques' questions together,
    # the same mix the concurrent askers cycle through
    concurrent = (
        measure_concurrent(store, embedder, llm, drawn.concurrent, config, percentile(totals, 0.95))
        if drawn.concurrent
        else {}
    )
    return {
        "graph": store.query(cypher.GRAPH_SIZE)[0],
        "upkeep_seconds": upkeep_s,
        "upkeep": {"signatures": upkeep["signatures"], "projection_seconds": upkeep["projection"]["seconds"]},
        "single": single,
        "flat": flat,
        "concurrent": concurrent,
        "load_before": load_before,
        "load_after": _load(),
    }


def config_dict(config: BenchConfig) -> dict:
    return asdict(config)


# -- sizes, growth and the goals of issue 16 --------------------------------------------------

E2E_P95_MS = {"what_is": 150, "connect": 150, "related": 400, "shaped_like": 300}
RETRIEVAL_P95_MS = {"what_is": 50, "connect": 100}
GROWTH_SHAPES = ("what_is", "connect", "shaped_like")
GROWTH_LIMIT = 2.0
CONCURRENT_RATIO = 3.0


def _ratio(big: float, small: float) -> float | None:
    return round(big / small, 2) if small else None


def growth(runs: list[dict]) -> dict:
    """Largest graph against smallest, per technique: p50 and p95 end to end, p95 of retrieval."""
    measured = [r for r in runs if "single" in r]
    if len(measured) < 2:
        return {}
    small, big = measured[0], measured[-1]
    out = {"from_concepts": small["graph"]["concepts"], "to_concepts": big["graph"]["concepts"]}
    for shape in SHAPES:
        a, b = small["single"][shape], big["single"][shape]
        out[shape] = {
            "total_p50": _ratio(b["total_ms"]["p50"], a["total_ms"]["p50"]),
            "total_p95": _ratio(b["total_ms"]["p95"], a["total_ms"]["p95"]),
            "retrieval_p95": _ratio(b["retrieval_ms"]["p95"], a["retrieval_ms"]["p95"]),
        }
    out["flat"] = {"total_p95": _ratio(big["flat"]["total_ms"]["p95"], small["flat"]["total_ms"]["p95"])}
    return out


def _check(graph: str, what: str, measured: float | None, limit: float) -> dict:
    return {
        "graph": graph,
        "target": what,
        "limit": limit,
        "measured": measured,
        "ok": measured is not None and measured <= limit,
    }


def targets(graph: str, run: dict, grown: dict | None = None) -> list[dict]:
    """Each goal with its measured value on ``run`` (and the growth, when given)."""
    if "single" not in run:
        return []
    single = run["single"]
    checks = [
        _check(graph, f"{shape} end-to-end p95 ms", single[shape]["total_ms"]["p95"], limit)
        for shape, limit in E2E_P95_MS.items()
    ]
    checks += [
        _check(graph, f"{shape} retrieval p95 ms", single[shape]["retrieval_ms"]["p95"], limit)
        for shape, limit in RETRIEVAL_P95_MS.items()
    ]
    if grown:
        for shape in GROWTH_SHAPES:
            checks.append(
                _check(
                    graph,
                    f"{shape} p95 growth {grown['from_concepts']} -> {grown['to_concepts']} concepts",
                    grown[shape]["total_p95"],
                    GROWTH_LIMIT,
                )
            )
    concurrent = run.get("concurrent") or {}
    if concurrent:
        checks.append(_check(graph, f"{concurrent['askers']} askers: errors", concurrent["errors"], 0))
        checks.append(
            _check(
                graph,
                f"{concurrent['askers']} askers: p95 / single-asker p95",
                concurrent["p95_ratio"],
                CONCURRENT_RATIO,
            )
        )
    errors = sum(s["errors"] for s in single.values())
    checks.append(_check(graph, "single asker: errors", errors, 0))
    return checks


def run_generated(
    store: GraphStore,
    embedder,
    llm,
    sizes: list[int],
    config: BenchConfig,
    log: Callable[[str], None] = lambda msg: None,
) -> QueryBenchResult:
    """Generate each size in turn (each graph grows the last: the sizes are nested) and measure it.
    ``store`` must be disposable: whatever else it holds is wiped."""
    from graphwiki_assets.core.evals.generator import generate

    used: set[str] = set()
    runs = []
    for n in sorted(set(sizes)):
        log(f"graph of {n} concepts: generating")
        made = generate(store, n, embedder.dimension, seed=config.seed, replace=True, log=log)
        log(f"graph of {n} concepts: measuring")
        runs.append(
            {
                "label": f"generated {n}",
                "generate": made.as_dict(),
                **measure_graph(store, embedder, llm, config, used, log),
            }
        )
    grown = growth(runs)
    targeted = targets(runs[-1]["label"], runs[-1], grown) if runs else []
    return QueryBenchResult.of(
        {"config": config_dict(config), "cpus": os.cpu_count(), "runs": runs, "growth": grown, "targets": targeted}
    )


def run_current(
    store: GraphStore, embedder, llm, config: BenchConfig, label: str, log: Callable[[str], None] = lambda msg: None
) -> QueryBenchResult:
    """Measure the graph the store holds (nothing is written but signatures and the projection)."""
    run = {"label": label, **measure_graph(store, embedder, llm, config, None, log)}
    return QueryBenchResult.of(
        {
            "config": config_dict(config),
            "cpus": os.cpu_count(),
            "runs": [run],
            "growth": {},
            "targets": targets(label, run),
        }
    )
