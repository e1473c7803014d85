"""The ingest lineage, one partition per source file, many partitions per run:

    sources -> extracted_candidates -> resolved_concepts + claim_links -> summaries

``extracted_candidates`` is a graph of steps, one per batch (``extract.py``).

A backfill or a sensor tick over many files is a few runs of up to ``MAX_PARTITIONS_PER_RUN``
partitions each; the steps of a run share one process (the embedding model loads once per
run) and work through the run's sources in the same batches as the CLI. Every output is a
dict from partition key to that source's value (see ``io.py``).

Resolution and the commit are one step, under the ingest lease: nothing may change the
graph between a batch's read and its write (see ``core/ingest/lease.py``). A bad file is
skipped with its reason; a source whose LLM calls keep failing writes nothing and fails
the run by name once every other source of the run is committed (re-running costs those
no LLM call: their text is in the graph).
"""

from pathlib import Path
from typing import Any

import dagster as dg

from graphwiki_assets.core.ingest.extraction import ExtractConfig
from graphwiki_assets.core.ingest.pipeline import IngestConfig, Ingestor, commit_extracted, utc_now
from graphwiki_assets.core.ingest.stages import Committed, read_keys, triage
from graphwiki_assets.core.ingest.summaries import refresh_summaries
from graphwiki_assets.core.llm.base import Usage
from graphwiki_assets.core.sources import SourceRejected
from graphwiki_assets.defs.audit import run_actor
from graphwiki_assets.defs.ingest.partitions import source_partitions
from graphwiki_assets.defs.ingest.verify import VERIFY_SPECS, verify_results
from graphwiki_assets.defs.metadata import rows_table
from graphwiki_assets.defs.resources import EmbeddingResource, GraphwikiConfig, LLMResource, Neo4jResource

GROUP = "ingest"
IO = "ingest_io_manager"
# Large enough that a backfill is a few runs (each loads the embedding model once), small
# enough that one run's failure leaves most of a large backfill done.
MAX_PARTITIONS_PER_RUN = 256
BACKFILL = dg.BackfillPolicy.multi_run(max_partitions_per_run=MAX_PARTITIONS_PER_RUN)
COMMON: dict[str, Any] = {"group_name": GROUP, "partitions_def": source_partitions, "backfill_policy": BACKFILL}


def usage_metadata(used: Usage, backend: str) -> dict:
    """What a step's LLM calls cost, as metadata: counts, the backend, and per task."""
    meta: dict = {f"llm_{k}": dg.MetadataValue.int(int(v)) for k, v in used.as_dict().items()}
    meta["llm_backend"] = dg.MetadataValue.text(backend)
    if used.tasks():
        meta["llm_by_task"] = dg.MetadataValue.json(used.tasks())
    return meta


def _usage_metadata(llm, before) -> dict:
    return usage_metadata(llm.usage.snapshot() - before, llm.label)


def _partition_metadata(
    context: dg.AssetExecutionContext, key: str, metadata: dict, asset_key: str | None = None
) -> None:
    """What one source's materialisation says of that source alone. The run's totals are
    on every partition's event as well; a table of the whole run would be copied into each of
    a backfill's hundreds of events, and say nothing about the partition it is shown on."""
    context.add_asset_metadata(metadata, asset_key=asset_key, partition_key=key)


def ingest_config(graphwiki: GraphwikiConfig) -> IngestConfig:
    return IngestConfig(
        batch_size=graphwiki.ingest_batch,
        max_bytes=graphwiki.max_source_bytes,
        extract=ExtractConfig(max_calls_per_source=graphwiki.max_calls_per_source),
        schema=graphwiki.load_schema().config,
        draft=graphwiki.ingest_draft,
    )


@dg.asset(
    **COMMON,
    io_manager_key=IO,
    kinds={"python"},
    description="Each source file read, hashed and checked; unchanged text (same SHA256) stops here.",
)
def sources(
    context: dg.AssetExecutionContext, graphwiki: GraphwikiConfig, neo4j: Neo4jResource
) -> dict:  # by partition key: a NewSource or the CommitReport of a text not new
    # a stable order (see the IO manager)
    items = read_keys(Path(graphwiki.sources_dir), sorted(context.partition_keys), graphwiki.max_source_bytes)
    for item in items:
        if isinstance(item, SourceRejected):
            context.log.warning(f"skipping {item.path}: {item.reason}")
    with neo4j.open() as store:
        out = triage(store, items, utc_now(), graphwiki.load_schema().config.extraction_version).by_path()
    counts = {s: sum(v.status == s for v in out.values()) for s in ("new", "unchanged", "skipped")}
    problems = [{"path": v.path, "reason": v.reason} for v in out.values() if v.status == "skipped"]
    context.add_output_metadata(
        {
            **{f"sources_{s}": dg.MetadataValue.int(n) for s, n in counts.items()},
            "skipped": rows_table(problems[:50], ["path", "reason"], empty="none skipped"),
        }
    )
    for key, value in out.items():
        _partition_metadata(
            context,
            key,
            {
                "source_status": dg.MetadataValue.text(value.status),
                **({"source_reason": dg.MetadataValue.text(value.reason)} if value.reason else {}),
            },
        )
    return out


