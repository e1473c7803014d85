"""The query area's Dagster side: the named GDS projection, refreshed after ingest.

Queries only stream PageRank from this projection; rebuilding it here, once per ingest,
is what keeps a query from projecting the graph itself. It runs whenever a source's
``claim_links`` partition is written (failed or skipped sources do not hold it back).
"""

from __future__ import annotations

import dagster as dg

from graphwiki_assets.core.query.projection import refresh_projection
from graphwiki_assets.defs.resources import Neo4jResource

AFTER_INGEST = (
    (dg.AutomationCondition.newly_missing() | dg.AutomationCondition.any_deps_updated()).since_last_handled()
    & ~dg.AutomationCondition.any_deps_in_progress()
    & ~dg.AutomationCondition.in_progress()
)


@dg.asset(group_name="query", deps=[dg.AssetKey("claim_links")], kinds={"neo4j"},
          automation_condition=AFTER_INGEST,
          description="The named GDS projection (concepts, claims, sources) that PageRank queries stream from.")
def graph_projection(neo4j: Neo4jResource) -> dg.MaterializeResult:
    with neo4j.open() as store:
        status = refresh_projection(store)
    return dg.MaterializeResult(metadata={
        "projection": status.name,
        "nodes": dg.MetadataValue.int(status.nodes),
        "relationships": dg.MetadataValue.int(status.relationships),
        "relationship_types": ", ".join(status.types),
    })


defs = dg.Definitions(assets=[graph_projection])
