"""The GDS Python client over the store's driver: built from the store's own driver (no
second driver, no credentials of its own), the projections' lifetime through it, Leiden and
FastRP giving what the procedures give when called directly, PageRank the same either way,
and a server gone away reported as the store reports it."""

from __future__ import annotations

import time
from dataclasses import replace
from urllib.parse import urlparse

import neo4j
import pytest
from neo4j.exceptions import ClientError

from graphwiki_assets.core.communities.detect import CommunityConfig, leiden
from graphwiki_assets.core.evals.generator import generate
from graphwiki_assets.core.query import ask, cypher
from graphwiki_assets.core.query.ppr import rank_related
from graphwiki_assets.core.query.projection import (
    concept_layer,
    current_projection,
    projection_status,
    refresh_projection,
    with_projection,
)
from graphwiki_assets.core.query.structure import refresh_structure
from graphwiki_assets.core.store.driver import GraphStore, GraphUnavailable
from graphwiki_assets.core.store.gds_client import drop_graphs, gds, store_gds
from tests.support.relay import Relay


@pytest.fixture
def generated(store, embedder):
    """A generated graph of a few hundred concepts with its projection, as after an ingest."""
    generate(store, 300, embedder.dimension, seed=3, replace=True)
    refresh_projection(store)
    return store


def _catalog(store: GraphStore) -> set[str]:
    return {g.graph_name for g in gds(store).graph.list()}


def test_the_client_runs_on_the_stores_own_driver_and_opens_no_other(settings, store, monkeypatch):
    with GraphStore(settings.neo4j) as own:
        driver = own.driver

        def refuse(*args, **kwargs):
            raise AssertionError("a second driver was opened")

        monkeypatch.setattr(neo4j.GraphDatabase, "driver", refuse)
        built = store_gds(own)
        assert built.runner.db_driver() is driver
        assert store_gds(own) is built  # built once per store
        assert built.runner.get_auth() is None  # it holds no credentials
        own.query("CREATE (:Concept {id: 'c1', name: 'one'})-[:RELATED_TO {weight: 1.0}]->(:Concept {id: 'c2'})")
        status = refresh_projection(own)
        assert status.exists and not status.stale
    assert own.gds_client is None  # closing the store lets go of the client with the driver


def test_a_refresh_builds_a_new_projection_and_drops_every_older_build(seed_graph):
    first = current_projection(seed_graph)
    assert first is not None
    status = refresh_projection(seed_graph)
    newest = current_projection(seed_graph)
    assert newest is not None and newest["name"] != first["name"] and newest["name"] == status.name
    layers = {n for n in _catalog(seed_graph) if n.startswith(concept_layer())}
    assert _catalog(seed_graph) == {newest["name"], *layers} and len(layers) == 1
    assert not gds(seed_graph).graph.exists(first["name"])
    expected = seed_graph.query(cypher.PROJECTABLE_COUNTS)[0]
    assert (status.nodes, status.relationships) == (expected["nodes"], expected["relationships"])
    assert (
        {"ABOUT", "DERIVED_FROM", "RELATED_TO"}
        <= set(newest["types"])
        <= {
            "ABOUT",
            "DERIVED_FROM",
            "PART_OF",
            "RELATED_TO",
        }
    )


def test_an_empty_graph_refreshes_to_no_projection_without_an_error(store):
    status = refresh_projection(store)
    assert not status.exists and status.graph_nodes == 0
    assert current_projection(store) is None


def test_a_question_reads_the_same_catalog_as_the_client(seed_graph):
    with seed_graph.reading() as reader:
        in_question = current_projection(reader)
    assert in_question == current_projection(seed_graph)


def test_work_on_a_build_dropped_meanwhile_runs_again_on_the_newer_one(seed_graph):
    tried: list[str] = []

    def work(projection: dict) -> str:
        tried.append(projection["name"])
        if len(tried) == 1:
            refresh_projection(seed_graph)  # an ingest's refresh drops the build this work holds
        seed_graph.query(
            "CALL gds.pageRank.stream($g, {maxIterations: 2}) YIELD nodeId RETURN count(*) AS n", g=projection["name"]
        )
        return projection["name"]

    done = with_projection(seed_graph, work)
    assert len(tried) == 2 and tried[0] != tried[1] and done == tried[1]


def test_dropping_the_catalog_through_the_client(seed_graph):
    refresh_projection(seed_graph, prefix="other")
    assert drop_graphs(seed_graph, prefix="other") == 2  # the build and its concept layer
    assert not any(n.startswith("other") for n in _catalog(seed_graph))
    assert drop_graphs(seed_graph) == 2
    assert _catalog(seed_graph) == set() and projection_status(seed_graph).exists is False


