"""End to end on the real ingest pipeline: the seed corpus in, questions of every shape out.

The graph here is whatever the offline extractor made of evals/multihop/seed (no
hand-written nodes), so the expectations are about structure, not exact wording.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graphwiki_assets.core.ingest.pipeline import Ingestor, ingest_documents, records_as_documents
from graphwiki_assets.core.llm.client import build_llm
from graphwiki_assets.core.query import ask, flat_sources, refresh_projection, retrieve_sources
from graphwiki_assets.core.store.keys import name_key
from tests.support.paths import REPO_ROOT

SEED = REPO_ROOT / "evals" / "multihop" / "seed"
pytestmark = pytest.mark.slow


def _jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


@pytest.fixture(scope="module")
def corpus_graph(_session_store, embedder, settings):
    """The seed corpus ingested once for the module (the tests here only read)."""
    store = _session_store
    store.query_batched("MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS")
    llm = build_llm(settings.llm, settings.cache_dir)
    report = ingest_documents(
        Ingestor(store=store, embedder=embedder, llm=llm), records_as_documents(_jsonl(SEED / "corpus.jsonl"), "seed")
    )
    assert report.as_dict()["sources"]["new"] == 8
    refresh_projection(store)
    docs = {
        r["id"]: [p.split("/", 1)[1] for p in r["paths"]]
        for r in store.query("MATCH (s:Source) RETURN s.id AS id, coalesce(s.paths, [s.path]) AS paths")
    }
    return store, llm, docs


def _concept(store, name: str) -> str:
    rows = store.query("MATCH (c:Concept) WHERE $key IN c.keys RETURN c.id AS id", key=name_key(name))
    assert rows, f"the pipeline made no concept {name}"
    return rows[0]["id"]


def test_what_is_on_the_ingested_corpus_cites_the_document_about_it(corpus_graph, embedder):
    store, llm, docs = corpus_graph
    answer = ask(store, embedder, llm, "What is Cypher?")
    assert (answer.shape, answer.technique) == ("what_is", "n-hop traversal")
    assert answer.entities[0]["concept_id"] == _concept(store, "Cypher")
    assert "doc-cypher" in {d for s in answer.citations for d in docs[s]}


def test_related_on_the_ingested_corpus_ranks_direct_neighbours_first(corpus_graph, embedder):
    store, llm, _ = corpus_graph
    answer = ask(store, embedder, llm, "What else relates to Kubernetes?", k=40)
    assert answer.technique == "personalized pagerank"
    ranking = [r["id"] for r in answer.details["ranking"]]
    # Knowledge edges only: a stage-2 "not the same entity" verdict is no relation.
    direct = {
        r["id"]
        for r in store.query(
            "MATCH (:Concept {id: $id})-[r:RELATED_TO|PART_OF]-(n:Concept) RETURN DISTINCT n.id AS id",
            id=_concept(store, "Kubernetes"),
        )
    }
    assert len(direct) >= 2
    assert set(ranking[: len(direct)]) == direct


def test_connect_on_the_ingested_corpus_goes_through_intermediate_concepts(corpus_graph, embedder):
    store, llm, _ = corpus_graph
    answer = ask(store, embedder, llm, "How does APOC connect to Kubernetes?")
    path = [n["id"] for n in answer.details["path"]]
    assert answer.technique == "shortest path"
    assert path[0] == _concept(store, "APOC") and path[-1] == _concept(store, "Kubernetes")
    assert len(path) >= 3 and set(path[1:-1]) <= set(answer.retrieved["concepts"])
    assert answer.sentences and all(s.source_ids for s in answer.sentences)


def test_shaped_like_on_the_ingested_corpus_matches_typed_neighbourhoods(corpus_graph, embedder):
    store, llm, _ = corpus_graph
    answer = ask(store, embedder, llm, "Find something shaped like Kubernetes")
    assert answer.technique == "subgraph pattern matching"
    x = _concept(store, "Kubernetes")
    matches = answer.details["matches"]
    assert matches and x not in [m["id"] for m in matches]
    assert all(m["shared"] and m["score"] > 0 for m in matches)
    assert [m["score"] for m in matches] == sorted((m["score"] for m in matches), reverse=True)


def test_unknown_entity_on_the_ingested_corpus(corpus_graph, embedder):
    store, llm, _ = corpus_graph
    answer = ask(store, embedder, llm, "What is Zorblax?")
    assert not answer.found and answer.answer == "The graph has no information on this."


def test_graph_retrieval_finds_all_needed_documents_at_least_as_often_as_flat(corpus_graph, embedder):
    store, _, docs = corpus_graph
    questions = _jsonl(SEED / "questions.jsonl")

    def all_found(ranked, needed):
        got = {d for sid, _ in ranked for d in docs.get(sid, [])}
        return set(needed) <= got

    graph = sum(all_found(retrieve_sources(store, embedder, q["question"], 5), q["needed"]) for q in questions)
    flat = sum(all_found(flat_sources(store, embedder, q["question"], 5), q["needed"]) for q in questions)
    assert graph >= flat
    for q in questions:
        ranked = retrieve_sources(store, embedder, q["question"], 5)
        assert len({sid for sid, _ in ranked}) == 5
