"""The ingest lineage, one partition per source file:

    sources -> extracted_candidates -> resolved_concepts -> claim_links -> summaries

Stages hand typed plans to each other; only ``claim_links`` writes, in one transaction
per source, then runs the blocking verify gates. A bad file is skipped with its reason
(downstream stages pass it through); an LLM that keeps failing fails that partition only.
"""


from pathlib import Path

import dagster as dg

from graphwiki_assets.core.ingest.claims import find_conflicts, plan_claims
from graphwiki_assets.core.ingest.commit import commit_source
from graphwiki_assets.core.ingest.extraction import extract_candidates
from graphwiki_assets.core.ingest.files import SourceDocument, SourceRejected, read_source
from graphwiki_assets.core.ingest.models import Candidates, ResolutionPlan
from graphwiki_assets.core.ingest.pipeline import Ingestor, utc_now
from graphwiki_assets.core.ingest.resolution import resolve
from graphwiki_assets.core.llm.client import LLMError
from graphwiki_assets.defs.ingest.partitions import source_partitions
from graphwiki_assets.defs.ingest.verify import VERIFY_SPECS, verify_results
from graphwiki_assets.defs.resources import EmbeddingResource, GraphwikiConfig, LLMResource, Neo4jResource

GROUP = "ingest"
POOL = "graphwiki_writes"  # graph-writing stages of different sources never interleave


def _usage_metadata(llm, before) -> dict:
    used = (llm.usage.snapshot() - before).as_dict()
    meta = {f"llm_{k}": dg.MetadataValue.int(int(v)) for k, v in used.items()}
    meta["llm_backend"] = dg.MetadataValue.text(llm.label)
    return meta


def _fail(context: dg.AssetExecutionContext, stage: str, exc: Exception) -> dg.Failure:
    return dg.Failure(
        description=f"{stage} failed for {context.partition_key}: {exc}",
        metadata={"partition": context.partition_key, "error": type(exc).__name__},
        allow_retries=False,
    )


@dg.asset(group_name=GROUP, partitions_def=source_partitions, kinds={"python"},
          description="The source file read, hashed and checked; unchanged content stops here.")
def sources(context: dg.AssetExecutionContext, graphwiki: GraphwikiConfig, neo4j: Neo4jResource,
            embeddings: EmbeddingResource, llm: LLMResource) -> dg.Output[dict]:
    path = Path(graphwiki.sources_dir) / context.partition_key
    try:
        doc = read_source(path, display=context.partition_key)
    except SourceRejected as exc:
        context.log.warning(f"skipping {exc.path}: {exc.reason}")
        return dg.Output({"status": "skipped", "reason": exc.reason, "path": exc.path},
                         metadata={"status": "skipped", "reason": exc.reason})
    with neo4j.open() as store:
        ingestor = Ingestor(store=store, embedder=embeddings.embedder(), llm=llm.client())
        ingestor.ensure_schema()
        if ingestor.existing(doc) is not None:
            ingestor.touch(doc.source_id, doc.path)
            return dg.Output({"status": "unchanged", "source_id": doc.source_id, "path": doc.path},
                             metadata={"status": "unchanged", "sha256": doc.sha256, "llm_calls": 0})
    return dg.Output(
        {"status": "new", "path": doc.path, "title": doc.title, "text": doc.text, "sha256": doc.sha256},
        metadata={"status": "new", "sha256": doc.sha256, "title": doc.title, "characters": len(doc.text)},
    )


@dg.asset(group_name=GROUP, partitions_def=source_partitions, kinds={"openai"},
          description="Concepts and atomic claims extracted against the fixed schema (validated).")
def extracted_candidates(context: dg.AssetExecutionContext, sources: dict, llm: LLMResource) -> dg.Output:
    if sources["status"] != "new":
        return dg.Output(None, metadata={"status": sources["status"]})
    client = llm.client()
    before = client.usage.snapshot()
    doc = SourceDocument(path=sources["path"], title=sources["title"], text=sources["text"], sha256=sources["sha256"])
    try:
        candidates = extract_candidates(client, doc)
    except LLMError as exc:
        raise _fail(context, "extraction", exc) from exc
    rows = [{"name": c.name, "type": c.type, "aliases": ", ".join(c.aliases)} for c in candidates.extraction.concepts]
    return dg.Output(candidates, metadata={
        "concepts": len(candidates.extraction.concepts),
        "claims": len(candidates.extraction.claims),
        "dropped_off_schema": candidates.extraction.dropped,
        "removed_injections": len(candidates.removed_injections),
        "chunks": candidates.chunks,
        "preview": dg.MetadataValue.md(_table(rows[:25], ["name", "type", "aliases"])),
        **_usage_metadata(client, before),
    })