def test_leiden_through_the_client_is_the_procedures_own_partition(generated):
    config = CommunityConfig()
    layer = current_projection(generated, concept_layer())
    assert layer is not None
    direct = generated.query(
        "CALL gds.leiden.stream($layer, {relationshipWeightProperty: 'weight', includeIntermediateCommunities: true, "
        "randomSeed: $seed, concurrency: 1, maxLevels: $levels, gamma: $gamma}) "
        "YIELD nodeId, intermediateCommunityIds "
        "RETURN gds.util.asNode(nodeId).id AS id, intermediateCommunityIds AS levels",
        layer=layer["name"],
        seed=config.seed,
        levels=config.max_levels,
        gamma=config.gamma,
    )
    rows = leiden(generated, layer["name"], config)
    assert len(rows) == len(direct) >= 300
    assert {r["id"]: r["levels"] for r in rows} == {r["id"]: r["levels"] for r in direct}
    assert len({tuple(r["levels"]) for r in rows}) > 1  # more than one community: a partition to compare
    assert rows == leiden(generated, layer["name"], config)  # the seed makes it repeatable


def test_fastrp_through_the_client_writes_the_procedures_own_vectors(generated):
    written = refresh_structure(generated)
    layer = current_projection(generated, concept_layer())
    assert layer is not None and written["written"] == layer["nodes"]
    direct = generated.query(
        "CALL gds.fastRP.stream($layer, {embeddingDimension: 128, iterationWeights: [0.0, 1.0, 1.0], "
        "relationshipWeightProperty: 'weight', randomSeed: 19, concurrency: 1}) YIELD nodeId, embedding "
        "RETURN gds.util.asNode(nodeId).id AS id, embedding",
        layer=layer["name"],
    )
    stored = {r["id"]: r["v"] for r in generated.query("MATCH (c:Concept) RETURN c.id AS id, c.structure AS v")}
    assert len(direct) == written["written"]
    for row in direct:
        assert stored[row["id"]] == pytest.approx(row["embedding"], abs=1e-6)


def test_pagerank_ranks_the_same_through_cypher_and_the_client(generated):
    seeds = [r["id"] for r in generated.query("MATCH (c:Concept)-[:RELATED_TO]-() RETURN DISTINCT c.id AS id LIMIT 5")]
    for seed in seeds:
        with generated.reading() as reader:
            by_cypher, newer_c = rank_related(reader, [seed], 8, 0.5, via="cypher")
            by_client, newer_g = rank_related(reader, [seed], 8, 0.5, via="client")
        assert by_cypher, seed
        assert [s for _, s in by_client] == pytest.approx([s for _, s in by_cypher])
        # the same concepts, but for which of several equal scores at the cut makes the top k
        cut = by_cypher[-1][1]
        differ = {cid for cid, _ in by_client} ^ {cid for cid, _ in by_cypher}
        scores = dict(by_client) | dict(by_cypher)
        assert all(scores[cid] == pytest.approx(cut) for cid in differ)
        assert newer_c == newer_g == []


def test_a_related_question_answers_alike_either_way(seed_graph, embedder, offline_llm):
    asked = {
        via: ask(seed_graph, embedder, offline_llm, "What else relates to Cypher?", shape="related", ppr_via=via)
        for via in ("cypher", "client")
    }
    assert asked["cypher"].found and asked["cypher"].technique == "personalized pagerank"
    assert asked["client"].retrieved == asked["cypher"].retrieved
    assert asked["client"].details["ranking"] == asked["cypher"].details["ranking"]
    assert asked["client"].answer == asked["cypher"].answer


def test_an_unreachable_server_is_the_stores_clear_error_not_a_wait(settings):
    with socket_free_port() as port:
        store = GraphStore(replace(settings.neo4j, uri=f"bolt://127.0.0.1:{port}"))
    with pytest.raises(GraphUnavailable, match="graphwiki neo4j start"):
        store_gds(store)


def test_a_server_gone_away_mid_run_is_the_stores_clear_error_at_once(settings, store):
    target = urlparse(settings.neo4j.uri)
    relay = Relay(target.hostname or "127.0.0.1", target.port or 7687)
    with GraphStore(replace(settings.neo4j, uri=f"bolt://127.0.0.1:{relay.port}")) as through:
        assert drop_graphs(through) == 0  # the client works through the relay
        relay.cut()
        started = time.monotonic()
        with pytest.raises(GraphUnavailable, match="lost the connection to Neo4j"):
            drop_graphs(through)
        assert time.monotonic() - started < 60  # the client's own default retries for ten minutes


def test_a_missing_graph_is_the_servers_own_error(store):
    from graphwiki_assets.core.store.gds_client import calls, graph

    with pytest.raises(ClientError, match="does not exist"), calls(store):
        gds(store).page_rank.stream(graph(store, "no-such-graph"))


class socket_free_port:
    """A port nothing listens on while the block runs."""

    def __enter__(self) -> int:
        import socket

        self._sock = socket.socket()
        self._sock.bind(("127.0.0.1", 0))
        return self._sock.getsockname()[1]

    def __exit__(self, *exc) -> None:
        self._sock.close()
