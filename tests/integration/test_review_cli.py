"""`graphwiki review`, `resolve` and `impact` from the command line."""

from __future__ import annotations

import io
import json

from graphwiki_assets.core.review.split import split_concept_id
from tests.support.clean_graph import plant_clean_graph


def reviewed(store) -> dict[str, str]:
    return {
        r["id"]: r["v"]
        for r in store.query("MATCH (j:Judgment) WHERE j.reviewed RETURN j.id AS id, j.review_verdict AS v")
    }


def test_review_lists_the_sample_without_asking_when_told_not_to(store, cli):
    plant_clean_graph(store)

    code, out = cli("review", "--no-input")

    assert code == 0
    assert "'CQL' was merged into 'Cypher'" in out
    assert "'Neo4j Graph Data Science' was kept apart from 'Neo4j'" in out
    assert reviewed(store) == {}


def test_review_asks_per_judgment_and_applies_the_answers(store, cli, monkeypatch):
    plant_clean_graph(store)
    order = [j["id"] for j in json.loads(cli("review", "--json")[1])]
    answers = {"judgment-cql": "r", "judgment-gds": "c"}
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(["x"] + [answers[i] for i in order]) + "\n"))

    code, out = cli("review", "--by", "ana", "--no-embed")  # embedding a split is tested in test_review_judgments

    assert code == 0 and "2 judgment(s) reviewed" in out
    assert reviewed(store) == {"judgment-cql": "rejected", "judgment-gds": "confirmed"}
    assert f"judgment-cql: rejected (split -> {split_concept_id('judgment-cql')})" in out


def test_review_stops_at_quit_or_end_of_input(store, cli, monkeypatch):
    plant_clean_graph(store)
    monkeypatch.setattr("sys.stdin", io.StringIO("s\n"))

    code, out = cli("review")

    assert code == 0 and "0 judgment(s) reviewed" in out and reviewed(store) == {}


def test_review_confirms_and_rejects_by_id_without_asking(store, cli):
    plant_clean_graph(store)

    code, out = cli("review", "--json", "--confirm", "judgment-cql", "--reject", "judgment-gds", "--reason", "same db")

    outcomes = {o["judgment_id"]: o for o in json.loads(out)}
    assert code == 0
    assert outcomes["judgment-gds"]["action"] == "merged" and outcomes["judgment-cql"]["action"] == "marked"
    assert reviewed(store) == {"judgment-cql": "confirmed", "judgment-gds": "rejected"}
    assert cli("review", "--confirm", "judgment-cql")[0] == 1  # already reviewed: one clear error


def test_resolve_settles_a_dispute_and_records_who_decided(store, cli):
    plant_clean_graph(store)

    code, out = cli("resolve", "claim-imperative", "--winner", "claim-declarative", "--by", "ana", "--reason", "docs")

    assert code == 0 and "claim-imperative is superseded by claim-declarative (now current)" in out
    loser = store.query("MATCH (c:Claim {id: 'claim-imperative'}) RETURN c.status AS s, c.decided_by AS by")[0]
    assert loser == {"s": "superseded", "by": "ana"}
    assert cli("resolve", "claim-gds-plugin", "--winner", "claim-declarative")[0] == 1


def test_impact_lists_and_flags_what_a_source_reaches(store, cli):
    ids = plant_clean_graph(store)

    code, out = cli("impact", ids["gds.md"], "--depth", "1", "--flag", "--json")

    data = json.loads(out)
    assert code == 0 and data["depth"] == 1
    assert {n["id"] for n in data["nodes"]} == set(data["flagged"]) == {"gds", "neo4j", "claim-gds-plugin"}
    assert json.loads(cli("impact", "gds.md", "--depth", "*", "--json")[1])["reached"] == 7
    assert cli("impact", ids["gds.md"], "--depth", "-1")[0] == 1
