"""How a question reads the graph: one read transaction, indexed lookups, bounded loads."""

from __future__ import annotations

import random

import pytest
from neo4j import GraphDatabase
from neo4j.exceptions import ClientError

from graphwiki_assets.core.query import ask, cypher, subgraph
from graphwiki_assets.core.query.answer import estimate_tokens
from graphwiki_assets.core.query.linking import link_entities, link_question
from graphwiki_assets.core.query.models import Retrieval
from graphwiki_assets.core.query.subgraph import SUMMARY_SOURCES
from graphwiki_assets.core.store.keys import keys_for


def _concepts(store, *rows: tuple[str, str, list[str], str]) -> None:
    store.query(
        """
        UNWIND $rows AS r
        CREATE (:Concept {id: r.id, name: r.name, aliases: r.aliases, keys: r.keys, type: 'Concept',
                          status: r.status, source_count: 1})""",
        rows=[
            {"id": cid, "name": name, "aliases": aliases, "keys": keys_for(name, aliases), "status": status}
            for cid, name, aliases, status in rows
        ],
    )


def test_a_reader_runs_its_queries_in_one_transaction_and_survives_a_failed_one(store):
    store.query("CREATE (:Concept {id: 'c-1', name: 'Marrowfen', status: 'current'})")
    with store.reading() as reads:
        seen = reads.query("MATCH (c:Concept) RETURN c.name AS name")
        with pytest.raises(ClientError):
            reads.query("CALL gds.pageRank.stream('no-such-graph', {}) YIELD nodeId RETURN nodeId")
        # the failure ended that transaction; the next query opens a new one
        again = reads.query("MATCH (c:Concept) RETURN c.name AS name")
    assert seen == again == [{"name": "Marrowfen"}]


def test_a_reader_sees_what_was_committed_before_each_of_its_queries(store):
    with store.reading() as reads:
        assert reads.query("MATCH (c:Concept) RETURN count(c) AS n")[0]["n"] == 0
        store.query("CREATE (:Concept {id: 'c-2', name: 'Quillmere', status: 'current'})")
        assert reads.query("MATCH (c:Concept) RETURN count(c) AS n")[0]["n"] == 1


def test_a_reader_reads_on_after_the_server_drops_its_connection(store):
    store.query("CREATE (:Concept {id: 'c-3', name: 'Ashgrove', status: 'current'})")
    settings = store.settings
    killer = GraphDatabase.driver(
        settings.uri, auth=(settings.username, settings.password), user_agent="graphwiki-test-killer"
    )
    try:
        with store.reading() as reads:
            assert reads.query("MATCH (c:Concept) RETURN c.name AS name") == [{"name": "Ashgrove"}]
            # the server drops every other connection, the reader's open transaction's among them
            killer.execute_query(
                "CALL dbms.listConnections() YIELD connectionId, userAgent "
                "WHERE userAgent <> 'graphwiki-test-killer' "
                "WITH collect(connectionId) AS ids CALL dbms.killConnections(ids) YIELD connectionId "
                "RETURN count(*) AS killed"
            )
            assert reads.query("MATCH (c:Concept) RETURN c.name AS name") == [{"name": "Ashgrove"}]
    finally:
        killer.close()


def test_entities_link_through_the_key_index_by_name_alias_and_spacing(store, embedder):
    _concepts(
        store,
        ("c-graphrag", "GraphRAG", [], "current"),
        ("c-vault", "Sable Vault", ["the Vault of Sable"], "current"),
        ("c-vault-museum", "Sable Vault Museum", [], "current"),
        ("c-old", "Tarnwick", [], "superseded"),
    )
    linking = link_entities(store, embedder, ["Graph RAG", "vault of sable", "Sable Vault", "Tarnwick"])
    by_mention = {link.mention: link.concept_id for link in linking.links if link.match == "exact"}
    assert by_mention["Graph RAG"] == "c-graphrag"  # the same key once its spaces are gone
    assert by_mention["vault of sable"] == "c-vault"  # an alias
    assert by_mention["Sable Vault"] == "c-vault"  # not the longer name that contains it
    assert "Tarnwick" not in by_mention  # a superseded concept is not an answer


def test_a_name_written_as_one_word_finds_the_concept_spelled_in_two(store, embedder):
    _concepts(store, ("c-orbit", "Orbit Lab", [], "current"))
    assert [link.concept_id for link in link_entities(store, embedder, ["OrbitLab"]).links] == ["c-orbit"]


def test_question_spans_link_to_concepts_named_exactly(store):
    _concepts(
        store,
        ("c-vault", "Sable Vault", [], "current"),
        ("c-river", "Ombre River", [], "current"),
        ("c-sable", "Sable", [], "current"),
    )
    links = link_question(store, "How does the Sable Vault connect to the Ombre River?")
    assert [link.concept_id for link in links] == ["c-vault", "c-river"]  # the longest span wins over "Sable"


