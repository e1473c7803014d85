"""The question's shape picks the algorithm; each returns the nodes that answer it.

Routing is the configured LLM's (here its offline rules); every answer says which shape
and technique were chosen, and why.
"""

from __future__ import annotations

import pytest

from graphwiki_assets.core.query import ask

FOUR_SHAPES = [
    ("What is Cypher?", "what_is", "n-hop traversal"),
    ("What else relates to Cypher?", "related", "personalized pagerank"),
    ("How does Cypher connect to PageRank?", "connect", "shortest path"),
    ("Find something shaped like APOC", "shaped_like", "subgraph pattern matching"),
]


@pytest.mark.parametrize("question,shape,technique", FOUR_SHAPES)
def test_each_shape_routes_to_its_technique_and_says_why(seed_graph, embedder, offline_llm, question, shape, technique):
    answer = ask(seed_graph, embedder, offline_llm, question).as_dict()
    assert (answer["shape"], answer["technique"]) == (shape, technique)
    assert answer["reason"] and answer["backend"].startswith("offline")
    for key in (
        "entities",
        "answer",
        "citations",
        "flags",
        "retrieved",
        "context_tokens",
        "latency_ms",
        "corpus_tokens",
    ):
        assert key in answer
    assert answer["citations"] and answer["context_tokens"] > 0 and answer["latency_ms"] > 0


def test_what_is_gathers_the_neighbourhood_and_cites_its_sources(seed_graph, embedder, offline_llm):
    answer = ask(seed_graph, embedder, offline_llm, "What is Cypher?")
    assert answer.entities[0]["concept_id"] == "c-cypher"
    levels = answer.details["levels"]
    assert levels["c-cypher"] == 0 and levels["c-neo4j"] == levels["c-gql"] == 1
    assert levels["c-gds"] == 2  # two hops by default
    assert "cl-cypher-neo4j" in answer.retrieved["claims"]
    assert "src-cypher" in answer.citations


def test_what_is_fan_out_is_bounded_so_a_hub_cannot_flood_the_context(seed_graph, embedder, offline_llm):
    answer = ask(seed_graph, embedder, offline_llm, "What is Neo4j?", fanout=3, hops=1)
    levels = answer.details["levels"]
    assert sum(1 for hop in levels.values() if hop == 1) == 3  # Neo4j has 7 neighbours
    assert answer.details["capped"] == ["c-neo4j"]
    wide = ask(seed_graph, embedder, offline_llm, "What is Neo4j?", hops=1)
    assert sum(1 for hop in wide.details["levels"].values() if hop == 1) == 7


def test_related_ranks_by_personalised_pagerank(seed_graph, embedder, offline_llm):
    answer = ask(seed_graph, embedder, offline_llm, "What else relates to Cypher?")
    ranking = [r["id"] for r in answer.details["ranking"]]
    assert set(ranking[:2]) == {"c-neo4j", "c-gql"}  # Cypher's only direct neighbours
    assert "c-cypher" not in ranking


def test_connect_explains_an_indirect_link_through_the_intermediate_concepts(seed_graph, embedder, offline_llm):
    answer = ask(seed_graph, embedder, offline_llm, "How does Cypher connect to PageRank?")
    path = [n["id"] for n in answer.details["path"]]
    assert path == ["c-cypher", "c-neo4j", "c-gds", "c-pagerank"]
    assert answer.details["through"] == "concepts"
    # the claims of each hop are the explanation, and they are cited
    assert {"cl-cypher-neo4j", "cl-gds-neo4j", "cl-gds-pagerank"} <= set(answer.retrieved["claims"])
    cited = {f for s in answer.sentences for f in s.fact_ids}
    assert {"cl-cypher-neo4j", "cl-gds-pagerank"} <= cited
    assert "Neo4j -> Neo4j Graph Data Science" in answer.reason


def test_shaped_like_finds_the_concept_with_the_same_typed_neighbourhood(seed_graph, embedder, offline_llm):
    answer = ask(seed_graph, embedder, offline_llm, "Find something shaped like APOC")
    matches = answer.details["matches"]
    assert matches[0]["id"] == "c-gds"  # a Library tied to a Database and a Programming Language
    assert set(matches[0]["shared"]) == {"related:Database", "related:Programming Language"}
    assert [m["id"] for m in matches][1:] == ["c-pandas"]  # a weaker match, ranked lower
    assert matches[0]["score"] > matches[1]["score"]


