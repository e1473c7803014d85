"""``extracted_candidates``: the run's new sources cut into batches, each batch extracted by
its own step, the results joined into one asset value.

A batch's extraction needs no graph and nothing of any other batch, so the steps are
independent: under the in-process executor they run one after another; with the
multiprocess executor (``GRAPHWIKI_INGEST_WORKERS`` > 1 makes the sensor ask for it) they
run side by side, each in its own process; under ``dagster-k8s``'s executor each is a pod.
Resolution and the commit stay one step after them, under the ingest lease.
"""

from dataclasses import dataclass
from typing import Any

import dagster as dg

from graphwiki_assets.core.ingest.models import Candidates, CommitReport
from graphwiki_assets.core.ingest.pipeline import batched
from graphwiki_assets.core.ingest.stages import extract_new, scope_for
from graphwiki_assets.core.llm.base import Usage
from graphwiki_assets.defs.ingest.assets import BACKFILL, GROUP, IO, ingest_config, usage_metadata
from graphwiki_assets.defs.ingest.partitions import source_partitions
from graphwiki_assets.defs.resources import EmbeddingResource, GraphwikiConfig, LLMResource


@dataclass
class ExtractedBatch:
    """One batch's extraction: a value per source, and what its LLM calls cost."""

    values: dict[str, Candidates | CommitReport]
    usage: dict[str, Any]
    backend: str


@dg.op(out=dg.DynamicOut(dict), description="The run's new sources in batches of GRAPHWIKI_INGEST_BATCH.")
def batches_to_extract(sources: dict, graphwiki: GraphwikiConfig):
    new = sorted(key for key, v in sources.items() if v.status == "new")
    chunks = list(batched(new, graphwiki.ingest_batch)) or [[]]  # one (empty) batch keeps the join running
    for n, keys in enumerate(chunks, start=1):
        yield dg.DynamicOutput({key: sources[key] for key in keys}, mapping_key=f"batch_{n:04d}")


@dg.op(description="One batch's concepts and claims, extracted against the fixed schema (validated).")
def extract_batch(
    context: dg.OpExecutionContext,
    batch: dict,  # by partition key: NewSource
    graphwiki: GraphwikiConfig,
    llm: LLMResource,
    embeddings: EmbeddingResource,
) -> ExtractedBatch:
    client = llm.client()
    before = client.usage.snapshot()
    config = ingest_config(graphwiki)
    schema = config.schema
    # the model loads only when a focus asks for it; outside it a source costs no extraction call
    scope = scope_for(schema, embeddings.lazy_embedder())
    extracted = extract_new(client, list(batch.values()), config.extract, schema.taxonomy, scope, log=context.log.info)
    used = client.usage.snapshot() - before
    return ExtractedBatch(values=extracted.by_path(), usage=used.portable(), backend=client.label)


@dg.op(
    out=dg.Out(dict, io_manager_key=IO),
    description="Every source of the run: the extracted batches joined with the sources that were not new.",
)
def join_extracted(context: dg.AssetExecutionContext, sources: dict, batches: list) -> dg.Output:
    out: dict[str, Candidates | CommitReport] = {k: v for k, v in sources.items() if isinstance(v, CommitReport)}
    usage = Usage()
    for batch in batches:
        out.update(batch.values)
        usage = usage + Usage.from_portable(batch.usage)
    candidates = [v for v in out.values() if isinstance(v, Candidates)]
    failed = {k: v for k, v in out.items() if isinstance(v, CommitReport) and v.status == "failed"}
    outside = sum(c.scope == "out" for c in candidates)
    for c in candidates:
        context.add_asset_metadata(
            {
                "source_concepts": dg.MetadataValue.int(len(c.extraction.concepts)),
                "source_claims": dg.MetadataValue.int(len(c.extraction.claims)),
                "source_chunks": dg.MetadataValue.int(c.chunks),
            },
            partition_key=c.path,
        )
    for key, v in failed.items():
        context.add_asset_metadata({"failed": dg.MetadataValue.text(v.reason)}, partition_key=key)
    metadata: dict[str, Any] = {
        "sources_extracted": dg.MetadataValue.int(len(candidates) - outside),
        "sources_out_of_scope": dg.MetadataValue.int(outside),
        "sources_failed": dg.MetadataValue.int(len(failed)),
        "extraction_batches": dg.MetadataValue.int(len(batches)),
        "concepts": dg.MetadataValue.int(sum(len(c.extraction.concepts) for c in candidates)),
        "claims": dg.MetadataValue.int(sum(len(c.extraction.claims) for c in candidates)),
        # there is always a batch: an empty one keeps the join running
        **usage_metadata(usage, batches[0].backend),
    }
    return dg.Output(out, metadata=metadata)


@dg.graph_asset(
    group_name=GROUP,
    partitions_def=source_partitions,
    backfill_policy=BACKFILL,
    kinds={"python"},
    tags={"graphwiki/llm": "extract"},
    description="Concepts and atomic claims extracted against the fixed schema (validated); one step "
    "per batch of sources, side by side under the multiprocess executor.",
)
def extracted_candidates(sources: dict) -> dict:
    done = batches_to_extract(sources).map(extract_batch)
    return join_extracted(sources, done.collect())
