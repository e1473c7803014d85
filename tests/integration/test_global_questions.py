"""Questions about the whole collection are routed to the community reports and answered
from them, citing the communities and, through them, the sources."""

from __future__ import annotations

import json

import pytest

from graphwiki_assets.cli.main import main
from graphwiki_assets.core.communities.refresh import refresh_communities
from graphwiki_assets.core.llm.calls import RouteRequest
from graphwiki_assets.core.llm.client import build_llm
from graphwiki_assets.core.llm.offline.routing import route
from graphwiki_assets.core.query import ask
from tests.support.community_corpus import CHEESE, CHEESE_NAMES, SKY, SKY_NAMES
from tests.support.ingest import ingest, write_sources


@pytest.mark.parametrize(
    "question, subject",
    [
        ("What are the main topics?", None),
        ("What are the key themes of these documents?", None),
        ("What is this collection about?", None),
        ("Give me an overview of the knowledge base", None),
        ("Which topics are covered here?", None),
        ("What does the corpus say about tidal mills?", "tidal mills"),
        ("What are the main themes in the Varn uprising?", "Varn uprising"),
    ],
)
def test_questions_about_the_whole_collection_are_global(question, subject):
    routed = route(RouteRequest(question=question))
    assert routed.shape == "global" and routed.entities == ([subject] if subject else [])


@pytest.mark.parametrize(
    "question", ["What is a topic model?", "Who founded the main street club?", "List all observatories"]
)
def test_questions_about_one_thing_are_not(question):
    assert route(RouteRequest(question=question)).shape != "global"


@pytest.fixture
def two_topics(store, embedder, settings, tmp_path):
    ingest(store, embedder, settings, write_sources(tmp_path / "sources", {**SKY, **CHEESE}), cache=False)
    return build_llm(settings.llm)


def _community_of(store, name: str) -> str:
    return store.query(
        "MATCH (:Concept {name: $n})-[:IN_COMMUNITY]->(k:Community {top: true}) RETURN k.id AS id", n=name
    )[0]["id"]


def _sources(store, marker: str) -> set[str]:
    return {r["id"] for r in store.query("MATCH (s:Source) WHERE s.path CONTAINS $m RETURN s.id AS id", m=marker)}


def test_before_communities_exist_a_global_question_says_how_to_make_them(store, embedder, two_topics):
    answer = ask(store, embedder, two_topics, "What are the main topics?")
    assert answer.shape == "global" and not answer.sentences
    assert answer.answer == (
        "The graph has no information to answer this: no community reports exist yet: run "
        "`graphwiki communities` (or materialise the communities asset) after ingest."
    )


def test_the_main_topics_answer_cites_both_communities_and_their_sources(store, embedder, two_topics):
    refresh_communities(store, embedder, two_topics)
    answer = ask(store, embedder, two_topics, "What are the main topics?")
    assert (answer.shape, answer.technique) == ("global", "community map-reduce")
    sky, cheese = _community_of(store, next(iter(SKY_NAMES))), _community_of(store, next(iter(CHEESE_NAMES)))
    cited = {f for s in answer.sentences for f in s.fact_ids}
    assert {sky, cheese} <= cited
    assert set(answer.citations) & _sources(store, "sky-") and set(answer.citations) & _sources(store, "cheese-")
    assert any("extractive" in flag for flag in answer.flags)  # the offline reports say what they are


def test_a_subject_question_starts_from_the_community_that_holds_it(store, embedder, two_topics):
    refresh_communities(store, embedder, two_topics)
    answer = ask(store, embedder, two_topics, "What does the corpus say about telescopes and comets?")
    assert answer.shape == "global"
    assert answer.retrieved["communities"][0] == _community_of(store, "Mirelle Telescope")
    assert set(answer.citations) & _sources(store, "sky-")


def test_the_communities_command_lists_the_topics_and_a_second_run_costs_nothing(
    store, embedder, two_topics, monkeypatch, settings, tmp_path, capsys
):
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "NEO4J_USERNAME", "NEO4J_DATABASE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NEO4J_URI", settings.neo4j.uri)
    monkeypatch.setenv("NEO4J_PASSWORD", settings.neo4j.password)
    monkeypatch.setenv("GRAPHWIKI_HOME", str(tmp_path))
    assert main(["communities", "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["top"] == 2 and first["reported"] == first["communities"] and first["llm_calls"] >= 1
    assert {c["kind"] for c in first["top_communities"]} == {"extractive"}
    assert main(["communities"]) == 0
    text = capsys.readouterr().out
    assert "0 new" in text and "reported in 0 LLM call(s)" in text and "| size | title |" in text
