"""Shared fixtures: a real Neo4j with GDS for the whole session, wiped per test.

The test server is its own launcher instance (own home, own Bolt port), so the user's
graph is never touched. If GRAPHWIKI_TEST_NEO4J_URI is set, that running server is used
instead (it must be disposable: tests delete everything in it).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from graphwiki_assets.core.neo4j_server.server import Neo4jServer
from graphwiki_assets.core.settings import Settings
from graphwiki_assets.core.store.driver import GraphStore
from graphwiki_assets.core.store.schema import ensure_schema

EMBEDDING_DIM = 384


@pytest.fixture(scope="session")
def test_home() -> Path:
    home = os.environ.get("GRAPHWIKI_TEST_HOME")
    if home:
        return Path(home)
    return Path(tempfile.gettempdir()) / f"graphwiki-test-{os.environ.get('GRAPHWIKI_TEST_BOLT_PORT', '7690')}"


@pytest.fixture(scope="session")
def settings(test_home: Path, tmp_path_factory) -> Settings:
    port = int(os.environ.get("GRAPHWIKI_TEST_BOLT_PORT", "7690"))
    base = Settings.from_env({"NEO4J_PASSWORD": os.environ.get("GRAPHWIKI_TEST_PASSWORD", "graphwiki-test")})
    s = base.with_instance(test_home, port)
    uri = os.environ.get("GRAPHWIKI_TEST_NEO4J_URI")
    if uri:
        from dataclasses import replace

        s = replace(s, neo4j=replace(s.neo4j, uri=uri))
    # LLM cache and sources are per test session, never the user's.
    work = tmp_path_factory.mktemp("graphwiki")
    from dataclasses import replace

    return replace(s, cache_dir=work / "llm-cache", sources_dir=work / "sources")


@pytest.fixture(scope="session")
def neo4j_server(settings: Settings):
    if os.environ.get("GRAPHWIKI_TEST_NEO4J_URI"):
        yield None
        return
    server = Neo4jServer(settings.server, log=lambda m: None)
    was_running = server.pid() is not None
    server.start()
    yield server
    if not was_running and not os.environ.get("GRAPHWIKI_TEST_KEEP_NEO4J"):
        server.stop()


@pytest.fixture(scope="session")
def _session_store(settings: Settings, neo4j_server):
    with GraphStore(settings.neo4j) as store:
        ensure_schema(store, EMBEDDING_DIM)
        yield store


@pytest.fixture
def store(_session_store: GraphStore) -> GraphStore:
    """An empty graph with the schema in place (data and GDS projections dropped)."""
    _session_store.query_batched("MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS")
    for row in _session_store.query("CALL gds.graph.list() YIELD graphName RETURN graphName"):
        _session_store.query("CALL gds.graph.drop($name, false) YIELD graphName RETURN graphName", name=row["graphName"])
    _session_store.memo.clear()
    return _session_store


@pytest.fixture(scope="session")
def embedder():
    from graphwiki_assets.core.embeddings import load_embedder

    return load_embedder("all-MiniLM-L6-v2")
