"""How the ingest lease's time grows with the graph: one probe, ingested at several sizes.

The time inside the lease (resolution, conflicts, the commit) is the serial part every
writer shares; resolution asks the graph more as it grows (the exact-key lookup in the
full-text index, the vector index's nearest concepts). For each size the eval graph is
grown to that many concepts (``seed_concepts``: the corpus's own names, embedded as ingest
embeds a mention), then the same probe passages of the corpus go through the real
pipeline, and the lease's seconds per batch are recorded beside the stages inside it.

Between sizes the probe is taken out again: every node it wrote is deleted, and the seeds
it wrote to (an alias, an edge, a count) are reset to their seeded state, so at every size
the probe's sources are new and meet only the seeds. The graph grows by adding the seeds
the next size lacks (the plan for a smaller size is the beginning of a larger one's). The
eval graph is wiped at the start and left empty at the end: no seed outlives the run.
(The structural node embedding the query upkeep writes on every concept after an ingest
stays on the seeds: it is derived, rewritten by the next probe, and resolution never reads
it.) Before the first size is measured, a warm-up pass of the probe is ingested and taken
out: the server's first ingest compiles every statement, which no size should pay alone.

What is not seeded: the seeds' sources and claims. The candidate search reads only
concepts; the claim side (conflicts, restatements) reads claims about the concepts a batch
names, which here are the probe's own, so its growth with the graph is not measured.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np

from graphwiki_assets.core.config import Stamp
from graphwiki_assets.core.embeddings import Embedder, vector_model_name
from graphwiki_assets.core.evals import cypher
from graphwiki_assets.core.evals.instance import drop_projections, eval_settings, eval_store, wipe
from graphwiki_assets.core.evals.multihop import load_jsonl
from graphwiki_assets.core.evals.results.benches import LeaseGrowthResult
from graphwiki_assets.core.evals.seed_concepts import (
    SeedConcept,
    corpus_concepts,
    seed_plan,
    seed_vectors,
    seeded_count,
    write_seeds,
)
from graphwiki_assets.core.ingest.mention_vectors import mention_vectors
from graphwiki_assets.core.ingest.pipeline import (
    IngestConfig,
    Ingestor,
    ingest_documents,
    records_as_documents,
    utc_now,
)
from graphwiki_assets.core.llm.client import build_llm
from graphwiki_assets.core.settings import Settings
from graphwiki_assets.core.store.driver import GraphStore
from graphwiki_assets.core.store.schema import ensure_schema

DEFAULT_SIZES = (2000, 10000, 100000)
MARKER = "lease-growth"
PROBE_NAMESPACE = "lease-growth-probe"


def growth_ratio(medians: Sequence[float]) -> float | None:
    """The median lease time at the largest size over the smallest's (sizes ascending)."""
    if len(medians) < 2 or medians[0] <= 0:
        return None
    return round(medians[-1] / medians[0], 3)


