"""Node embeddings (FastRP) place a concept by its neighbourhood; the hybrid method fuses the
passages they lead to with the dense ranking."""

from __future__ import annotations

from graphwiki_assets.core.query.projection import refresh_projection
from graphwiki_assets.core.query.retrieval import RetrievalConfig, concept_seeds, retrieve_sources
from graphwiki_assets.core.query.structure import DIMENSION, refresh_structure
from tests.support.community_corpus import CHEESE, CHEESE_NAMES, SKY, SKY_NAMES
from tests.support.ingest import ingest, write_sources


def _two_topics(store, embedder, settings, tmp_path):
    ingest(store, embedder, settings, write_sources(tmp_path / "sources", {**SKY, **CHEESE}), cache=False)
    refresh_projection(store)
    return refresh_structure(store)


def test_every_projected_concept_gets_a_structure_vector_near_its_own_topic(store, embedder, settings, tmp_path):
    done = _two_topics(store, embedder, settings, tmp_path)
    concepts = store.query("MATCH (c:Concept) RETURN c.name AS name, c.structure AS v")
    assert done["written"] == len(concepts) and all(len(r["v"]) == DIMENSION for r in concepts)
    for name in ("Kessa Observatory", "Tolvar Dairy"):
        own = SKY_NAMES if name in SKY_NAMES else CHEESE_NAMES
        nearest = store.query(
            """
            MATCH (c:Concept {name: $name})
            CALL db.index.vector.queryNodes('concept_structure', 5, c.structure) YIELD node, score
            WHERE node <> c RETURN node.name AS name""",
            name=name,
        )
        named = [r["name"] for r in nearest if r["name"] in SKY_NAMES | CHEESE_NAMES]
        assert named and set(named) <= own


def test_a_second_refresh_writes_the_same_vectors(store, embedder, settings, tmp_path):
    _two_topics(store, embedder, settings, tmp_path)
    before = {r["id"]: r["v"] for r in store.query("MATCH (c:Concept) RETURN c.id AS id, c.structure AS v")}
    refresh_projection(store)
    refresh_structure(store)
    after = {r["id"]: r["v"] for r in store.query("MATCH (c:Concept) RETURN c.id AS id, c.structure AS v")}
    assert after == before


def test_the_hybrid_method_ranks_the_topic_of_the_question_first(store, embedder, settings, tmp_path):
    _two_topics(store, embedder, settings, tmp_path)
    sky = {r["id"] for r in store.query("MATCH (s:Source) WHERE s.path CONTAINS 'sky-' RETURN s.id AS id")}
    ranked = retrieve_sources(
        store, embedder, "Which comet did the director of Kessa Observatory find?", k=4, method="hybrid"
    )
    assert len(ranked) == 4 and {sid for sid, _ in ranked} <= sky
    assert [score for _, score in ranked] == sorted((score for _, score in ranked), reverse=True)


def test_a_concept_with_no_edge_is_placed_nowhere_and_hybrid_still_answers(store, embedder, settings, tmp_path):
    ingest(store, embedder, settings, write_sources(tmp_path / "sources", SKY), cache=False)
    text = "The Pellow Lens is an eyepiece ground by hand."
    store.query(
        """
        CREATE (c:Concept {id: 'c-lone', name: 'Pellow Lens', keys: ['pellow lens'], type: 'Lens',
                           status: 'current', embedding: $name})
               -[:DERIVED_FROM]->(:Source {id: 's-lone', title: 'Pellow Lens', path: 'lone.md', sha256: 'x',
                                          status: 'current', text: $text, embedding: $text_vector})""",
        name=embedder.encode_one("Pellow Lens"),
        text=text,
        text_vector=embedder.encode_one(text),
    )
    refresh_projection(store)
    refresh_structure(store)
    [lone] = store.query("MATCH (c:Concept {id: 'c-lone'}) RETURN c.structure AS v")
    assert len(lone["v"]) == DIMENSION and not any(lone["v"])  # no neighbour, no place
    question = "What is the Pellow Lens?"
    assert "c-lone" in concept_seeds(store, question, embedder.encode_one(question), RetrievalConfig())
    ranked = retrieve_sources(store, embedder, question, k=10, method="hybrid")  # no error for the lone seed
    assert len(ranked) == 5 and "s-lone" in [sid for sid, _ in ranked]  # the dense ranking still holds it
