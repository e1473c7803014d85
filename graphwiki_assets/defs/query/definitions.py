"""The query area's Dagster side: what questions read besides the graph, refreshed after ingest.

Queries stream PageRank from the named GDS projection and match shapes against the stored
neighbourhood signatures; rebuilding them here, after ingest, is what keeps a question
from reading the whole graph. Both run whenever a source's ``claim_links`` partition is
written (failed or skipped sources do not hold them back).
"""

from __future__ import annotations

import dagster as dg

from graphwiki_assets.core.query.projection import refresh_projection
from graphwiki_assets.core.query.signatures import refresh_signatures
from graphwiki_assets.defs.automation import AFTER_INGEST
from graphwiki_assets.defs.resources import Neo4jResource

# Both assets: the query group, after claim_links
AFTER_CLAIM_LINKS = {"group_name": "query", "deps": [dg.AssetKey("claim_links")], "kinds": {"neo4j"},
                     "automation_condition": AFTER_INGEST}


@dg.asset(**AFTER_CLAIM_LINKS,
          description="The named GDS projection (concepts, claims, sources) that PageRank queries stream from.")
def graph_projection(neo4j: Neo4jResource) -> dg.MaterializeResult:
    with neo4j.open() as store:
        status = refresh_projection(store)
    return dg.MaterializeResult(metadata={
        "projection": status.name,
        "nodes": dg.MetadataValue.int(status.nodes),
        "relationships": dg.MetadataValue.int(status.relationships),
        "relationship_types": ", ".join(status.types),
        "seconds": dg.MetadataValue.float(status.seconds),
    })


@dg.asset(**AFTER_CLAIM_LINKS,
          description="Each concept's stored neighbourhood signature, which 'shaped like X' questions match against.")
def shape_signatures(neo4j: Neo4jResource) -> dg.MaterializeResult:
    with neo4j.open() as store:
        done = refresh_signatures(store)
    return dg.MaterializeResult(metadata={
        "stale": dg.MetadataValue.int(done["stale"]),
        "written": dg.MetadataValue.int(done["written"]),
    })


defs = dg.Definitions(assets=[graph_projection, shape_signatures])
