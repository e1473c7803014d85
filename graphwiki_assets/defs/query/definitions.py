"""The query area's Dagster side: what questions read besides the graph, refreshed after ingest.

Queries stream PageRank from the named GDS projection and match shapes against the stored
neighbourhood signatures; rebuilding them here, after ingest, is what keeps a question
from reading the whole graph. Both run whenever a source's ``claim_links`` partition is
written (failed or skipped sources do not hold them back).

The ``communities`` asset (after the projection) groups the concept graph with Leiden and
reports each new community; global questions are answered from those reports. It costs LLM
calls for changed communities only, and runs on its daily schedule or on demand rather than
after every ingest, where a graph in motion would reshuffle communities batch by batch.
"""

from typing import Any

import dagster as dg

from graphwiki_assets.core.communities.detect import CommunityConfig
from graphwiki_assets.core.communities.plots import size_plot
from graphwiki_assets.core.communities.refresh import list_communities, refresh_communities
from graphwiki_assets.core.evals.plots import markdown_image
from graphwiki_assets.core.query import ask
from graphwiki_assets.core.query.filed import NotFileable, file_answer
from graphwiki_assets.core.query.signatures import refresh_signatures
from graphwiki_assets.core.query.upkeep import rebuild_projection
from graphwiki_assets.defs.audit import run_actor
from graphwiki_assets.defs.automation import AFTER_INGEST
from graphwiki_assets.defs.metadata import rows_table
from graphwiki_assets.defs.resources import (
    EmbeddingResource,
    GraphwikiConfig,
    LLMResource,
    Neo4jResource,
    resources_for,
)

# Both assets: the query group, after claim_links
AFTER_CLAIM_LINKS: dict[str, Any] = {
    "group_name": "query",
    "deps": [dg.AssetKey("claim_links")],
    "kinds": {"neo4j"},
    "automation_condition": AFTER_INGEST,
}


@dg.asset(
    **AFTER_CLAIM_LINKS,
    description="The named GDS projection (concepts, claims, sources) that PageRank queries stream from, and "
    "the FastRP node embeddings of its concept layer (Concept.structure) for hybrid retrieval.",
)
def graph_projection(neo4j: Neo4jResource) -> dg.MaterializeResult:
    with neo4j.open() as store:
        status, structure = rebuild_projection(store)
    return dg.MaterializeResult(
        metadata={
            "projection": status.name,
            "concepts_embedded": dg.MetadataValue.int(structure["written"]),
            "structure_dimension": dg.MetadataValue.int(structure["dimension"]),
            "nodes": dg.MetadataValue.int(status.nodes),
            "relationships": dg.MetadataValue.int(status.relationships),
            "relationship_types": ", ".join(status.types),
            "seconds": dg.MetadataValue.float(status.seconds),
        }
    )


@dg.asset(
    **AFTER_CLAIM_LINKS,
    description="Each concept's stored neighbourhood signature, which 'shaped like X' questions match against.",
)
def shape_signatures(neo4j: Neo4jResource) -> dg.MaterializeResult:
    with neo4j.open() as store:
        done = refresh_signatures(store)
    return dg.MaterializeResult(
        metadata={
            "stale": dg.MetadataValue.int(done["stale"]),
            "written": dg.MetadataValue.int(done["written"]),
        }
    )


class CommunitiesConfig(dg.Config):
    min_size: int = 3  # smaller groups are not a theme
    gamma: float = 1.0  # Leiden's resolution: higher gives more, smaller communities
    per_call: int = 8  # communities reported in one LLM call
    shown: int = 30  # top-level communities listed in the metadata table


