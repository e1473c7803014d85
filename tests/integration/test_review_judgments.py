"""Reviewing stage-2 judgments: sample both kinds, confirm, and reject (which undoes the decision)."""

from __future__ import annotations

import pytest

from graphwiki_assets.core.lint.judgments import sample_judgments
from graphwiki_assets.core.lint.report import run_lint
from graphwiki_assets.core.lint.verify import verify_graph
from graphwiki_assets.core.review.decide import confirm, reject
from graphwiki_assets.core.review.record import ReviewError, get_judgment
from graphwiki_assets.core.review.split import plan_split, split_concept_id
from tests.support.clean_graph import DEFECT_CHECKS, NOW, plant_clean_graph

CQL = split_concept_id("judgment-cql")


def concept(store, cid: str) -> dict:
    return store.query("MATCH (c:Concept {id: $id}) RETURN c {.*, embedding: null} AS c", id=cid)[0]["c"]


def about(store, claim: str) -> set[str]:
    return {r["id"] for r in store.query("MATCH (:Claim {id: $id})-[:ABOUT]->(c:Concept) RETURN c.id AS id", id=claim)}


def cites(store, cid: str) -> set[str]:
    return {
        r["path"]
        for r in store.query("MATCH (:Concept {id: $id})-[:DERIVED_FROM]->(s:Source) RETURN s.path AS path", id=cid)
    }


def links(store, a: str, b: str) -> list[str]:
    return sorted(
        r["t"] for r in store.query("MATCH (:Concept {id: $a})-[r]-(:Concept {id: $b}) RETURN type(r) AS t", a=a, b=b)
    )


def test_the_sample_holds_both_verdicts_and_only_unreviewed_judgments(store):
    plant_clean_graph(store)

    assert sorted(j.verdict for j in sample_judgments(store, 10).judgments) == ["NOT_SAME", "SAME"]
    assert len(sample_judgments(store, 1).judgments) == 1
    confirm(store, "judgment-cql", now=NOW)
    assert [j.id for j in sample_judgments(store, 10).judgments] == ["judgment-gds"]


def test_confirming_marks_the_judgment_reviewed_and_changes_nothing_else(store):
    plant_clean_graph(store)
    before = store.query("MATCH (n) WHERE NOT n:Judgment AND NOT n:LogEntry RETURN count(n) AS n")[0]["n"]

    outcome = confirm(store, "judgment-cql", by="ana", reason="CQL is Cypher", now=NOW)

    j = store.query("MATCH (j:Judgment {id: 'judgment-cql'}) RETURN j {.*} AS j")[0]["j"]
    assert (outcome.review_verdict, outcome.action) == ("confirmed", "marked")
    assert (j["reviewed"], j["review_verdict"], j["reviewed_by"], j["review_reason"]) == (
        True,
        "confirmed",
        "ana",
        "CQL is Cypher",
    )
    assert j["reviewed_at"].to_native() == NOW
    assert store.query("MATCH (n) WHERE NOT n:Judgment AND NOT n:LogEntry RETURN count(n) AS n")[0]["n"] == before
    with pytest.raises(ReviewError, match="already reviewed"):
        reject(store, "judgment-cql")
    with pytest.raises(ReviewError, match="no judgment"):
        confirm(store, "judgment-nope")


def test_rejecting_a_same_splits_the_mention_back_out(store, embedder):
    plant_clean_graph(store)

    outcome = reject(
        store, "judgment-cql", by="ana", reason="CQL is not Cypher here", now=NOW, embed=embedder.encode_one
    )

    assert (outcome.action, outcome.concept_id) == ("split", CQL)
    cql, cypher = concept(store, CQL), concept(store, "cypher")
    assert (cql["name"], cql["status"], cql["split_from"], cql["source_count"]) == ("CQL", "current", "cypher", 1)
    assert len(store.query("MATCH (c:Concept {id: $id}) RETURN c.embedding AS e", id=CQL)[0]["e"]) == 384
    assert (cypher["aliases"], cypher["keys"], cypher["status"]) == ([], ["cypher"], "current")
    # both claims of cql.md name only CQL, so they follow it; cql.md no longer cites Cypher
    assert about(store, "claim-imperative") == {CQL}
    assert about(store, "claim-cql-queries") == {CQL, "neo4j"}
    assert about(store, "claim-declarative") == {"cypher"}
    assert (cites(store, CQL), cites(store, "cypher")) == ({"cql.md"}, {"cypher.md"})
    assert links(store, CQL, "cypher") == ["NOT_SAME_AS"]
    assert links(store, CQL, "neo4j") == ["RELATED_TO"]
    assert links(store, "cypher", "neo4j") == []  # its only co-statement moved
    j = get_judgment(store, "judgment-cql")
    assert (j.reviewed, j.review_verdict, j.concept_id, j.verdict) == (True, "rejected", CQL, "SAME")
    assert store.query("MATCH (j:Judgment {id: 'judgment-cql'}) RETURN j.previous_concept_id AS p")[0]["p"] == "cypher"


