"""The named projection is an asset downstream of ingest, refreshed when claims are written."""

from __future__ import annotations

import dagster as dg

from graphwiki_assets.core.query.projection import projection_status
from graphwiki_assets.defs.query.definitions import defs, graph_projection
from graphwiki_assets.defs.resources import Neo4jResource
from tests.test_query_graph import build_seed_graph


def test_graph_projection_follows_claim_links_and_refreshes_after_ingest():
    spec = next(iter(graph_projection.specs))
    assert [d.asset_key for d in spec.deps] == [dg.AssetKey("claim_links")]
    assert spec.automation_condition is not None and spec.group_name == "query"
    assert graph_projection in list(defs.assets)


def test_materialising_graph_projection_rebuilds_it_from_the_graph(store, embedder, settings):
    build_seed_graph(store, embedder)
    assert not projection_status(store).exists
    neo4j = Neo4jResource(uri=settings.neo4j.uri, username=settings.neo4j.username, password=settings.neo4j.password)
    result = dg.materialize([graph_projection], resources={"neo4j": neo4j})
    assert result.success
    meta = result.asset_materializations_for_node("graph_projection")[0].metadata
    status = projection_status(store)
    assert status.exists and not status.stale and meta["nodes"].value == status.nodes
