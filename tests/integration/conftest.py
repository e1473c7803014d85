"""Fixtures of the tests that need a real Neo4j with GDS: the server for the whole session,
an empty graph per test, the seed graph, and the `graphwiki` command pointed at it.

The test server is its own launcher instance (own home, own Bolt port), so the user's
graph is never touched. If GRAPHWIKI_TEST_NEO4J_URI is set, that running server is used
instead (it must be disposable: tests delete everything in it).

A test is marked `integration` when it needs a service: the session's Neo4j (its fixtures
reach `neo4j_server`), a Neo4j instance of its own, the local model server (`llm`) or the
browser (`ui`). Everything else in this folder (Dagster definitions, argument checks,
guards that refuse before any connection) runs in the tier `-m "not integration"`, which
`scripts/test.sh` runs first, with no server started.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from neo4j import READ_ACCESS

from graphwiki_assets.cli.main import main
from graphwiki_assets.core.neo4j_server.server import Neo4jServer
from graphwiki_assets.core.settings import Settings
from graphwiki_assets.core.store.driver import GraphStore
from graphwiki_assets.core.store.schema import ensure_schema
from tests.support.seed_graph import build_seed_graph

EMBEDDING_DIM = 384
HERE = Path(__file__).parent


SERVICE_MARKERS = ("llm", "ui")  # a model server, a browser: never in the tier without services


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # A conftest's hook sees the whole session's items, not only this folder's.
    for item in items:
        if HERE not in item.path.parents:
            continue
        if "neo4j_server" in getattr(item, "fixturenames", ()) or any(
            item.get_closest_marker(m) for m in SERVICE_MARKERS
        ):
            item.add_marker(pytest.mark.integration)


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


def _emptied(store: GraphStore) -> GraphStore:
    store.query_batched("MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS")
    for name in _catalog(store):
        store.query("CALL gds.graph.drop($name, false) YIELD graphName RETURN graphName", name=name)
    store.memo.clear()
    return store


def _catalog(store: GraphStore) -> list[str]:
    return sorted(r["graphName"] for r in store.query("CALL gds.graph.list() YIELD graphName RETURN graphName"))


def _graph_version(store: GraphStore) -> frozenset[str]:
    """The database's last committed transaction, as a read's bookmark names it: any write
    since, by this process or another, moves it."""
    with store.driver.session(database=store.settings.database, default_access_mode=READ_ACCESS) as session:
        session.run("RETURN 1").consume()
        return frozenset(session.last_bookmarks().raw_values)


@pytest.fixture
def store(_session_store: GraphStore, request) -> GraphStore:
    """An empty graph with the schema in place (data and GDS projections dropped)."""
    if "seed_graph" in request.fixturenames:
        return _session_store  # the seed graph fixture makes the graph the test reads
    return _emptied(_session_store)


@pytest.fixture
def offline_llm(settings):
    """The configured LLM with no endpoint: the offline rules (no cache, nothing persists)."""
    from graphwiki_assets.core.llm.client import build_llm

    assert settings.llm.offline
    return build_llm(settings.llm)


@pytest.fixture(scope="session")
def _seed_built() -> dict:
    """What the graph was when the seed graph was last built: its version and GDS catalog."""
    return {}


@pytest.fixture
def seed_graph(_session_store: GraphStore, embedder, _seed_built: dict) -> GraphStore:
    """The fixture graph with its projection refreshed, as after an ingest.

    Most tests only read it, so it is built once and kept while nothing has changed: the
    database's version (any committed write moves it) and the GDS catalog are what they were
    right after the build. A test that wrote anything, or built or dropped a projection, makes
    the next one build it afresh.
    """
    from graphwiki_assets.core.query import refresh_projection

    store = _session_store
    store.memo.clear()
    if _seed_built and _seed_built == {"version": _graph_version(store), "catalog": _catalog(store)}:
        return store
    build_seed_graph(_emptied(store), embedder)
    refresh_projection(store)
    _seed_built.update(version=_graph_version(store), catalog=_catalog(store))
    return store


@pytest.fixture
def cli(settings, neo4j_server, monkeypatch, capsys, tmp_path):
    """Run `graphwiki ...` against the test graph; returns (exit code, stdout)."""
    monkeypatch.setenv("NEO4J_URI", settings.neo4j.uri)
    monkeypatch.setenv("NEO4J_PASSWORD", settings.neo4j.password)
    monkeypatch.setenv("GRAPHWIKI_HOME", str(tmp_path))
    monkeypatch.setenv("GRAPHWIKI_SOURCES_DIR", str(tmp_path / "sources"))

    def run(*argv: str) -> tuple[int, str]:
        code = main(list(argv))
        return code, capsys.readouterr().out

    return run


@pytest.fixture
def cli_env(monkeypatch, settings, neo4j_server, tmp_path):
    """The command reads the environment, as a user's shell would; point it at the test graph."""
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "NEO4J_USERNAME", "NEO4J_DATABASE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NEO4J_URI", settings.neo4j.uri)
    monkeypatch.setenv("NEO4J_PASSWORD", settings.neo4j.password)
    monkeypatch.setenv("GRAPHWIKI_HOME", str(tmp_path))


@pytest.fixture
def workspace(settings, store, embedder, offline_llm, tmp_path):
    """The service layer over the test graph, with its own home and sources folder (the
    shared store stays open: the session owns it)."""
    from dataclasses import replace

    from graphwiki_assets.core.service import Workspace

    return Workspace(replace(settings, home=tmp_path, sources_dir=tmp_path / "sources"), store, embedder, offline_llm)
