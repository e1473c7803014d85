"""The answer: only retrieved facts, every sentence cited, status carried inline, no fabrication."""

from __future__ import annotations

import re
import socket

from graphwiki_assets.core.llm.calls import AnswerSentence, Fact
from graphwiki_assets.core.llm.client import build_llm
from graphwiki_assets.core.query import ask
from graphwiki_assets.core.query.answer import Facts, estimate_tokens, render
from graphwiki_assets.core.settings import LLMSettings
from tests.support.closest import assert_answered_about_closest


def _sentence_with(answer, fact_id):
    return next(s for s in answer.sentences if fact_id in s.fact_ids)


def test_a_disputed_claim_is_flagged_inline_and_shown_with_its_opponent(seed_graph, embedder, offline_llm):
    answer = ask(seed_graph, embedder, offline_llm, "Is Cypher a declarative query language? What is Cypher?")
    declarative = _sentence_with(answer, "cl-cypher-declarative")
    assert "declarative" in declarative.text and "[disputed — see " in declarative.text
    imperative = _sentence_with(answer, "cl-cql-imperative")  # the other side is never dropped
    assert "[disputed — see " in imperative.text
    assert any("cl-cypher-declarative is disputed" in f for f in answer.flags)


def test_superseded_claims_are_history_not_fact(seed_graph, embedder, offline_llm):
    answer = ask(seed_graph, embedder, offline_llm, "What is Neo4j?")
    assert all("4.4" not in s.text for s in answer.sentences)
    assert any("4.4" in h and "superseded by cl-neo4j-lts" in h for h in answer.history)
    assert "History (superseded, not current):" in answer.answer
    # its source was replaced by a changed file: cited only where nothing newer says it
    assert "src-neo4j-old" not in answer.citations


def test_needs_review_and_stale_sources_are_flagged(seed_graph, embedder, offline_llm):
    bolt = ask(seed_graph, embedder, offline_llm, "What is Bolt?")
    assert "[needs review — see c-bolt]" in _sentence_with(bolt, "c-bolt").text
    assert any("needs review" in f for f in bolt.flags)
    louvain = ask(seed_graph, embedder, offline_llm, "What is Louvain?")
    assert "[stale source" in _sentence_with(louvain, "cl-louvain-fastest").text
    assert any(
        re.search(r"src-old-blog .* may be outdated \(last updated \d{4}-\d{2}-\d{2}\)$", f) for f in louvain.flags
    )


def test_every_sentence_cites_retrieved_sources(seed_graph, embedder, offline_llm):
    for question in ("What is Cypher?", "What else relates to Docker?", "How does APOC connect to Google?"):
        answer = ask(seed_graph, embedder, offline_llm, question)
        assert answer.sentences, question
        for sentence in answer.sentences:
            assert sentence.source_ids and set(sentence.source_ids) <= set(answer.retrieved["sources"])
            assert sentence.text.endswith(f"[source: {', '.join(sentence.source_ids)}].")
        assert answer.citations == list(dict.fromkeys(s for x in answer.sentences for s in x.source_ids))


def test_an_unknown_entity_gets_no_information_never_an_answer(seed_graph, embedder, offline_llm):
    answer = ask(seed_graph, embedder, offline_llm, "What is Zorblax?")
    assert (answer.found, answer.rung, answer.answer) == (False, "nothing", "The graph has no information on this.")
    assert answer.flags == ["no concept or source matches 'Zorblax'"]
    assert answer.sentences == [] and answer.citations == [] and answer.context_tokens == 0
    connect = ask(seed_graph, embedder, offline_llm, "How is Cypher connected to Zorblax?")
    assert not connect.found and "'Zorblax'" in connect.flags[0] and connect.sentences == []


def test_a_near_miss_answers_from_its_best_candidate_and_says_which(seed_graph, embedder, offline_llm):
    answer = ask(seed_graph, embedder, offline_llm, "What is Neo4j GDS?")
    assert_answered_about_closest(answer, "Neo4j Graph Data Science", "Neo4j GDS", "c-gds", "near")
    assert answer.sentences and all(s.source_ids for s in answer.sentences)
    # the other candidates stay offered beside the answer
    assert [n["concept_id"] for n in answer.near_matches] == ["c-neo4j"]