def test_compare_lists_what_two_entities_share_and_where_they_differ(seed_graph, embedder, offline_llm):
    answer = ask(seed_graph, embedder, offline_llm, "Compare APOC and Neo4j Graph Data Science")
    assert answer.shape == "compare"
    assert answer.details["shared"] and set(answer.details["shared"]) <= {"c-neo4j", "c-java", "c-python"}
    assert "c-neo4j" in answer.details["shared"]
    assert "c-neo4j-inc" in answer.details["only_first"] and "c-pagerank" in answer.details["only_second"]


def test_topic_lists_every_concept_of_a_type(seed_graph, embedder, offline_llm):
    answer = ask(seed_graph, embedder, offline_llm, "List all libraries")
    assert (answer.shape, answer.technique) == ("topic", "topic by type")
    assert set(answer.details["members"]) == {"c-gds", "c-apoc", "c-pandas"}
    assert {"src-gds", "src-apoc", "src-pandas"} <= set(answer.citations)


def test_a_list_of_a_type_no_concept_has_is_answered_as_the_thing_of_that_name(seed_graph, embedder, offline_llm):
    # "What are attestations?" read as a type: the graph has no such type, but a concept of that name
    answer = ask(seed_graph, embedder, offline_llm, "Tell me about them", shape="topic", type_filter="APOC")
    assert answer.shape == "what_is" and "no concept type is 'APOC'" in answer.reason
    assert "c-apoc" in answer.retrieved["concepts"] and "src-apoc" in answer.citations


def test_a_list_of_a_word_only_an_extractor_used_as_a_type_is_the_thing_of_that_name(seed_graph, embedder, offline_llm):
    # "in-toto attestations like SLSA" gave one concept the word "Attestation": "What are
    # attestations?" still asks about the concept named so, not for a list of that type
    seed_graph.query("MATCH (c:Concept {id: 'c-gds'}) SET c.extracted_type = 'PageRank'")
    answer = ask(seed_graph, embedder, offline_llm, "Tell me about them", shape="topic", type_filter="PageRank")
    assert answer.shape == "what_is" and "c-pagerank" in answer.retrieved["concepts"]
    # a type of the taxonomy is still a list
    listed = ask(seed_graph, embedder, offline_llm, "Tell me about them", shape="topic", type_filter="Library")
    assert listed.shape == "topic"


def test_provenance_traces_a_claim_to_its_source_with_sha256(seed_graph, embedder, offline_llm):
    answer = ask(seed_graph, embedder, offline_llm, "Where does the claim that Bolt listens on port 7687 come from?")
    assert (answer.shape, answer.technique) == ("provenance", "source traceability (SHA256)")
    assert answer.retrieved["claims"] == ["cl-bolt-port"]
    source = next(s for s in answer.sources if s["id"] == "src-bolt")
    stored = seed_graph.query("MATCH (s:Source {id: 'src-bolt'}) RETURN s.sha256 AS sha")[0]["sha"]
    assert source["sha256"] == stored and source["path"] == "docs/bolt.md"


def test_provenance_reports_a_file_changed_on_disk_since_ingest(seed_graph, embedder, offline_llm, tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "bolt.md").write_text("Bolt listens on port 9999 now.")
    answer = ask(
        seed_graph,
        embedder,
        offline_llm,
        "Where does the claim that Bolt listens on port 7687 come from?",
        sources_dirs=[tmp_path],
    )
    assert answer.details["sources"] == [
        {"id": "src-bolt", "file": str(tmp_path / "docs" / "bolt.md"), "verified": False}
    ]
    assert any("changed on disk" in f for f in answer.flags)


def test_a_caller_can_force_the_shape(seed_graph, embedder):
    answer = ask(seed_graph, embedder, None, "Cypher?", shape="related", entities=["Cypher"])
    assert answer.technique == "personalized pagerank" and answer.reason.startswith("shape given by the caller")
    assert answer.backend.endswith("extractive (no LLM client)")
