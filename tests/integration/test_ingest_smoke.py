"""The seed's smoke test, on the real pipeline: merge synonyms, keep related apart, keep conflicts."""

from __future__ import annotations

from tests.support.ingest import SMOKE_TEXTS, concept_named, counts, ingest, write_sources


def test_seed_smoke_graph(store, embedder, settings, tmp_path):
    report = ingest(store, embedder, settings, write_sources(tmp_path, SMOKE_TEXTS)).as_dict()
    assert report["sources"]["new"] == 3
    assert report["backend"].startswith("offline")

    # A same-name mention and a stated synonym end up in one Cypher node.
    cypher = concept_named(store, "Cypher")
    assert len(cypher) == 1
    assert concept_named(store, "CQL") == cypher
    sources = store.query(
        "MATCH (:Concept {id: $id})-[:DERIVED_FROM]->(s:Source) RETURN count(s) AS n", id=cypher[0]["id"]
    )
    assert sources[0]["n"] >= 2

    # Related but distinct: Neo4j and Neo4j Graph Data Science stay separate, connected.
    neo4j = concept_named(store, "Neo4j")
    gds = concept_named(store, "Neo4j Graph Data Science")
    assert len(neo4j) == 1 and len(gds) == 1 and neo4j[0]["id"] != gds[0]["id"]
    linked = store.query(
        "MATCH (a:Concept {id: $a})-[:RELATED_TO]-(b:Concept {id: $b}) RETURN count(*) AS n",
        a=neo4j[0]["id"],
        b=gds[0]["id"],
    )
    assert linked[0]["n"] >= 1

    # Declarative vs imperative: CONTRADICTS, both disputed, neither deleted.
    disputes = store.query(
        "MATCH (a:Claim)-[:CONTRADICTS]->(b:Claim) RETURN a.text AS a, a.status AS sa, b.text AS b, b.status AS sb"
    )
    assert len(disputes) == 1
    pair = disputes[0]
    assert {"declarative", "imperative"} <= set((pair["a"] + " " + pair["b"]).lower().replace(".", "").split())
    assert pair["sa"] == pair["sb"] == "disputed"

    # Every stage-2 judgment is on record, unreviewed, with its backend.
    judgments = store.query("MATCH (j:Judgment) RETURN j.verdict AS verdict, j.reviewed AS reviewed, j.backend AS b")
    assert judgments and all(j["reviewed"] is False and j["b"] for j in judgments)
    verdicts = {j["verdict"] for j in judgments}
    assert "SAME" in verdicts and verdicts & {"RELATED", "DIFFERENT"} and verdicts <= {"SAME", "RELATED", "DIFFERENT"}


def test_every_node_has_provenance_and_claims_are_about_concepts(store, embedder, settings, tmp_path):
    ingest(store, embedder, settings, write_sources(tmp_path, SMOKE_TEXTS))
    orphans = store.query(
        "MATCH (n) WHERE (n:Concept OR n:Claim) AND NOT (n)-[:DERIVED_FROM]->(:Source) RETURN count(n) AS n"
    )
    assert orphans[0]["n"] == 0
    aboutless = store.query("MATCH (c:Claim) WHERE NOT (c)-[:ABOUT]->(:Concept) RETURN count(c) AS n")
    assert aboutless[0]["n"] == 0
    assert counts(store)["nodes"] > 10


def test_materialising_twice_changes_nothing_and_costs_no_llm_call(store, embedder, settings, tmp_path):
    paths = write_sources(tmp_path, SMOKE_TEXTS)
    ingest(store, embedder, settings, paths)
    before = counts(store)
    again = ingest(store, embedder, settings, paths).as_dict()
    assert again["sources"] == {"new": 0, "unchanged": 3, "skipped": 0, "failed": 0}
    assert again["llm_calls"] == 0
    assert counts(store) == before
