"""The wiki asset: a markdown page per corroborated concept and the index, under
``$GRAPHWIKI_HOME/wiki``, after every ingest (after the overview, whose index it extends)."""

from pathlib import Path

import dagster as dg

from graphwiki_assets.core.wiki import export_wiki
from graphwiki_assets.defs.automation import AFTER_INGEST
from graphwiki_assets.defs.metadata import rows_table
from graphwiki_assets.defs.resources import GraphwikiConfig, Neo4jResource

CHANGES_SHOWN = 100


@dg.asset(
    group_name="overview",
    deps=["claim_links", "overview"],
    kinds={"neo4j", "markdown"},
    automation_condition=AFTER_INGEST,
    description="One markdown page per corroborated concept (summary with citations, claims with status, related "
    "concepts as [[links]], sources with dates, a picture of its neighbourhood) and the index, under "
    "GRAPHWIKI_HOME/wiki; only pages that changed are rewritten. Opens in Obsidian or any markdown viewer.",
)
def wiki(context: dg.AssetExecutionContext, neo4j: Neo4jResource, graphwiki: GraphwikiConfig) -> dg.MaterializeResult:
    config = graphwiki.load_schema().config
    folder = Path(graphwiki.home).resolve() / "wiki"
    with neo4j.open() as store:
        report = export_wiki(store, config, folder)
    changes = report.changes()
    context.log.info(", ".join(f"{n} {name}" for name, n in report.counts().items()))
    return dg.MaterializeResult(
        metadata={
            **{name: dg.MetadataValue.int(n) for name, n in report.counts().items()},
            # the first CHANGES_SHOWN; the counts above say how many changed in all
            "changed_pages": rows_table(
                changes[:CHANGES_SHOWN], ["change", "page", "concept"], empty="No page changed."
            ),
            "path": dg.MetadataValue.path(str(folder)),
        }
    )