def test_rejecting_a_not_same_merges_the_two_concepts_and_keeps_the_absorbed_node(store):
    plant_clean_graph(store)

    outcome = reject(store, "judgment-gds", by="ana", now=NOW)

    assert (outcome.action, outcome.concept_id) == ("merged", "neo4j")
    gds, neo4j = concept(store, "gds"), concept(store, "neo4j")
    assert (gds["status"], gds["merged_into"], gds["merged_by"]) == ("superseded", "neo4j", "ana")
    assert neo4j["aliases"] == ["Neo4j Graph Data Science"]
    assert "neo4j graph data science" in neo4j["keys"]
    assert about(store, "claim-gds-plugin") == {"neo4j"}
    assert links(store, "gds", "neo4j") == []  # NOT_SAME_AS, PART_OF, RELATED_TO: now self-loops
    assert cites(store, "gds") == {"gds.md"}  # history keeps its provenance
    assert store.query("MATCH (:Concept {id: 'gds'})-[r:RELATED_TO|PART_OF]-() RETURN count(r) AS n")[0]["n"] == 0
    j = get_judgment(store, "judgment-gds")
    assert (j.review_verdict, j.concept_id) == ("rejected", "neo4j")


def test_a_review_round_trip_leaves_a_consistent_graph(store):
    plant_clean_graph(store)
    nodes = store.query("MATCH (n) WHERE NOT n:LogEntry RETURN count(n) AS n")[0]["n"]

    reject(store, "judgment-cql", now=NOW)
    reject(store, "judgment-gds", now=NOW)

    assert all(r.count == 0 for r in verify_graph(store)), [r for r in verify_graph(store) if r.count]
    report = run_lint(store, now=NOW)
    assert {c.name for c in report.checks if c.count and c.name in DEFECT_CHECKS} == set()
    assert (
        store.query("MATCH (n) WHERE NOT n:LogEntry RETURN count(n) AS n")[0]["n"] == nodes + 1
    )  # nothing deleted, one split off
    assert report.check("judgment_sample").count == 0


def test_the_merged_node_is_followed_when_a_later_review_points_at_it(store):
    ids = plant_clean_graph(store)
    store.query(
        "CREATE (:Judgment {id: 'judgment-late', mention: 'GDS', candidate_id: 'neo4j', candidate_name: 'Neo4j',"
        " verdict: 'NOT_SAME', source_id: $src, concept_id: 'gds', reviewed: false})",
        src=ids["gds.md"],
    )
    reject(store, "judgment-gds", now=NOW)

    outcome = reject(store, "judgment-late", now=NOW)

    assert (outcome.action, outcome.concept_id) == ("recorded", "neo4j")


@pytest.mark.parametrize(
    "text, outcome",
    [
        ("CQL is imperative.", "moved"),
        ("CQL differs from Cypher.", "shared"),
        ("It is imperative.", "kept"),
        ("Cypher is declarative.", "kept"),
    ],
)
def test_a_claim_follows_the_split_mention_only_where_its_text_decides_it(text, outcome):
    node = {"name": "Cypher", "aliases": ["CQL", "openCypher"]}

    plan = plan_split("CQL", node, "irrelevant", [{"id": "c", "text": text}])

    found = "moved" if plan.moved else "shared" if plan.shared else "kept"
    assert found == outcome
    assert (plan.aliases, plan.keys) == (["openCypher"], ["cypher", "opencypher"])
    assert plan.keep_citation == (outcome != "moved")


def test_the_old_node_keeps_citing_the_source_while_the_text_still_names_it():
    node = {"name": "Neo4j", "aliases": ["Neo4j GDS"]}

    plan = plan_split("Neo4j GDS", node, "Neo4j GDS runs on Neo4j.", [{"id": "c", "text": "Neo4j GDS is fast."}])

    assert plan.moved == ["c"] and plan.keep_citation  # "Neo4j" alone is still in the text
    assert not plan_split(
        "Neo4j GDS", node, "Neo4j GDS is fast.", [{"id": "c", "text": "Neo4j GDS is fast."}]
    ).keep_citation