@dg.asset(group_name=GROUP, partitions_def=source_partitions, kinds={"neo4j", "openai"},
          description="Two-stage entity resolution: vector-index screen, then one SAME/NOT_SAME judgment per candidate.")
def resolved_concepts(context: dg.AssetExecutionContext, extracted_candidates: Candidates | None,
                      neo4j: Neo4jResource, embeddings: EmbeddingResource, llm: LLMResource) -> dg.Output:
    if extracted_candidates is None:
        return dg.Output(None, metadata={"status": "nothing to resolve"})
    client = llm.client()
    before = client.usage.snapshot()
    with neo4j.open() as store:
        try:
            plan = resolve(store, embeddings.embedder(), client, extracted_candidates)
        except LLMError as exc:
            raise _fail(context, "entity resolution", exc) from exc
    same = sum(j.verdict == "SAME" for j in plan.judgments)
    return dg.Output(plan, metadata={
        "created": sum(a.created for a in plan.actions),
        "merged": sum(not a.created for a in plan.actions),
        "exact_matches": plan.exact_matches,
        "stage1_pairs": plan.stage1_pairs,
        "stage1_screened": plan.stage1_screened,
        "judgments_same": same,
        "judgments_not_same": len(plan.judgments) - same,
        **_usage_metadata(client, before),
    })


@dg.asset(group_name=GROUP, partitions_def=source_partitions, kinds={"neo4j"}, pool=POOL,
          check_specs=VERIFY_SPECS,
          description="Claims DERIVED_FROM their source and about their concepts, contradictions found; "
                      "the whole source committed in one transaction, then verified.")
def claim_links(context: dg.AssetExecutionContext, resolved_concepts: ResolutionPlan | None,
                neo4j: Neo4jResource, embeddings: EmbeddingResource, llm: LLMResource):
    client = llm.client()
    before = client.usage.snapshot()
    written: list[str] = []
    with neo4j.open() as store:
        if resolved_concepts is None:
            yield dg.Output(None, metadata={"status": "nothing to write"})
        else:
            embedder = embeddings.embedder()
            try:
                links = find_conflicts(store, client, resolved_concepts, plan_claims(resolved_concepts, embedder))
            except LLMError as exc:
                raise _fail(context, "contradiction detection", exc) from exc
            report = commit_source(store, embedder, resolved_concepts, links, client.label, utc_now())
            written.append(report.source_id)
            yield dg.Output(report.model_dump(), metadata={
                "source_id": report.source_id,
                "concepts_created": report.concepts_created,
                "concepts_merged": report.concepts_merged,
                "claims": report.claims,
                "contradictions": report.contradictions,
                "settled": report.settled,
                "superseded_sources": len(report.superseded_sources),
                "flagged_for_review": report.flagged_for_review,
                **_usage_metadata(client, before),
            })
        yield from verify_results(store, source_ids=written)


@dg.asset(group_name=GROUP, partitions_def=source_partitions, kinds={"neo4j", "openai"}, pool=POOL,
          deps=[claim_links],
          description="Summaries of concepts that now carry facts from more than one source, rewritten.")
def summaries(context: dg.AssetExecutionContext, neo4j: Neo4jResource, llm: LLMResource) -> dg.MaterializeResult:
    client = llm.client()
    before = client.usage.snapshot()
    from graphwiki_assets.core.ingest.summaries import refresh_summaries

    with neo4j.open() as store:
        try:
            refreshed = refresh_summaries(store, client, utc_now())
        except LLMError as exc:
            raise _fail(context, "summaries", exc) from exc
    return dg.MaterializeResult(metadata={"refreshed": refreshed, **_usage_metadata(client, before)})


def _table(rows: list[dict], columns: list[str]) -> str:
    if not rows:
        return "_none_"
    head = "| " + " | ".join(columns) + " |\n|" + "---|" * len(columns) + "\n"
    return head + "".join("| " + " | ".join(str(r.get(c, "")).replace("|", "\\|") for c in columns) + " |\n"
                          for r in rows)