def test_a_broader_near_miss_is_offered_to_pick_from_and_answers_nothing(seed_graph, embedder, offline_llm):
    answer = ask(seed_graph, embedder, offline_llm, "What is Docker Swarm?")
    assert (answer.found, answer.rung, answer.citations) == (False, "fuzzy", [])
    assert [n["concept_id"] for n in answer.near_matches] == ["c-docker"]
    assert answer.answer == (
        "No concept is named 'Docker Swarm'. Did you mean Docker (c-docker)? Ask again naming one of them."
    )


def test_a_phrase_a_source_holds_word_for_word_is_quoted_with_the_broader_names_beside(
    seed_graph, embedder, offline_llm
):
    answer = ask(
        seed_graph,
        embedder,
        offline_llm,
        "What is the official Docker image?",
        shape="what_is",
        entities=["official Docker image"],
    )
    assert (answer.found, answer.rung) == (False, "raw_sources")
    assert "src-docker" in answer.citations and "official neo4j image on Docker Hub" in answer.answer
    assert answer.answer.endswith("Concepts of a similar name: Docker (c-docker).")


def test_a_term_only_in_source_text_is_answered_from_the_raw_source_and_says_so(seed_graph, embedder, offline_llm):
    answer = ask(seed_graph, embedder, offline_llm, "Who is Michael Hunger?")
    assert (answer.found, answer.rung) == (False, "raw_sources")
    first, *quotes = answer.answer.split("\n")
    assert first == (
        "No concept in the graph matches 'Michael Hunger'; this answer comes from raw sources, not "
        "from concepts and claims the graph has checked:"
    )
    assert quotes and all(q.startswith('- "') and q.endswith("[src-apoc]") for q in quotes)
    assert any("Michael Hunger" in q for q in quotes)
    assert answer.citations == ["src-apoc"] and [s["id"] for s in answer.sources] == ["src-apoc"]


def test_context_is_measured_against_the_whole_corpus(seed_graph, embedder, offline_llm):
    answer = ask(seed_graph, embedder, offline_llm, "What is Docker?")
    chars = seed_graph.query("MATCH (s:Source) WHERE s.status <> 'superseded' RETURN sum(size(s.text)) AS n")[0]["n"]
    assert answer.corpus_tokens == estimate_tokens(chars)
    assert 0 < answer.context_tokens


def test_an_unreachable_llm_degrades_to_pattern_free_routing_and_extractive_answers(seed_graph, embedder, settings):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    dead = build_llm(LLMSettings(api_key="test", base_url=f"http://127.0.0.1:{port}/v1", timeout_s=2, max_retries=0))
    answer = ask(seed_graph, embedder, dead, "Cypher")
    assert answer.shape == "what_is" and "router failed" in answer.reason
    assert "extractive fallback" in answer.backend
    assert answer.entities[0]["concept_id"] == "c-cypher" and answer.sentences


def test_synthesis_keeps_only_cited_sentences_and_adds_missing_flags():
    facts = Facts(
        facts=[
            Fact(fact_id="cl-1", text="X is declarative.", source_ids=["src-a"], status="disputed"),
            Fact(fact_id="cl-2", text="X is old.", source_ids=["src-b"]),
        ],
        marks={"cl-1": [("disputed", "cl-9")], "cl-2": []},
    )
    written = [
        AnswerSentence(text="X is declarative.", fact_ids=["cl-1"]),
        AnswerSentence(text="X was invented on the moon.", fact_ids=[]),
        AnswerSentence(text="X is great.", fact_ids=["cl-404"]),
        AnswerSentence(text="X is old [disputed — see cl-2].", fact_ids=["cl-2"]),
    ]
    rendered = render(written, facts)
    assert [s.text for s in rendered] == [
        "X is declarative [disputed — see cl-9] [source: src-a].",
        "X is old [disputed — see cl-2] [source: src-b].",  # the writer's own flag is kept, not doubled
    ]


def test_a_dispute_found_by_the_real_pipeline_is_flagged_inline(store, embedder, settings, tmp_path):
    from tests.support.ingest import SMOKE_TEXTS, ingest, write_sources

    ingest(store, embedder, settings, write_sources(tmp_path, SMOKE_TEXTS))
    llm = build_llm(settings.llm, settings.cache_dir)
    answer = ask(store, embedder, llm, "What is Cypher?")
    disputed = [s for s in answer.sentences if "[disputed — see " in s.text]
    assert {"declarative", "imperative"} <= {w for s in disputed for w in s.text.lower().split()}
    assert all(s.source_ids for s in disputed)
