"""The overview asset: the wiki's front page after every ingest, rendered in the UI and
written to ``$GRAPHWIKI_HOME/wiki/index.md`` and ``log.md``."""

from pathlib import Path

import dagster as dg

from graphwiki_assets.core.overview import build_overview, write_wiki
from graphwiki_assets.core.wiki import index_pages
from graphwiki_assets.defs.automation import AFTER_INGEST
from graphwiki_assets.defs.resources import GraphwikiConfig, Neo4jResource


@dg.asset(
    group_name="overview",
    deps=["claim_links"],
    kinds={"neo4j"},
    automation_condition=AFTER_INGEST,
    description="Concepts by type (corroborated only), recent additions, active contradictions, items needing "
    "review and knowledge gaps; also written as wiki/index.md and wiki/log.md under GRAPHWIKI_HOME.",
)
def overview(
    context: dg.AssetExecutionContext, neo4j: Neo4jResource, graphwiki: GraphwikiConfig
) -> dg.MaterializeResult:
    config = graphwiki.load_schema().config
    with neo4j.open() as store:
        view = build_overview(store, config)
        home = Path(graphwiki.home).resolve()
        written = write_wiki(store, view, home, pages=index_pages(home / "wiki"))
    context.log.info(f"wrote {', '.join(map(str, written))}")
    return dg.MaterializeResult(
        metadata={
            "overview": dg.MetadataValue.md(view.markdown()),
            **{name: dg.MetadataValue.int(n) for name, n in view.counts().items()},
            "config_version": dg.MetadataValue.text(config.version),
            "index_md": dg.MetadataValue.path(str(written[0])),
        }
    )