def test_a_hub_summary_cites_its_newest_current_sources_not_all_of_them(store):
    total = SUMMARY_SOURCES + 5
    store.query(
        """
        CREATE (c:Concept {id: 'c-hub', name: 'Hub', type: 'Concept', status: 'current', summary: 'A hub.'})
        WITH c
        UNWIND range(1, $total) AS i
        CREATE (c)-[:DERIVED_FROM]->(:Source {id: 's-' + toString(i), title: 'S', path: 'p', sha256: 'x',
                status: CASE WHEN i = $total THEN 'superseded' ELSE 'current' END,
                ingested_at: datetime('2026-01-01') + duration({days: i})})""",
        total=total,
    )
    sub = subgraph.load(store, Retrieval(technique="t", concepts=["c-hub"], summaries=["c-hub"]), stale_days=3650)
    hub = sub.concepts["c-hub"]
    newest_current = [f"s-{i}" for i in range(total - 1, total - 1 - SUMMARY_SOURCES, -1)]
    assert hub.sources == newest_current and hub.source_total == total
    assert set(sub.sources) == set(newest_current)

    # Walked past, not summarised: its name and status are read, its sources are not.
    passed = subgraph.load(store, Retrieval(technique="t", concepts=["c-hub"]), stale_days=3650)
    assert passed.concepts["c-hub"].name == "Hub" and passed.concepts["c-hub"].source_total == total
    assert passed.concepts["c-hub"].sources == [] and passed.sources == {}


def test_only_the_claims_an_answer_can_show_are_read_with_their_opponents(store):
    store.query("""
        CREATE (s:Source {id: 's-1', title: 'S', path: 'p', sha256: 'x', status: 'current'})
        WITH s
        UNWIND range(1, 6) AS i
        CREATE (:Claim {id: 'cl-' + toString(i), text: 'Claim ' + toString(i), status: 'current'})-[:DERIVED_FROM]->(s)""")
    store.query("MATCH (a:Claim {id: 'cl-2'}), (b:Claim {id: 'cl-6'}) CREATE (a)-[:CONTRADICTS]->(b)")
    ranked = Retrieval(technique="t", claims=[f"cl-{i}" for i in range(1, 7)])
    sub = subgraph.load(store, ranked, stale_days=3650, max_claims=3)
    # the first three ranked, and the claim disputing one of them, which is never shown alone
    assert set(sub.claims) == {"cl-1", "cl-2", "cl-3", "cl-6"}
    assert set(subgraph.load(store, ranked, stale_days=3650).claims) == {f"cl-{i}" for i in range(1, 7)}


def test_the_corpus_size_in_an_answer_follows_new_sources(store, embedder, offline_llm):
    store.query(
        "CREATE (:Source {id: 's-a', title: 'A', path: 'a.md', sha256: 'a', status: 'current', text: $t})", t="x" * 400
    )
    first = ask(store, embedder, offline_llm, "What is Nothing-here?", shape="what_is", entities=["Nothing-here"])
    store.query(
        "CREATE (:Source {id: 's-b', title: 'B', path: 'b.md', sha256: 'b', status: 'current', text: $t})", t="y" * 800
    )
    second = ask(store, embedder, offline_llm, "What is Nothing-here?", shape="what_is", entities=["Nothing-here"])
    assert (first.corpus_tokens, second.corpus_tokens) == (estimate_tokens(400), estimate_tokens(1200))


def test_a_hub_hop_picks_by_edge_weight_then_relevance_exactly_as_scoring_every_neighbour(store):
    """Only neighbours at or above the fanout-th strongest edge are scored against the
    question; the picks must be those of ranking every neighbour, ties included."""
    rng = random.Random(7)
    dim = 8

    def unit() -> list[float]:
        v = [rng.gauss(0, 1) for _ in range(dim)]
        norm = sum(x * x for x in v) ** 0.5
        return [x / norm for x in v]

    # A hub with 60 neighbours whose edges weigh 1 to 4, many tied, one neighbour unembedded.
    neighbours = [
        {"id": f"n-{i:02d}", "weight": rng.choice([1, 1, 1, 2, 2, 3, 4]), "embedding": None if i == 5 else unit()}
        for i in range(60)
    ]
    store.query(
        """
        CREATE (h:Concept {id: 'hub', name: 'Hub', status: 'current'})
        WITH h UNWIND $rows AS r
        CREATE (n:Concept {id: r.id, name: r.id, status: 'current'})
        SET n.embedding = r.embedding
        CREATE (h)-[:RELATED_TO {weight: r.weight}]->(n)""",
        rows=neighbours,
    )
    question = unit()

    def relevance(n) -> float:  # Neo4j's cosine similarity lies in [0, 1]; no embedding scores 0
        return 0.0 if n["embedding"] is None else (1 + sum(a * b for a, b in zip(n["embedding"], question))) / 2

    for fanout in (1, 3, 8, 20, 60, 80):
        ranked = sorted(neighbours, key=lambda n: (-n["weight"], -relevance(n), n["id"]))
        with store.reading() as reads:
            rows = reads.query(cypher.TRAVERSAL_HOP, frontier=["hub"], seen=["hub"], fanout=fanout, question=question)
        assert [r["id"] for r in rows] == [n["id"] for n in ranked[:fanout]], fanout
        assert {r["degree"] for r in rows} == {60}
