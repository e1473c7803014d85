"""The results of the query benchmarks: ``graphwiki latency`` (``core/evals/latency.py``,
``server/bench.py`` for a running server) and ``graphwiki bench query``
(``core/evals/query_bench.py``)."""

from __future__ import annotations

from pydantic import Field, JsonValue, StrictBool

from graphwiki_assets.core.evals.results import Num, Part, Record, Result


class Spread(Part):
    """``query_bench.spread``: milliseconds at the 50th, 95th and 99th percentiles, the mean, n."""

    p50: Num
    p95: Num
    p99: Num
    mean: Num
    n: int


class ShapeLatency(Part):
    """One question shape's answers as ``graphwiki latency`` prints them."""

    technique: str | None
    n: int
    found: int
    errors: int
    p50_ms: Num
    p95_ms: Num
    p99_ms: Num
    mean_ms: Num
    answer_p50_ms: Num
    p95_by_phase_ms: dict[str, Num]


class Concurrent(Part):
    """``query_bench.concurrent_summary``: askers asking at once; against the single asker's
    p95 when measured in process."""

    askers: int
    questions: int
    errors: int
    error_samples: list[str]
    seconds: Num
    throughput_qps: Num
    total_ms: Spread
    per_shape_p95_ms: dict[str, Num]
    single_p95_ms: Num | None = None
    p95_ratio: Num | None = None


class ServedIngest(Part):
    """The source a running server ingested while the askers asked, and what reached the graph."""

    status: str
    error: JsonValue
    passages: int
    claims_reported: int | None
    claims_in_graph: int
    sources: JsonValue
    name: str
    started_at: JsonValue
    finished_at: JsonValue


class ServedConcurrent(Concurrent):
    """HTTP clients asking a server while it ingests (``graphwiki latency --serve --askers``)."""

    ingest: ServedIngest
    nothing_lost: StrictBool


class CliTimes(Part):
    """``graphwiki ask`` as a new process per question, through the server and in-process."""

    runs: int
    served_seconds: list[Num]
    in_process_seconds: list[Num]
    served_median_s: Num
    in_process_median_s: Num


class Goal(Part):
    limit: Num
    measured: Num
    ok: StrictBool


class LatencyResult(Result):
    """p50/p95 per shape and over all; asked of a server, its address and the targets, and
    what ``--cli-runs`` and ``--askers`` add. Only ``error`` when there was nothing to ask."""

    error: str | None = None
    graph: dict[str, int] | None = None
    per_shape: int | None = None
    seed: int | None = None
    hops: int | None = None
    k: int | None = None
    shapes: dict[str, ShapeLatency] | None = None
    overall: Spread | None = None
    server: str | None = None
    targets: dict[str, Goal] | None = None  # p50_ms, p95_ms: the server's goals
    cli: CliTimes | None = None
    concurrent: ServedConcurrent | None = None


class Technique(Part):
    """One technique's timed answers, as spreads per phase."""

    technique: str
    n: int
    found: int
    errors: int
    total_ms: Spread
    answer_ms: Spread
    linking_ms: Spread
    retrieval_ms: Spread
    synthesis_ms: Spread
    error_samples: list[str]
    ppr_via: str | None = None  # the PageRank path of these answers when one run measures each

    def phase(self, name: str) -> Spread:
        """The spread of one of ``query_bench.PHASES``."""
        spread: Spread = getattr(self, f"{name}_ms")
        return spread


class Flat(Part):
    k: int
    total_ms: Spread
    retrieval_ms: Spread


class QueryRun(Part):
    """One graph measured: generated to a size or the one the store holds (``error`` instead
    when it had nothing to ask about)."""

    label: str
    generate: Record | None = None
    error: str | None = None
    graph: dict[str, int] | None = None
    upkeep_seconds: Num | None = None
    upkeep: Record | None = None
    single: dict[str, Technique] | None = None
    flat: Flat | None = None
    # empty when no askers ran
    concurrent: Concurrent | Record | None = Field(default=None, union_mode="left_to_right")
    load_before: list[Num] | None = None
    load_after: list[Num] | None = None


class Check(Part):
    """One goal with its measured value."""

    graph: str
    target: str
    limit: Num
    measured: Num | None
    ok: StrictBool


class Ratios(Part):
    total_p50: Num | None
    total_p95: Num | None
    retrieval_p95: Num | None


class Growth(Part):
    """Largest graph against smallest, per technique (nothing set with one graph)."""

    from_concepts: int | None = None
    to_concepts: int | None = None
    what_is: Ratios | None = None
    related: Ratios | None = None
    connect: Ratios | None = None
    shaped_like: Ratios | None = None
    flat: dict[str, Num | None] | None = None

    def of_shape(self, shape: str) -> Ratios:
        ratios: Ratios = getattr(self, shape)
        return ratios


class QueryBenchResult(Result):
    config: Record
    cpus: int | None
    runs: list[QueryRun]
    growth: Growth
    targets: list[Check]
    backend: str | None = None
    embedding_model: str | None = None

    @property
    def failed(self) -> int:
        """Goals missed on error counts."""
        return sum(1 for t in self.targets if "errors" in t.target and not t.ok)
