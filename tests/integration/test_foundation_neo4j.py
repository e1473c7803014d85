"""The foundation: a real Neo4j with GDS, its schema, and the local launcher."""

from __future__ import annotations

import socket
import stat
import threading
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from graphwiki_assets.core.neo4j_server.server import Neo4jServer, ServerError
from graphwiki_assets.core.settings import Settings
from graphwiki_assets.core.store.driver import GraphStore, GraphUnavailable
from graphwiki_assets.core.store.schema import SchemaMismatch, ensure_schema


def test_schema_has_constraints_and_vector_indexes(store):
    ensure_schema(store, 384)  # idempotent: a second application changes nothing
    constraints = {
        r["name"]: r for r in store.query("SHOW CONSTRAINTS YIELD name, labelsOrTypes, properties, type RETURN *")
    }
    for label, name in [("Source", "source_id"), ("Concept", "concept_id"), ("Claim", "claim_id")]:
        assert constraints[name]["labelsOrTypes"] == [label]
        assert constraints[name]["properties"] == ["id"]
        assert constraints[name]["type"] == "UNIQUENESS"
    vectors = {
        r["name"]: r
        for r in store.query("SHOW VECTOR INDEXES YIELD name, labelsOrTypes, properties, options, state RETURN *")
    }
    for name, label in [("concept_embedding", "Concept"), ("claim_embedding", "Claim")]:
        assert vectors[name]["labelsOrTypes"] == [label]
        assert vectors[name]["properties"] == ["embedding"]
        assert vectors[name]["options"]["indexConfig"]["vector.dimensions"] == 384
        assert vectors[name]["state"] == "ONLINE"


def test_schema_refuses_another_embedding_dimension(store):
    with pytest.raises(SchemaMismatch):
        ensure_schema(store, 768)


def test_uniqueness_is_enforced(store):
    store.query("CREATE (:Concept {id: 'c-1', name: 'a'})")
    with pytest.raises(Exception, match="already exists"):
        store.query("CREATE (:Concept {id: 'c-1', name: 'b'})")


def test_vector_query_returns_the_nearest_stored_embedding(store, embedder):
    names = ["Neo4j graph database", "Kubernetes container orchestration", "French cooking recipes"]
    vectors = embedder.encode(names)
    store.query(
        "UNWIND $rows AS row CREATE (:Concept {id: row.id, name: row.name, embedding: row.embedding})",
        rows=[{"id": f"c-{i}", "name": n, "embedding": v.tolist()} for i, (n, v) in enumerate(zip(names, vectors))],
    )
    store.query("CALL db.awaitIndexes(60)")
    hits = store.query(
        "CALL db.index.vector.queryNodes('concept_embedding', 2, $q) YIELD node, score "
        "RETURN node.name AS name, score ORDER BY score DESC",
        q=embedder.encode_one("a database for property graphs"),
    )
    assert hits[0]["name"] == "Neo4j graph database"
    assert hits[0]["score"] > hits[1]["score"]
    assert np.isclose(np.linalg.norm(vectors[0]), 1.0, atol=1e-4)


def test_gds_runs_personalised_pagerank_through_cypher(store):
    # GDS is driven one way across the project: parameterised Cypher through the store.
    # a - b - c - d chain plus a leaf e on a: seeded at a, a's neighbours outrank the far end.
    store.query(
        "CREATE (a:Concept {id:'a'})-[:RELATED_TO]->(b:Concept {id:'b'})-[:RELATED_TO]->(c:Concept {id:'c'})"
        "-[:RELATED_TO]->(d:Concept {id:'d'}), (a)-[:RELATED_TO]->(e:Concept {id:'e'})"
    )
    store.query("CALL gds.graph.drop('pagerank-test', false) YIELD graphName RETURN graphName")
    [projected] = store.query(
        "CALL gds.graph.project('pagerank-test', 'Concept', {RELATED_TO: {orientation: 'UNDIRECTED'}}) "
        "YIELD nodeCount RETURN nodeCount"
    )
    assert projected["nodeCount"] == 5
    try:
        rows = store.query(
            "MATCH (seed:Concept {id: $seed}) "
            "CALL gds.pageRank.stream('pagerank-test', {sourceNodes: [seed]}) YIELD nodeId, score "
            "RETURN gds.util.asNode(nodeId).id AS id, score",
            seed="a",
        )
        by_id = {r["id"]: r["score"] for r in rows}
        assert by_id["b"] > by_id["c"] > by_id["d"]
        assert by_id["e"] > by_id["d"]
    finally:
        store.query("CALL gds.graph.drop('pagerank-test', false) YIELD graphName RETURN graphName")


def test_unreachable_neo4j_gives_a_clear_error():
    from graphwiki_assets.core.settings import Neo4jSettings

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    store = GraphStore(Neo4jSettings(uri=f"bolt://127.0.0.1:{port}", username="neo4j", password="x"))
    with pytest.raises(GraphUnavailable, match="graphwiki neo4j start"):
        store.query("RETURN 1")


def test_launcher_refuses_a_port_taken_by_another_process(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        port = s.getsockname()[1]
        settings = Settings.from_env({}).with_instance(tmp_path / "other", port)
        with pytest.raises(ServerError, match="already taken"):
            Neo4jServer(settings.server, log=lambda m: None).start()


def _command_lines() -> list[str]:
    lines = []
    for proc in Path("/proc").iterdir():
        try:
            lines.append((proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace"))
        except OSError:
            continue
    return lines


@pytest.mark.integration  # a Neo4j or model endpoint of its own
def test_stop_then_start_keeps_data_and_a_second_instance_is_independent(tmp_path, settings):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    second = settings.with_instance(tmp_path / "second", port)
    second = replace(
        second,
        server=replace(second.server, password='a "quoted" pass\\word'),
        neo4j=replace(second.neo4j, password='a "quoted" pass\\word'),
    )
    server = Neo4jServer(second.server, log=lambda m: None)
    seen: list[str] = []
    watching = threading.Event()

    def watch() -> None:  # what any local user could read with `ps` while the server starts
        while not watching.is_set():
            seen.extend(line for line in _command_lines() if "quoted" in line)
            time.sleep(0.02)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        try:
            server.start()
        finally:
            watching.set()
            watcher.join()
        assert seen == []  # the initial password never stood on a command line
        home = Path(second.server.home)
        for path in [
            home,
            home / "data",
            home / "logs",
            home / "data" / "dbms" / "auth.ini",
            home / "conf" / "neo4j.conf",
        ]:
            assert stat.S_IMODE(path.stat().st_mode) & 0o077 == 0, path  # the owner's only
        with GraphStore(second.neo4j) as other:
            other.query("CREATE (:Source {id: 'only-in-second'})")
        with GraphStore(settings.neo4j) as first:
            assert first.query("MATCH (s:Source {id: 'only-in-second'}) RETURN s") == []
        server.stop()
        assert not server.status().running
        server.start()
        with GraphStore(second.neo4j) as other:
            assert other.query("MATCH (s:Source {id: 'only-in-second'}) RETURN count(s) AS n")[0]["n"] == 1
        wrong = replace(second.server, password="wrong")
        status = Neo4jServer(wrong, log=lambda m: None).status()
        assert status.running and "rejects NEO4J_PASSWORD" in status.describe()
        for _ in range(4):  # past the failed-login limit, the server refuses logins for a while
            with pytest.raises(GraphUnavailable) as refused:
                GraphStore(replace(second.neo4j, password="wrong")).query("RETURN 1")
        assert "NEO4J_PASSWORD" in str(refused.value)
    finally:
        server.stop()
