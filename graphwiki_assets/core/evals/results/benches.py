"""The results of the benchmarks ``graphwiki bench <kind>`` prints (``core/evals/*_bench.py``,
``embedding_floor.py``, ``lease_growth.py``). What a run's ingest report holds beyond the
numbers read here stays as the report gave it (a ``Record`` or a JSON value)."""

from __future__ import annotations

from pydantic import JsonValue, StrictBool

from graphwiki_assets.core.evals.results import Num, Part, Record, Result


class SourceCounts(Part):
    """An ingest report's sources by status."""

    new: int
    unchanged: int
    skipped: int
    failed: int


class TaskUsage(Part):
    calls: int
    prompt_tokens: int
    output_tokens: int
    calls_per_passage: Num
    prompt_tokens_per_passage: Num
    output_tokens_per_passage: Num


class LlmServer(Part):
    """The LLM stages' time against the ideal at the served latency (``--llm-latency``)."""

    latency_s: Num
    requests: int
    max_in_flight: int
    ideal_seconds: Num
    llm_stage_seconds: Num
    llm_stage_over_ideal: Num | None
    wall_over_ideal: Num | None
    rules_compute_seconds: Num
    llm_stage_over_ideal_plus_rules: Num | None


class Rerun(Part):
    seconds: Num
    share_of_first: Num
    llm_calls: int
    cache_hits: int
    sources: SourceCounts


class CpuBudget(Part):
    """CPU seconds of the ingest and of a local Neo4j against what the cores give in the wall time."""

    cores: int
    process_seconds: Num
    neo4j_seconds: Num | None  # None: the server is remote, or not this user's process
    total_seconds: Num
    least_wall_seconds: Num  # total / cores: no overlap of stages gets below it
    busy_share: Num | None
    word_pieces_encoded: int | None  # None: the vectors came from an embeddings service


class IngestBenchResult(Result):
    """``graphwiki bench ingest``: one cold ingest of a corpus, and optionally its rerun."""

    corpus: str
    passages: int
    backend: str
    embedding_model: str
    batch_size: int
    llm_concurrency: int
    seconds: Num
    passages_per_second: Num
    seconds_per_passage: Num
    peak_rss_mb: Num
    sources: SourceCounts
    concepts: dict[str, int]  # created, merged
    claims: int
    contradictions: int
    judgments: int
    llm_calls: int
    prompt_tokens: int
    output_tokens: int
    llm_calls_per_passage: Num
    prompt_tokens_per_passage: Num
    output_tokens_per_passage: Num
    by_task: dict[str, TaskUsage]
    stages_seconds: dict[str, Num]
    lease: Record
    embedding: Record
    batches: int
    failed: int
    problems: list[Record]  # each failed or skipped source with its reason
    llm_server: LlmServer | None = None
    rerun: Rerun | None = None
    cpu: CpuBudget | None = None
    model_load_seconds: Num | None = None


class EncoderRun(Part):
    texts: int
    word_pieces: int
    seconds: Num
    word_pieces_per_second: Num
    cpu_seconds: Num


class EmbeddingFloorResult(Result):
    """``graphwiki bench embed-floor``: the least time any ingest that embeds the corpus needs."""

    corpus: str
    sources: int
    embedding_model: str
    runtime: str
    word_pieces: int
    word_pieces_per_source: Num
    sources_at_model_limit: int
    encoder_runs: list[EncoderRun]
    word_pieces_per_second: Num
    floor_seconds: Num | None
    cores: int
    cpu_seconds_per_1k_word_pieces: Num  # the encoder's CPU cost, all its threads


class Seeds(Part):
    corpus_names: int
    padded_names: int
    texts_encoded: int
    texts_from_cache: int
    embed_seconds: Num


class LeaseAtSize(Part):
    """The probe ingested with the graph seeded to one size."""

    concepts_before: int
    seed_seconds: Num
    backend: str
    sources: SourceCounts
    batches: int
    lease_held_seconds: list[Num]
    lease_median_s: Num
    lease_share_of_wall: JsonValue
    vector_search_s: Num
    judge_s: Num
    conflict_s: Num
    write_s: Num
    judgments: int
    concepts_created: int
    concepts_merged: int
    llm_calls: int
    seconds: Num


class WarmUp(Part):
    lease_held_seconds: list[Num]
    seconds: Num


class LeaseGrowthResult(Result):
    """``graphwiki bench lease-growth``: the lease's seconds per batch as the graph grows."""

    corpus: str
    probe_passages: int
    batch_size: int
    sizes: list[int]
    embedding_model: str
    cpus: int | None
    load_average_start: list[Num]
    seeds: Seeds
    by_size: list[LeaseAtSize]
    warm_up: WarmUp
    lease_median_ratio_largest_over_smallest: Num | None
    load_average_end: list[Num]
    seconds: Num
    plot: str | None = None  # where the plot was written

    @property
    def failed(self) -> int:
        return sum(r.sources.failed for r in self.by_size)


class CliIngest(Part):
    """The files through ``graphwiki ingest``, and the graph it left."""

    seconds: Num
    sources: SourceCounts
    llm_calls: int
    graph: dict[str, int]


class DagsterBackfill(Part):
    """The files through a Dagster backfill (webserver and daemon), and the graph it left."""

    seconds: Num
    status: str
    runs: int
    run_statuses: list[str]
    until_first_run_started: Num
    until_backfill_marked_done: Num
    daemon_start_seconds: Num
    graph: dict[str, int]


class BackfillBenchResult(Result):
    """``graphwiki bench backfill``: the same files through the CLI and a Dagster backfill."""

    files: int
    cli: CliIngest
    dagster_backfill: DagsterBackfill
    backfill_over_cli: Num

    @property
    def completed(self) -> bool:
        return self.dagster_backfill.status in ("COMPLETED", "COMPLETED_SUCCESS")


class WorkersRun(Part):
    workers: int
    seconds: Num
    passages_per_second: Num
    lease_held_seconds: Num
    lease_share_of_wall: JsonValue
    lease_median_per_batch_s: Num | None
    lease_ceiling_passages_per_second: Num | None
    turn_wait_seconds: Num
    stages_seconds: dict[str, Num]
    sources: SourceCounts
    concepts: int
    claims: int
    llm_calls: int
    chat: JsonValue
    embeddings: JsonValue
    speedup_over_one: Num
    # judge and conflict pairs the commits took from their drafts, and those asked under the lease
    rechecked: dict[str, int] = {}
    turn_held_seconds: Num = 0.0  # from each batch's turn to its commit: what no batch overlaps
    order_ceiling_passages_per_second: Num | None = None


class WorkersWarmUp(Part):
    seconds: Num
    chat: JsonValue
    embeddings: JsonValue


class Best(Part):
    workers: int
    passages_per_second: Num


class WorkersBenchResult(Result):
    """``graphwiki bench workers``: ingest throughput by workers against sleeping endpoints."""

    corpus: str
    passages: int
    batch_size: int
    chat_latency_s: Num
    embed_latency_s: Num
    warm_up: WorkersWarmUp
    runs: list[WorkersRun]
    same_graph_every_pass: StrictBool
    best: Best
    lease_ceiling_passages_per_second: Num
    lease_ceiling_documents_per_day: int | None
    best_documents_per_day: int
    order_ceiling_passages_per_second: Num | None = None  # commits in order: the lowest over the passes
    plot: str | None = None  # where the plot was written

    @property
    def failed(self) -> int:
        return sum(r.sources.failed for r in self.runs)
