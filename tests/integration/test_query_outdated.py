"""Facts whose newest source is older than the staleness age are flagged in every answer shape.

The seed graph's sources carry no date until a test dates them (with a parameterised SET,
as ingest writes them); ``today`` is given, so the tests do not age.
"""

from __future__ import annotations

import datetime as dt
import json

import pytest

from graphwiki_assets.core.query import ask

OLD = dt.date(2015, 3, 1)
TODAY = dt.date(2026, 12, 1)
MARK = "[may be outdated, last stated 2015-03-01]"

SHAPES = [
    ("what_is", "What is Cypher?"),
    ("related", "What else relates to Docker?"),
    ("connect", "How does APOC connect to Google?"),
    ("shaped_like", "Find something shaped like APOC"),
    ("topic", "List all libraries"),
    ("compare", "Compare APOC and Neo4j Graph Data Science"),
]


def _date_every_source(store, date: dt.date | None) -> None:
    store.query("MATCH (s:Source) SET s.date = $date", date=date)


@pytest.mark.parametrize("shape,question", SHAPES, ids=[s for s, _ in SHAPES])
def test_every_shape_flags_a_fact_last_stated_long_ago(seed_graph, embedder, offline_llm, shape, question):
    _date_every_source(seed_graph, OLD)
    answer = ask(seed_graph, embedder, offline_llm, question, today=TODAY)
    assert answer.shape == shape
    flagged = [s for s in answer.sentences if MARK in s.text]
    assert flagged, answer.answer
    assert MARK in answer.answer
    assert {o["fact_id"] for o in answer.outdated} == {f for s in flagged for f in s.fact_ids}
    assert all(o["last_stated"] == "2015-03-01" for o in answer.outdated)
    assert any("may be outdated: its newest source is dated 2015-03-01" in f for f in answer.flags)
    as_json = json.loads(json.dumps(answer.as_dict(), default=str))
    assert as_json["outdated"] and MARK in as_json["answer"]


def test_nothing_is_outdated_within_the_staleness_age(seed_graph, embedder, offline_llm):
    _date_every_source(seed_graph, OLD)
    answer = ask(seed_graph, embedder, offline_llm, "What is Cypher?", today=OLD + dt.timedelta(days=30))
    assert answer.sentences and not answer.outdated
    assert "may be outdated, last stated" not in answer.answer
    shorter = ask(seed_graph, embedder, offline_llm, "What is Cypher?", today=OLD + dt.timedelta(days=30), stale_days=7)
    assert shorter.outdated  # the age is the option's (the schema config's staleness_days in the CLI)


def test_undated_sources_are_never_called_outdated(seed_graph, embedder, offline_llm):
    _date_every_source(seed_graph, None)
    answer = ask(seed_graph, embedder, offline_llm, "What is Cypher?", today=TODAY)
    assert answer.sentences and not answer.outdated
    assert "may be outdated, last stated" not in answer.answer


def test_the_newest_source_of_a_fact_decides(seed_graph, embedder, offline_llm):
    _date_every_source(seed_graph, OLD)
    before = ask(seed_graph, embedder, offline_llm, "What is Cypher?", today=TODAY)
    claim = next(o["fact_id"] for o in before.outdated if o["fact_id"].startswith("cl-"))
    # the same claim stated again by a recent source
    seed_graph.query(
        "MATCH (c:Claim {id: $claim}) CREATE (s:Source {id: 'src-recent', title: 'Recent', path: 'recent.md', "
        "status: 'current', date: $date}) CREATE (c)-[:DERIVED_FROM]->(s)",
        claim=claim,
        date=TODAY - dt.timedelta(days=10),
    )
    after = ask(seed_graph, embedder, offline_llm, "What is Cypher?", today=TODAY)
    assert claim not in {o["fact_id"] for o in after.outdated}
    sentence = next(s for s in after.sentences if claim in s.fact_ids)
    assert "may be outdated" not in sentence.text or any(f != claim for f in sentence.fact_ids)


def test_today_must_be_a_date(seed_graph, embedder, offline_llm):
    with pytest.raises(ValueError, match="today must be a date"):
        ask(seed_graph, embedder, offline_llm, "What is Cypher?", today="2026-12-01")


def test_a_dispute_says_when_each_side_was_last_stated(seed_graph, embedder, offline_llm):
    _date_every_source(seed_graph, OLD)
    seed_graph.query(
        "MATCH (:Claim {id: 'cl-cql-imperative'})-[:DERIVED_FROM]->(s:Source) SET s.date = $date",
        date=dt.date(2026, 11, 1),
    )
    answer = ask(
        seed_graph, embedder, offline_llm, "Is Cypher a declarative query language? What is Cypher?", today=TODAY
    )
    note = next(f for f in answer.flags if f.startswith("cl-cypher-declarative is disputed"))
    assert '(last stated 2015-03-01) is contradicted by cl-cql-imperative: "' in note
    assert note.endswith("(last stated 2026-11-01)")
