"""Offline routing, answers and summaries."""

from __future__ import annotations

import pytest

from graphwiki_assets.core.llm.calls import AnswerRequest, Fact, RouteRequest, SummaryRequest
from graphwiki_assets.core.llm.offline.backend import OfflineLLM

ROUTES = [
    ("What is Cypher?", "what_is", ["Cypher"]),
    ("Who is G. Stanley Hall?", "what_is", ["G. Stanley Hall"]),
    ("Tell me about the Leopold Museum.", "what_is", ["Leopold Museum"]),
    ('What is "person-centered therapy"?', "what_is", ["person-centered therapy"]),
    ("What is the capital of France?", "what_is", ["France"]),
    ("What is the .gitattributes file used for?", "what_is", [".gitattributes file"]),
    ("What are Tarn cranes good for?", "what_is", ["Tarn cranes"]),
    ("When was the Orrin Trust founded?", "what_is", ["Orrin Trust"]),
    ("What else relates to Neo4j?", "related", ["Neo4j"]),
    ("What topics are related to entity resolution?", "related", ["entity resolution"]),
    ("Show me similar topics to Harborline", "related", ["Harborline"]),
    ("How does Cypher connect to GDS?", "connect", ["Cypher", "GDS"]),
    (
        "How is the University of Notre Dame related to Xiao Qiang?",
        "connect",
        ["University of Notre Dame", "Xiao Qiang"],
    ),
    ("What is the link between Paris and London?", "connect", ["Paris", "London"]),
    ("Find something shaped like the Harborline Cloud", "shaped_like", ["Harborline Cloud"]),
    ("Are there things like PostgreSQL?", "shaped_like", ["PostgreSQL"]),
    ("What is similar in structure to Kortel?", "shaped_like", ["Kortel"]),
    ("Compare Neo4j and PostgreSQL", "compare", ["Neo4j", "PostgreSQL"]),
    ("Neo4j vs. PostgreSQL?", "compare", ["Neo4j", "PostgreSQL"]),
    ("What is the difference between AWS and Azure?", "compare", ["AWS", "Azure"]),
    ("Where does the claim that Cypher is declarative come from?", "provenance", ["Cypher is declarative"]),
    (
        "What is the source of the claim that Paris hosted the 1924 Olympics?",
        "provenance",
        ["Paris hosted the 1924 Olympics"],
    ),
]


@pytest.mark.parametrize("question,shape,entities", ROUTES, ids=[r[0] for r in ROUTES])
def test_route(question, shape, entities):
    resp = OfflineLLM().route(RouteRequest(question=question))
    assert (resp.shape, resp.entities) == (shape, entities), resp.reason


@pytest.mark.parametrize(
    "question,type_filter",
    [
        ("Which databases support vector indexes?", "Database"),
        ("List all cities in the graph", "City"),
        ("Which people founded Kortel?", "Person"),
    ],
)
def test_topic_questions_carry_a_singular_type_filter(question, type_filter):
    resp = OfflineLLM().route(RouteRequest(question=question))
    assert (resp.shape, resp.type_filter) == ("topic", type_filter)


def test_unmatched_question_looks_up_its_names():
    resp = OfflineLLM().route(RouteRequest(question="Did Ada Quill ever visit Dunmore?"))
    assert resp.shape == "what_is" and resp.entities == ["Ada Quill", "Dunmore"]


FACTS = [
    Fact(fact_id="c1", text="Neo4j is a graph database.", source_ids=["s1"]),
    Fact(fact_id="c2", text="Cypher is a declarative query language.", source_ids=["s1"], status="disputed"),
    Fact(fact_id="c3", text="Cypher was created at Neo4j.", source_ids=["s2"]),
    Fact(fact_id="c4", text="Cypher was created at Neo4j.", source_ids=["s3"]),
]


def test_answer_ranks_facts_by_overlap_and_cites_them():
    resp = OfflineLLM().answer(
        AnswerRequest(question="Is Cypher a declarative language?", shape="what_is", facts=FACTS)
    )
    assert resp.sentences[0].fact_ids == ["c2"]
    # a fact whose status is not current is flagged inside its sentence
    assert resp.sentences[0].text == "Cypher is a declarative query language [disputed — see c2]."
    # the same statement from two sources is one sentence citing both
    assert ["c3", "c4"] in [s.fact_ids for s in resp.sentences]
    assert all(s.fact_ids for s in resp.sentences)


def test_answer_is_bounded_and_empty_without_facts():
    many = [Fact(fact_id=f"f{i}", text=f"Kortel opened office number {i}.", source_ids=["s"]) for i in range(20)]
    llm = OfflineLLM()
    assert (
        len(llm.answer(AnswerRequest(question="Where did Kortel open offices?", shape="topic", facts=many)).sentences)
        == 8
    )
    assert llm.answer(AnswerRequest(question="What is Kortel?", shape="what_is", facts=[])).sentences == []


def test_summary_is_extractive_distinct_and_bounded():
    facts = [
        "Kortel sells storage appliances.",
        "Kortel is a hardware company based in Oslo.",
        "Kortel sells storage appliances.",
    ] + [f"Kortel opened a branch in city number {i} after a long negotiation with local partners." for i in range(10)]
    resp = OfflineLLM().summarize(SummaryRequest(name="Kortel", type="Company", facts=facts))
    assert resp.summary.startswith("Kortel is a hardware company based in Oslo.")
    assert resp.summary.count("storage appliances") == 1
    assert len(resp.summary) <= 400


def test_summary_keeps_the_current_summary_first():
    resp = OfflineLLM().summarize(
        SummaryRequest(name="Kortel", current_summary="Kortel makes disks.", facts=["Kortel was founded in 1990."])
    )
    assert resp.summary == "Kortel makes disks. Kortel was founded in 1990."
