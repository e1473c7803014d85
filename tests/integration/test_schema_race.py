"""Two writers on an empty graph: both create the schema at once and both ingest. Before,
the later of two ``CREATE ... IF NOT EXISTS`` for one rule failed with
EquivalentSchemaRuleAlreadyExists and its ingest died having written nothing."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from graphwiki_assets.core.store.schema import ensure_schema
from tests.integration.conftest import EMBEDDING_DIM
from tests.support.ingest import SMOKE_TEXTS, write_sources


@pytest.fixture
def empty_database(store):
    """No data and no schema at all, as a fresh server has; the schema is put back after."""
    for row in store.query("SHOW CONSTRAINTS YIELD name RETURN name"):
        store.query(f"DROP CONSTRAINT `{row['name']}`")  # names read from the server, not input
    for row in store.query("SHOW INDEXES YIELD name, type WHERE type <> 'LOOKUP' RETURN name"):
        store.query(f"DROP INDEX `{row['name']}`")
    yield store
    ensure_schema(store, EMBEDDING_DIM)


def test_two_ingests_started_at_once_on_an_empty_graph_both_succeed(empty_database, settings, tmp_path):
    names = sorted(SMOKE_TEXTS)
    folders = [tmp_path / "a", tmp_path / "b"]
    write_sources(folders[0], {n: SMOKE_TEXTS[n] for n in names[:2]})
    write_sources(folders[1], {n: SMOKE_TEXTS[n] for n in names[2:]})
    env = {
        **os.environ,
        "NEO4J_URI": settings.neo4j.uri,
        "NEO4J_PASSWORD": settings.neo4j.password,
        "GRAPHWIKI_HOME": str(tmp_path / "home"),
        "GRAPHWIKI_CACHE_DIR": str(tmp_path / "cache"),
    }
    cli = [sys.executable, "-m", "graphwiki_assets.cli.main", "ingest", "--json"]
    procs = [
        subprocess.Popen(cli + [str(f)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for f in folders
    ]
    errors = [p.communicate(timeout=600)[1] for p in procs]

    assert [p.returncode for p in procs] == [0, 0], [e[-1500:] for e in errors]
    assert empty_database.query("MATCH (s:Source) RETURN count(s) AS n")[0]["n"] == 3


def test_schema_created_by_several_processes_at_once_ends_complete(empty_database, settings):
    """Eight processes doing nothing but ensure_schema: the race window is hit far more often."""
    code = (
        "from graphwiki_assets.core.settings import Settings\n"
        "from graphwiki_assets.core.store.driver import GraphStore\n"
        "from graphwiki_assets.core.store.schema import ensure_schema\n"
        f"with GraphStore(Settings.from_env().neo4j) as s: ensure_schema(s, {EMBEDDING_DIM})\n"
    )
    env = {**os.environ, "NEO4J_URI": settings.neo4j.uri, "NEO4J_PASSWORD": settings.neo4j.password}
    procs = [
        subprocess.Popen([sys.executable, "-c", code], env=env, stderr=subprocess.PIPE, text=True) for _ in range(8)
    ]
    errors = [p.communicate(timeout=300)[1] for p in procs]

    assert [p.returncode for p in procs] == [0] * 8, [e[-800:] for e in errors if e]
    names = {r["name"] for r in empty_database.query("SHOW INDEXES YIELD name RETURN name")}
    assert {"source_text", "concept_embedding", "claim_embedding"} <= names
