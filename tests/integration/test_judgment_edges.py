"""A stage-2 verdict is not a fact. The ingest records "judged not the same" as a
NOT_SAME_AS edge beside its :Judgment, and no retrieval technique follows it: every
answer is the same with all verdict edges deleted. Graphs of the old schema (one
RELATES_TO type with a ``kind``) are upgraded in place, once."""

from __future__ import annotations

import pytest

from graphwiki_assets.core.query import ask
from graphwiki_assets.core.query.retrieval import GRAPH_METHODS, retrieve_sources
from graphwiki_assets.core.query.upkeep import refresh_query_state
from graphwiki_assets.core.store.migrations import migrate
from graphwiki_assets.core.store.schema import ensure_schema
from tests.support.ingest import ingest, write_sources

# An invented stream engine, its platform, job language and state store, and the lab that
# built them: similar enough that stage 1 puts many pairs before the judge.
NOTES = {
    "quillmere.md": "# Quillmere Institute\n\nThe Quillmere Institute is a research lab in Port Absalom. "
    "The Quillmere Institute created the Brackwater engine in 2019. "
    "The Quillmere Institute also runs the Fernhollow Observatory.",
    "brackwater.md": "# Brackwater\n\nBrackwater is a stream processing engine. Brackwater is part of the "
    "Lanternfield platform. Brackwater keeps its state in the Siltbox store.",
    "lanternfield.md": "# Lanternfield\n\nLanternfield is a data platform for stream processing. Jobs on "
    "Lanternfield are written in Murkscript. Murkscript is a declarative job language.",
    "siltbox.md": "# Siltbox\n\nSiltbox is a key-value state store for stream processing engines. Siltbox was "
    "designed at the Fernhollow Observatory. Siltbox stores state in Brackwater checkpoints.",
}

QUESTIONS = [
    "What is Brackwater?",
    "What else relates to Murkscript?",
    "How does the Quillmere Institute connect to Murkscript?",
    "Find something shaped like Siltbox",
]


@pytest.fixture
def notes_graph(store, embedder, settings, tmp_path):
    ingest(store, embedder, settings, write_sources(tmp_path / "notes", NOTES), cache=False)
    refresh_query_state(store)
    return store


def _answers(store, embedder, llm) -> dict:
    out = {}
    for question in QUESTIONS:
        answer = ask(store, embedder, llm, question)
        out[question] = (answer.technique, answer.retrieved, answer.citations)
    for method in GRAPH_METHODS:
        out[method] = retrieve_sources(
            store, embedder, "Which language are Brackwater's jobs written in?", 3, method=method
        )
    return out


def test_ingest_writes_verdicts_as_their_own_relationship_type(notes_graph):
    types = {r["t"]: r["n"] for r in notes_graph.query("MATCH ()-[r]->() RETURN type(r) AS t, count(r) AS n")}
    assert types.get("NOT_SAME_AS", 0) > 0 and types.get("ABOUT", 0) > 0 and types.get("RELATED_TO", 0) > 0
    assert "RELATES_TO" not in types
    # each verdict edge points at the judgment that made it
    assert (
        notes_graph.query("""
        MATCH (a)-[r:NOT_SAME_AS]->(b)
        WHERE NOT EXISTS { MATCH (j:Judgment {id: r.judgment_id}) WHERE j.verdict IN ['RELATED', 'DIFFERENT'] }
        RETURN count(r) AS n""")[0]["n"]
        == 0
    )


def test_no_technique_answers_through_a_verdict_edge(notes_graph, embedder, offline_llm):
    ingested = _answers(notes_graph, embedder, offline_llm)
    assert {technique for technique, _, _ in list(ingested.values())[:4]} == {
        "n-hop traversal",
        "personalized pagerank",
        "shortest path",
        "subgraph pattern matching",
    }
    # without any verdict edge
    assert notes_graph.query("MATCH ()-[r:NOT_SAME_AS]->() DELETE r RETURN count(r) AS n")[0]["n"] > 0
    refresh_query_state(notes_graph)
    assert _answers(notes_graph, embedder, offline_llm) == ingested
    # with one between every two concepts, as a judge shown every pair would leave: each is
    # a one-edge shortcut (the lab straight to the job language) that no answer may take
    notes_graph.query("""
        MATCH (a:Concept), (b:Concept) WHERE a.id < b.id
        CREATE (a)-[:NOT_SAME_AS {judgment_id: 'planted'}]->(b)""")
    refresh_query_state(notes_graph)
    assert _answers(notes_graph, embedder, offline_llm) == ingested


def test_the_projection_holds_knowledge_edges_only(notes_graph):
    from graphwiki_assets.core.query.projection import projection_status

    status = projection_status(notes_graph)
    assert status.exists and not status.stale
    assert set(status.types) == {"ABOUT", "RELATED_TO", "DERIVED_FROM"} | ({"PART_OF"} & set(status.types))


OLD_GRAPH = """
CREATE (s:Source {id: 's1', path: 'a.md', title: 'a', text: 'x', status: 'current'})
CREATE (a:Concept {id: 'a', name: 'A', type: 'Concept', status: 'current', shape_at: datetime()})
CREATE (b:Concept {id: 'b', name: 'B', type: 'Concept', status: 'current', shape_at: datetime()})
CREATE (c:Concept {id: 'c', name: 'C', type: 'Concept', status: 'current'})
CREATE (cl:Claim {id: 'cl1', text: 'A uses B.', status: 'current'})
CREATE (a)-[:DERIVED_FROM]->(s), (b)-[:DERIVED_FROM]->(s), (cl)-[:DERIVED_FROM]->(s)
CREATE (cl)-[:RELATES_TO {kind: 'about', created_at: 1}]->(a), (cl)-[:RELATES_TO {kind: 'about'}]->(b)
CREATE (a)-[:RELATES_TO {kind: 'association', claims: ['cl1'], weight: 1}]->(b)
CREATE (a)-[:RELATES_TO {kind: 'not_same_as', judgment_id: 'j1'}]->(c)
CREATE (b)-[:RELATES_TO {kind: 'mystery'}]->(c)
"""


def test_an_old_graph_is_upgraded_in_place_once(store, embedder):
    store.query(OLD_GRAPH)
    ensure_schema(store, embedder.dimension)  # what every writer does at start-up
    edges = sorted(
        ((r["a"], r["t"], r["b"]), r["props"])
        for r in store.query(
            "MATCH (a)-[r]->(b) WHERE type(r) <> 'DERIVED_FROM' RETURN a.id AS a, type(r) AS t, b.id AS b, "
            "properties(r) AS props"
        )
    )
    assert edges == [
        (("a", "NOT_SAME_AS", "c"), {"judgment_id": "j1"}),
        (("a", "RELATED_TO", "b"), {"claims": ["cl1"], "weight": 1}),
        (("b", "RELATES_TO", "c"), {"kind": "mystery"}),  # unknown: left for the lint to report
        (("cl1", "ABOUT", "a"), {"created_at": 1}),
        (("cl1", "ABOUT", "b"), {}),
    ]
    # signatures that name the old relation are recomputed
    assert store.query("MATCH (c:Concept) WHERE c.shape_at IS NOT NULL RETURN count(c) AS n")[0]["n"] == 0
    assert not migrate(store).changed  # a second start changes nothing