@dg.multi_asset(
    **COMMON,
    ins={"extracted_candidates": dg.AssetIn()},
    outs={
        "resolved_concepts": dg.AssetOut(
            io_manager_key=IO,
            kinds={"neo4j"},
            tags={"graphwiki/llm": "judge"},
            description="Two-stage entity resolution: exact names, a vector-index "
            "screen, then one SAME/NOT_SAME judgment per candidate.",
        ),
        "claim_links": dg.AssetOut(
            io_manager_key=IO,
            kinds={"neo4j"},
            tags={"graphwiki/llm": "conflicts"},
            description="Claims DERIVED_FROM their source and about their concepts, "
            "contradictions found; each batch committed in one transaction, "
            "then verified.",
        ),
    },
    internal_asset_deps={
        "resolved_concepts": {dg.AssetKey("extracted_candidates")},
        "claim_links": {dg.AssetKey("resolved_concepts")},
    },
    check_specs=VERIFY_SPECS,
    can_subset=False,
)
def resolve_and_commit(
    context: dg.AssetExecutionContext,
    extracted_candidates: dict,  # by partition key: Candidates, or the CommitReport of a source not extracted
    graphwiki: GraphwikiConfig,
    neo4j: Neo4jResource,
    embeddings: EmbeddingResource,
    llm: LLMResource,
):
    client = llm.client()
    before = client.usage.snapshot()
    with neo4j.open() as store:
        ingestor = Ingestor(
            store=store,
            embedder=embeddings.lazy_embedder(),  # loaded only when a source is to be written
            llm=client,
            config=ingest_config(graphwiki),
            log=context.log.info,
            purpose=run_actor(context),
        )
        # In partition-key order (the IO manager loads them so): which sources share a batch, and
        # their order in it, decides the name a concept found in two of them is created under.
        committed = commit_extracted(ingestor, extracted_candidates)
        checks = list(verify_results(store, source_ids=[r.source_id for r in committed.written]))
    _fail_on_failed(committed)
    _commit_partition_metadata(context, committed)
    totals = committed.totals
    yield dg.Output(
        {
            key: {
                "status": r.status,
                "created": r.concepts_created,
                "merged": r.concepts_merged,
                "judgments": r.judgments,
            }
            for key, r in committed.reports.items()
        },
        output_name="resolved_concepts",
        metadata={
            "created": dg.MetadataValue.int(totals.concepts_created),
            "merged": dg.MetadataValue.int(totals.concepts_merged),
            "judgments": dg.MetadataValue.int(totals.judgments),
            **_usage_metadata(client, before),
        },
    )
    yield dg.Output(
        {k: r.model_dump() for k, r in committed.reports.items()},
        output_name="claim_links",
        metadata={
            "sources_written": dg.MetadataValue.int(totals.sources),
            "claims": dg.MetadataValue.int(totals.claims),
            "contradictions": dg.MetadataValue.int(totals.contradictions),
            "settled": dg.MetadataValue.int(totals.settled),
            "restatement_pairs": dg.MetadataValue.int(totals.restatement_pairs),
            "flagged_for_review": dg.MetadataValue.int(totals.flagged_for_review),
            "seconds_by_stage": dg.MetadataValue.json(ingestor.times.as_dict()),
            # the serial part every writer waits for: what more parallel runs cannot shorten
            "lease_held_seconds": dg.MetadataValue.float(round(sum(ingestor.times.lease_held, 0.0), 3)),
        },
    )
    yield from checks


def _fail_on_failed(committed: Committed) -> None:
    """A source whose calls kept failing fails the run by name, once the others are written."""
    failed, reports = committed.failed, committed.reports
    if failed:
        raise dg.Failure(
            description=f"{len(failed)} of {len(reports)} sources failed (nothing of them was written; the other "
            f"{len(reports) - len(failed)} are in the graph, so a re-run retries only these): "
            + "; ".join(f"{k}: {r.reason}" for k, r in list(failed.items())[:10]),
            metadata={
                "failed": rows_table(
                    [{"source": k, "reason": r.reason} for k, r in failed.items()], ["source", "reason"]
                )
            },
            allow_retries=False,
        )


def _commit_partition_metadata(context: dg.AssetExecutionContext, committed: Committed) -> None:
    for key, r in committed.reports.items():
        _partition_metadata(
            context,
            key,
            {
                "source_status": dg.MetadataValue.text(r.status),
                "source_created": dg.MetadataValue.int(r.concepts_created),
                "source_merged": dg.MetadataValue.int(r.concepts_merged),
            },
            asset_key="resolved_concepts",
        )
        _partition_metadata(
            context,
            key,
            {
                "source_status": dg.MetadataValue.text(r.status),
                "source_claims": dg.MetadataValue.int(r.claims),
                "source_contradictions": dg.MetadataValue.int(r.contradictions),
            },
            asset_key="claim_links",
        )


@dg.asset(
    **COMMON,
    deps=["claim_links"],
    kinds={"neo4j"},
    tags={"graphwiki/llm": "summarize"},
    description="Summaries of concepts that now carry facts from more than one source, rewritten "
    "(several concepts per call).",
)
def summaries(context: dg.AssetExecutionContext, neo4j: Neo4jResource, llm: LLMResource) -> dg.MaterializeResult:
    client = llm.client()
    before = client.usage.snapshot()
    with neo4j.open() as store:
        run = refresh_summaries(store, client, utc_now())
    if run.failed_calls:
        context.log.warning(
            f"{run.failed_calls} summary call(s) failed; those concepts stay marked for a later run: "
            f"{(run.errors or [''])[0]}"
        )
    return dg.MaterializeResult(
        metadata={
            "refreshed": dg.MetadataValue.int(run.refreshed),
            "failed_calls": dg.MetadataValue.int(run.failed_calls),
            **_usage_metadata(client, before),
        }
    )