@dg.asset(
    group_name="query",
    deps=[graph_projection],
    kinds={"neo4j", "gds"},
    check_specs=[
        dg.AssetCheckSpec(
            "every_community_reported",
            asset="communities",
            blocking=True,
            description="Every community has a title and summary (a failed LLM call leaves "
            "its communities unreported until the next run).",
        )
    ],
    description="Leiden communities of the concept graph (GDS), each with a title and summary; global questions "
    "are answered from them. A community whose members did not change keeps its report (no LLM call).",
)
def communities(
    context: dg.AssetExecutionContext,
    config: CommunitiesConfig,
    neo4j: Neo4jResource,
    embeddings: EmbeddingResource,
    llm: LLMResource,
) -> dg.MaterializeResult:
    settings = CommunityConfig(min_size=config.min_size, gamma=config.gamma, per_call=config.per_call)
    with neo4j.open() as store:
        run = refresh_communities(store, embeddings.embedder(), llm.client(), settings, log=context.log.info)
        top = [c for c in list_communities(store) if c["top"]]
    largest = rows_table(
        [
            {"size": c["size"], "title": c["title"], "summary": c["summary"][:160], "kind": c["kind"]}
            for c in top[: config.shown]
        ],
        ["size", "title", "summary", "kind"],
        empty="no communities",
    )
    plot = markdown_image(size_plot(run.top_sizes), "community sizes") if run.top_sizes else "_no communities_"
    return dg.MaterializeResult(
        metadata={
            "communities": dg.MetadataValue.int(run.communities),
            "top_level": dg.MetadataValue.int(run.top),
            "levels": dg.MetadataValue.int(run.levels),
            "concepts_covered": dg.MetadataValue.int(run.covered),
            "concepts": dg.MetadataValue.int(run.concepts),
            "new": dg.MetadataValue.int(run.new),
            "kept": dg.MetadataValue.int(run.kept),
            "dropped": dg.MetadataValue.int(run.dropped),
            "reported": dg.MetadataValue.int(run.reported),
            "llm_calls": dg.MetadataValue.int(run.llm_calls),
            "prompt_tokens": dg.MetadataValue.int(run.prompt_tokens),
            "largest": largest,
            "sizes": dg.MetadataValue.md(plot),
        },
        check_results=[
            dg.AssetCheckResult(
                check_name="every_community_reported",
                passed=not run.failed,
                metadata={
                    "unreported": dg.MetadataValue.int(len(run.failed)),
                    "errors": dg.MetadataValue.text("; ".join(run.errors[:3]) or "none"),
                },
            )
        ],
    )


class QuestionsConfig(dg.Config):
    questions: list[str] = []  # asked in order; each good answer is filed back


@dg.asset(
    group_name="query",
    deps=[graph_projection],
    kinds={"neo4j"},
    description="A batch of questions (run config) answered from the graph; each answer that cites its sources is "
    "filed back as an :Answer that later questions find. Filed answers are derived, never a source, and "
    "are flagged needs_review when a source they cite changes.",
)
def filed_answers(
    context: dg.AssetExecutionContext,
    config: QuestionsConfig,
    neo4j: Neo4jResource,
    embeddings: EmbeddingResource,
    llm: LLMResource,
    graphwiki: GraphwikiConfig,
) -> dg.MaterializeResult:
    embedder, client = embeddings.embedder(), llm.client()
    rows, actor = [], run_actor(context)
    # the same staleness age as `graphwiki ask` and the lint: the schema config's
    stale_days = graphwiki.load_schema().config.thresholds.staleness_days
    with neo4j.open() as store:
        for question in config.questions:
            answer = ask(store, embedder, client, question, actor=actor, stale_days=stale_days)
            try:
                filed, why = file_answer(store, embedder, answer, actor=actor), ""
            except NotFileable as exc:
                filed, why = "", str(exc)
            context.log.info(f"{question!r}: {'filed as ' + filed if filed else 'not filed: ' + why}")
            rows.append(
                {
                    "question": question,
                    "shape": answer.shape,
                    "citations": len(answer.citations),
                    "filed": filed,
                    "why not": why,
                }
            )
    return dg.MaterializeResult(
        metadata={
            "questions": dg.MetadataValue.int(len(rows)),
            "filed": dg.MetadataValue.int(sum(bool(r["filed"]) for r in rows)),
            "answers": rows_table(rows, ["question", "shape", "citations", "filed", "why not"], empty="none asked"),
        }
    )


communities_job = dg.define_asset_job(
    "refresh_communities",
    selection=dg.AssetSelection.assets(communities),
    description="Detect communities and report the new ones.",
)

daily_communities = dg.ScheduleDefinition(
    name="daily_communities",
    job=communities_job,
    cron_schedule="0 5 * * *",
    default_status=dg.DefaultScheduleStatus.RUNNING,
    description="Communities follow the graph once a day; only changed communities cost LLM calls.",
)


@dg.definitions
def defs() -> dg.Definitions:
    return dg.Definitions(
        assets=[graph_projection, shape_signatures, communities, filed_answers],
        jobs=[communities_job],
        schedules=[daily_communities],
        resources=resources_for("neo4j", "embeddings", "llm", "graphwiki"),
    )
