"""The communities asset in Dagster: a table and a size plot in its metadata, a blocking check
that every community is reported, and no LLM call when the graph did not change."""

from __future__ import annotations

import dagster as dg

from graphwiki_assets.defs.query.definitions import communities, graph_projection
from graphwiki_assets.defs.resources import EmbeddingResource, LLMResource, Neo4jResource
from tests.support.community_corpus import CHEESE, SKY
from tests.support.ingest import ingest, write_sources


def test_the_communities_asset_reports_once_and_shows_its_sizes(store, embedder, settings, tmp_path):
    ingest(store, embedder, settings, write_sources(tmp_path / "sources", {**SKY, **CHEESE}), cache=False)
    resources = {
        "neo4j": Neo4jResource(
            uri=settings.neo4j.uri, username=settings.neo4j.username, password=settings.neo4j.password
        ),
        "embeddings": EmbeddingResource(),
        "llm": LLMResource(cache_dir=str(tmp_path / "llm-cache")),
    }
    instance = dg.DagsterInstance.ephemeral()

    def materialise():
        result = dg.materialize([graph_projection, communities], resources=resources, instance=instance)
        assert result.success
        [event] = [e for e in result.get_asset_materialization_events() if e.asset_key == dg.AssetKey("communities")]
        [check] = result.get_asset_check_evaluations()
        return event.materialization.metadata, check

    meta, check = materialise()
    assert meta["communities"].value >= 2 and meta["reported"].value == meta["communities"].value
    assert meta["llm_calls"].value >= 1 and check.passed
    assert "data:image/png;base64," in meta["sizes"].value
    assert [c.name for c in meta["largest"].schema.columns] == ["size", "title", "summary", "kind"]
    assert meta["largest"].records and all(isinstance(r.data["size"], int) for r in meta["largest"].records)

    again, check = materialise()
    assert again["llm_calls"].value == 0 and again["new"].value == 0 and check.passed