def _load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def run_lease_growth(
    settings: Settings,
    embedder: Embedder,
    corpus: Path | str,
    sizes: Sequence[int] = DEFAULT_SIZES,
    probe: int = 64,
    batch_size: int = 32,
    log: Callable[[str], None] = lambda msg: None,
) -> LeaseGrowthResult:
    started = time.monotonic()
    sizes = tuple(sorted(set(sizes)))
    if not sizes or sizes[0] < 1:
        raise ValueError(f"sizes are whole numbers of concepts >= 1, not {list(sizes)}")
    records = load_jsonl(corpus)
    if not 1 <= probe < len(records):
        raise ValueError(f"the probe takes 1 to {len(records) - 1} passages of this corpus, not {probe}")
    config = replace(IngestConfig.from_settings(settings), batch_size=batch_size)
    stamp = config.schema.stamp()
    out: dict = {
        "corpus": str(corpus),
        "probe_passages": probe,
        "batch_size": batch_size,
        "sizes": list(sizes),
        "embedding_model": embedder.name,
        "cpus": os.cpu_count(),
        "load_average_start": _load(),
    }
    # the probe is the corpus's last passages; the names of the others are the seeds
    log(f"extracting names from {len(records)} passages (offline rules)")
    per_record = corpus_concepts(records, config.schema.taxonomy)
    plan = seed_plan(per_record, len(records) - probe, sizes[-1])
    ev = eval_settings(settings)
    clock = time.monotonic()
    encoded, texts_needed = 0, 0

    def encode(texts: list[str]) -> np.ndarray:
        nonlocal encoded, texts_needed
        rows, fresh = seed_vectors(embedder, texts, ev.home / "lease-growth-vectors", log)
        encoded, texts_needed = encoded + fresh, texts_needed + len(texts)
        return rows

    vectors = mention_vectors(encode, [(c.name, c.identity) for c in plan])
    out["seeds"] = {
        "corpus_names": sum(not c.padded for c in plan),
        "padded_names": sum(c.padded for c in plan),
        "texts_encoded": encoded,
        "texts_from_cache": texts_needed - encoded,
        "embed_seconds": round(time.monotonic() - clock, 2),
    }
    probe_records = records[-probe:]
    with eval_store(ev, log=log) as store:
        wipe(store)
        ensure_schema(store, embedder.dimension, vector_model_name(embedder))
        out["by_size"] = []
        for start, size in zip((0, *sizes), sizes):
            clock = time.monotonic()
            write_seeds(store, plan[start:size], vectors[start:size], MARKER, stamp, utc_now())
            store.query(cypher.AWAIT_INDEXES)
            grown = round(time.monotonic() - clock, 2)
            if start == 0:
                # The first ingest into a server compiles every statement's plan and loads the
                # encoder's short-text path: paid once here, not by the smallest size alone.
                log(f"graph at {size} concepts ({grown}s); a warm-up pass of the probe, taken out after")
                warm = _probe(store, settings, embedder, config, probe_records, log)
                out["warm_up"] = {k: warm[k] for k in ("lease_held_seconds", "seconds")}
                take_out_probe(store, plan[:size], vectors[:size], stamp)
            log(f"graph at {size} concepts ({grown}s); ingesting the probe")
            row = {"concepts_before": store.query(cypher.CONCEPT_COUNT)[0]["n"], "seed_seconds": grown}
            row |= _probe(store, settings, embedder, config, probe_records, log)
            out["by_size"].append(row)
            take_out_probe(store, plan[:size], vectors[:size], stamp)
        wipe(store)  # no seed outlives the run
    medians = [r["lease_median_s"] for r in out["by_size"]]
    out["lease_median_ratio_largest_over_smallest"] = growth_ratio(medians)
    out["load_average_end"] = _load()
    out["seconds"] = round(time.monotonic() - started, 2)
    return LeaseGrowthResult.of(out)


def _probe(
    store: GraphStore,
    settings: Settings,
    embedder: Embedder,
    config: IngestConfig,
    records: list[dict],
    log: Callable[[str], None],
) -> dict:
    """The probe through the real pipeline, with a cold LLM cache (each size pays the same calls)."""
    with tempfile.TemporaryDirectory(prefix="graphwiki-lease-growth-") as cache:
        llm = build_llm(settings.llm, Path(cache))
        ingestor = Ingestor(
            store=store, embedder=embedder, llm=llm, config=config, log=log, purpose="graphwiki bench lease-growth"
        )
        report = ingest_documents(ingestor, records_as_documents(records, PROBE_NAMESPACE)).as_dict()
    held = report["lease"]["per_batch_seconds"]
    stages = report["stages_seconds"]
    return {
        "backend": report["backend"],
        "sources": report["sources"],
        "batches": report["batches"],
        "lease_held_seconds": held,
        "lease_median_s": round(statistics.median(held), 3) if held else 0.0,
        "lease_share_of_wall": report["lease"]["share_of_wall"],
        "vector_search_s": stages.get("vector_search", 0.0),
        "judge_s": stages.get("judge", 0.0),
        "conflict_s": stages.get("conflict", 0.0),
        "write_s": stages.get("write", 0.0),
        "judgments": report["judgments"],
        "concepts_created": report["concepts"]["created"],
        "concepts_merged": report["concepts"]["merged"],
        "llm_calls": report["llm_calls"],
        "seconds": report["seconds"],
    }


def take_out_probe(store: GraphStore, plan: list[SeedConcept], vectors: np.ndarray, stamp: Stamp) -> None:
    """Delete everything the probe wrote and reset the seeds it wrote to: the graph holds the
    seeds alone again, as seeded."""
    touched = {r["id"] for r in store.query(cypher.TOUCHED_SEEDS, marker=MARKER)}
    store.query_batched(cypher.DELETE_UNSEEDED, marker=MARKER)
    store.query(cypher.DELETE_SEED_EDGES, marker=MARKER)
    drop_projections(store)
    at = [n for n, c in enumerate(plan) if c.id in touched]
    write_seeds(store, [plan[n] for n in at], vectors[at], MARKER, stamp, utc_now())
    left, seeds = store.query(cypher.UNSEEDED_NODES, marker=MARKER)[0]["n"], seeded_count(store, MARKER)
    if left or seeds != len(plan):
        raise RuntimeError(
            f"the probe was not taken out cleanly: {left} other node(s) remain, {seeds} seeds of {len(plan)}"
        )
