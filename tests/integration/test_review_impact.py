"""Impact analysis: depth 0 = the source only, N = N hops, '*' = everything reachable."""

from __future__ import annotations

import pytest

from graphwiki_assets.core.review.cypher import impact_query
from graphwiki_assets.core.review.impact import UnknownSource, impact, parse_depth
from tests.support.clean_graph import NOW, plant_clean_graph

DIRECT = {"cypher", "neo4j", "claim-imperative", "claim-cql-queries"}  # what derives from cql.md
ALL = {"cypher", "neo4j", "gds", "claim-declarative", "claim-imperative", "claim-cql-queries", "claim-gds-plugin"}


def reached(result) -> dict[str, int]:
    return {n.id: n.distance for n in result.nodes}


def test_depth_zero_is_the_source_alone(store):
    ids = plant_clean_graph(store)

    result = impact(store, ids["cql.md"], depth=0, flag=True)

    assert (result.source_id, result.nodes, result.flagged) == (ids["cql.md"], [], [])


def test_depth_one_is_what_derives_from_the_source(store):
    ids = plant_clean_graph(store)

    assert reached(impact(store, ids["cql.md"], depth=1)) == dict.fromkeys(DIRECT, 1)


def test_depth_two_goes_one_hop_further_but_never_into_other_sources(store):
    ids = plant_clean_graph(store)

    result = impact(store, ids["cql.md"], depth=2)

    assert reached(result) == {**dict.fromkeys(DIRECT, 1), "claim-declarative": 2, "claim-gds-plugin": 2, "gds": 2}
    assert all(n.label != "Source" for n in result.nodes)


def test_unbounded_reaches_the_whole_connected_subgraph(store):
    ids = plant_clean_graph(store)
    store.query("CREATE (:Concept {id: 'island', name: 'Island', status: 'current'})")

    result = impact(store, ids["gds.md"], depth="*")

    assert set(reached(result)) == ALL
    assert result.as_dict()["depth"] == "*"


def test_flagging_marks_every_reached_concept_and_claim_for_review(store):
    ids = plant_clean_graph(store)

    result = impact(store, "cql.md", depth=1, flag=True, now=NOW)  # a path names its latest source

    assert set(result.flagged) == DIRECT
    flagged = store.query("MATCH (n) WHERE n.needs_review = true RETURN n.id AS id, n.needs_review_since AS t")
    assert {r["id"] for r in flagged} == DIRECT
    assert all(r["t"].to_native() == NOW for r in flagged)
    assert result.source_id == ids["cql.md"]


@pytest.mark.parametrize("bad", ["-1", "two", "1; MATCH (n) DETACH DELETE n", 1.5])
def test_a_depth_is_a_non_negative_int_or_star(bad):
    with pytest.raises(ValueError):
        parse_depth(bad)


def test_only_validated_ints_ever_reach_the_query_text():
    assert parse_depth("*") is None and parse_depth("3") == 3
    assert "{1,3}" in impact_query(3) and "{1,}" in impact_query(None)
    for bad in (0, -2, "3", True):
        with pytest.raises(ValueError):
            impact_query(bad)


def test_an_unknown_source_is_refused(store):
    with pytest.raises(UnknownSource):
        impact(store, "src-nope")
