"""Answers that answer or abstain: a question about what the corpus never mentions gets "the
graph has no information", never sentences that share a word with it; a question the corpus
answers is answered; "what is X" leads with the sentence that defines X."""

from __future__ import annotations

import pytest

from graphwiki_assets.core.llm.client import build_llm
from graphwiki_assets.core.query import ask
from tests.support.ingest import ingest, write_sources

# An invented product, so nothing is known beforehand; three pages as documentation has them.
PAGES = {
    "overview.md": (
        "# Quillbase\n\nQuillbase stores every record in a write-ahead log before applying it. "
        "Quillbase runs on Linux and on the Orrin cluster. The Orrin cluster has a round-trip time of 40 ms "
        "between its racks. Quillbase is a distributed key-value store for configuration data."
    ),
    "glossary.md": (
        "# Glossary\n\nThe tessel is the unit of replication in Quillbase. A tessel holds a range of keys. "
        "Compaction removes superseded versions of keys from a tessel."
    ),
    "operations.md": (
        "# Operations\n\nQuillbase snapshots are taken with the quill snapshot command. "
        "A snapshot of Quillbase restores a whole cluster after a disaster."
    ),
}
OUT_OF_CORPUS = [
    "What is the capital of France?",
    "Who is the president of Quillbase?",
    "What is Docker Swarm?",
    "How does TCP congestion control work?",
    "What is Quillbase's garbage collector pause time?",
]
IN_CORPUS = {
    "What is Quillbase?": "key-value store",
    "What is a tessel?": "unit of replication",
    "How do I take a snapshot of Quillbase?": "snapshot",
    "What is compaction?": "superseded versions",
}


@pytest.fixture
def corpus(store, embedder, settings, tmp_path):
    ingest(store, embedder, settings, write_sources(tmp_path / "docs", PAGES), cache=False)
    return store


@pytest.mark.parametrize("question", OUT_OF_CORPUS)
def test_a_question_about_what_the_corpus_never_mentions_abstains(corpus, embedder, settings, question):
    answer = ask(corpus, embedder, build_llm(settings.llm), question)

    assert (answer.found, answer.rung) == (False, "nothing"), answer.answer
    assert answer.answer.startswith("The graph has no information on this.")
    assert answer.sentences == [] and answer.citations == []


@pytest.mark.parametrize("question", sorted(IN_CORPUS))
def test_a_question_the_corpus_answers_is_answered(corpus, embedder, settings, question):
    answer = ask(corpus, embedder, build_llm(settings.llm), question)

    # from concepts and claims, or quoted from the raw source where no concept was drawn
    assert answer.rung != "nothing" and answer.citations, answer.answer
    assert IN_CORPUS[question] in answer.answer.lower()


def test_what_is_x_leads_with_the_sentence_that_defines_x(corpus, embedder, settings):
    answer = ask(corpus, embedder, build_llm(settings.llm), "What is Quillbase?")

    first = answer.sentences[0]
    assert first.text.startswith("Quillbase is a distributed key-value store for configuration data"), answer.answer
    assert first.source_ids and first.text.endswith(f"[source: {', '.join(first.source_ids)}].")
    # the status flags travel with it: one file states it so far
    assert "[one source — see " in first.text


def test_a_linked_entity_whose_facts_miss_the_question_says_what_it_lacks(corpus, embedder, settings):
    answer = ask(corpus, embedder, build_llm(settings.llm), "Who is the president of Quillbase?")

    assert "holds facts on 'Quillbase', but none on 'president'" in answer.answer
