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
from graphwiki_assets.core.ingest.models import Candidates, CommitReport
from graphwiki_assets.core.ingest.pipeline import (
    IngestConfig,
    Ingestor,
    commit_extracted,
    triage,
    utc_now,
)
from graphwiki_assets.core.ingest.summaries import refresh_summaries
from graphwiki_assets.core.ingest.timing import StageTimes
from graphwiki_assets.core.llm.base import Usage
from graphwiki_assets.core.sources import SourceDocument, SourceRejected, parsed, read_source
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
    )


@dg.asset(
    **COMMON,
    io_manager_key=IO,
    kinds={"python"},
    description="Each source file read, hashed and checked; unchanged text (same SHA256) stops here.",
)
def sources(context: dg.AssetExecutionContext, graphwiki: GraphwikiConfig, neo4j: Neo4jResource) -> dict:
    folder = Path(graphwiki.sources_dir)
    items: list[SourceDocument | SourceRejected] = []
    for key in sorted(context.partition_keys):  # a stable order (see the IO manager)
        try:
            items.append(read_source(folder / key, max_bytes=graphwiki.max_source_bytes, display=key, parse=False))
        except SourceRejected as exc:
            context.log.warning(f"skipping {exc.path}: {exc.reason}")
            items.append(exc)
    with neo4j.open() as store:
        new, also, reports = triage(store, items, utc_now(), graphwiki.load_schema().config.extraction_version)
    out: dict[str, dict] = {r.path: {"status": r.status, "reason": r.reason, "path": r.path} for r in reports}
    for doc in map(parsed, new):  # parsed only when new
        out[doc.path] = {
            "status": "new",
            "path": doc.path,
            "title": doc.title,
            "text": doc.text,
            "sha256": doc.sha256,
            "date": doc.date,
            "date_from": doc.date_from,
            "format": doc.format,
            "document": doc.document,
            "also_paths": also.get(doc.source_id, []),
        }
    counts = {s: sum(v["status"] == s for v in out.values()) for s in ("new", "unchanged", "skipped")}
    problems = [{"path": v["path"], "reason": v["reason"]} for v in out.values() if v["status"] == "skipped"]
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
                "source_status": dg.MetadataValue.text(value["status"]),
                **({"source_reason": dg.MetadataValue.text(value["reason"])} if value.get("reason") else {}),
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
    extracted_candidates: dict,
    graphwiki: GraphwikiConfig,
    neo4j: Neo4jResource,
    embeddings: EmbeddingResource,
    llm: LLMResource,
):
    client = llm.client()
    before = client.usage.snapshot()
    # In partition-key order (the IO manager loads them so): which sources share a batch, and
    # their order in it, decides the name a concept found in two of them is created under.
    pending = [v for v in extracted_candidates.values() if isinstance(v, Candidates)]
    reports: dict[str, CommitReport] = {}
    for key, value in extracted_candidates.items():
        if not isinstance(value, Candidates):
            reports[key] = CommitReport(source_id="", path=key, status=value["status"], reason=value.get("reason", ""))
    times = StageTimes()
    with neo4j.open() as store:
        if pending:
            ingestor = Ingestor(
                store=store,
                embedder=embeddings.embedder(),
                llm=client,
                config=ingest_config(graphwiki),
                times=times,
                log=context.log.info,
                purpose=run_actor(context),
            )

            def committed(batch: list[CommitReport]) -> None:
                reports.update((r.path, r) for r in batch)
                context.log.info(
                    f"committed {sum(r.status == 'new' for r in reports.values())} of {len(pending)} sources"
                )

            commit_extracted(ingestor, pending, progress=committed)
        written = [r.source_id for r in reports.values() if r.status == "new"]
        checks = list(verify_results(store, source_ids=written))
    failed = {k: r for k, r in reports.items() if r.status == "failed"}
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
    resolved = {
        key: {"status": r.status, "created": r.concepts_created, "merged": r.concepts_merged, "judgments": r.judgments}
        for key, r in reports.items()
    }
    new = [r for r in reports.values() if r.status == "new"]
    for key, r in reports.items():
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
    usage = _usage_metadata(client, before)
    yield dg.Output(
        resolved,
        output_name="resolved_concepts",
        metadata={
            "created": dg.MetadataValue.int(sum(r.concepts_created for r in new)),
            "merged": dg.MetadataValue.int(sum(r.concepts_merged for r in new)),
            "judgments": dg.MetadataValue.int(sum(r.judgments for r in new)),
            **usage,
        },
    )
    yield dg.Output(
        {k: r.model_dump() for k, r in reports.items()},
        output_name="claim_links",
        metadata={
            "sources_written": dg.MetadataValue.int(len(new)),
            "claims": dg.MetadataValue.int(sum(r.claims for r in new)),
            "contradictions": dg.MetadataValue.int(sum(r.contradictions for r in new)),
            "settled": dg.MetadataValue.int(sum(r.settled for r in new)),
            "restatement_pairs": dg.MetadataValue.int(sum(r.restatement_pairs for r in new)),
            "flagged_for_review": dg.MetadataValue.int(sum(r.flagged_for_review for r in new)),
            "seconds_by_stage": dg.MetadataValue.json(times.as_dict()),
            # the serial part every writer waits for: what more parallel runs cannot shorten
            "lease_held_seconds": dg.MetadataValue.float(round(sum(times.lease_held, 0.0), 3)),
        },
    )
    yield from checks


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
