"""The named projection is an asset downstream of ingest, refreshed when claims are written."""

from __future__ import annotations

import dagster as dg

from graphwiki_assets.core.query.projection import projection_status
from graphwiki_assets.core.query.signatures import stale
from graphwiki_assets.defs.query.definitions import defs, graph_projection, shape_signatures
from graphwiki_assets.defs.resources import Neo4jResource
from tests.support.seed_graph import build_seed_graph


def test_graph_projection_and_signatures_follow_claim_links_and_refresh_after_ingest():
    for asset in (graph_projection, shape_signatures):
        spec = next(iter(asset.specs))
        assert [d.asset_key for d in spec.deps] == [dg.AssetKey("claim_links")]
        assert spec.automation_condition is not None and spec.group_name == "query"
        assert asset in list(defs().assets)


def test_materialising_graph_projection_rebuilds_it_from_the_graph(store, embedder, settings):
    build_seed_graph(store, embedder)
    assert not projection_status(store).exists
    neo4j = Neo4jResource(uri=settings.neo4j.uri, username=settings.neo4j.username, password=settings.neo4j.password)
    result = dg.materialize([graph_projection], resources={"neo4j": neo4j})
    assert result.success
    meta = result.asset_materializations_for_node("graph_projection")[0].metadata
    status = projection_status(store)
    assert status.exists and not status.stale and meta["nodes"].value == status.nodes


def test_materialising_shape_signatures_stores_every_concepts_signature(store, embedder, settings):
    build_seed_graph(store, embedder)
    assert stale(store)
    neo4j = Neo4jResource(uri=settings.neo4j.uri, username=settings.neo4j.username, password=settings.neo4j.password)
    result = dg.materialize([shape_signatures], resources={"neo4j": neo4j})
    assert result.success and stale(store) == []
    meta = result.asset_materializations_for_node("shape_signatures")[0].metadata
    assert meta["written"].value == meta["stale"].value > 0
