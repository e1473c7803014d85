"""Each check finds one planted defect in an otherwise clean graph, and names exactly it."""

from __future__ import annotations

import pytest

from graphwiki_assets.core.lint import checks
from tests.support.clean_graph import NOW, YESTERDAY, plant_clean_graph


def test_an_orphan_concept_is_found_and_warned_about_above_the_target_rate(store):
    plant_clean_graph(store)
    store.query(
        "CREATE (:Concept {id: 'lonely', name: 'Lonely', type: 'Thing', aliases: [], status: 'current', "
        "needs_review: false, created_at: $at, updated_at: $at})",
        at=YESTERDAY,
    )

    result = checks.orphan_concepts(store)

    assert (result.count, result.total, result.offending, result.severity) == (1, 4, ("lonely",), "warn")
    assert result.ratio == 0.25


def test_orphans_below_the_target_rate_are_listed_without_a_warning(store):
    plant_clean_graph(store)
    store.query("CREATE (:Concept {id: 'lonely', name: 'Lonely', status: 'current'})")

    result = checks.orphan_concepts(store, max_rate=0.5)

    assert (result.count, result.offending, result.severity) == (1, ("lonely",), "info")


def test_a_superseded_concept_without_links_is_history_not_an_orphan(store):
    plant_clean_graph(store)
    store.query("CREATE (:Concept {id: 'old', name: 'Old', status: 'superseded', merged_into: 'neo4j'})")

    assert checks.orphan_concepts(store).count == 0


def test_a_claim_without_provenance_breaks_completeness(store):
    plant_clean_graph(store)
    store.query("MATCH (:Claim {id: 'claim-declarative'})-[d:DERIVED_FROM]->() DELETE d")

    result = checks.provenance_complete(store)

    assert (result.count, result.total, result.offending, result.severity) == (1, 7, ("claim-declarative",), "error")


DANGLING = {
    "judgment candidate": ("MATCH (j:Judgment {id: 'judgment-cql'}) SET j.candidate_id = 'ghost'", "judgment-cql"),
    "judgment source": ("MATCH (j:Judgment {id: 'judgment-gds'}) SET j.source_id = 'src-ghost'", "judgment-gds"),
    "merged_into": ("MATCH (c:Concept {id: 'gds'}) SET c.merged_into = 'ghost'", "gds"),
    "claim superseded_by": (
        "MATCH (c:Claim {id: 'claim-imperative'}) SET c.superseded_by = 'ghost'",
        "claim-imperative",
    ),
    "claim about nothing": ("MATCH (:Claim {id: 'claim-gds-plugin'})-[r:ABOUT]->() DELETE r", "claim-gds-plugin"),
    "DERIVED_FROM to a concept": (
        "MATCH (a:Concept {id: 'gds'}), (b:Concept {id: 'neo4j'}) CREATE (a)-[:DERIVED_FROM]->(b)",
        "gds -[DERIVED_FROM]-> neo4j",
    ),
    "about from a concept": (
        "MATCH (a:Concept {id: 'gds'}), (b:Concept {id: 'neo4j'}) CREATE (a)-[:ABOUT]->(b)",
        "gds -[ABOUT]-> neo4j",
    ),
    "CONTRADICTS to a concept": (
        "MATCH (a:Claim {id: 'claim-gds-plugin'}), (b:Concept {id: 'neo4j'}) CREATE (a)-[:CONTRADICTS]->(b)",
        "claim-gds-plugin -[CONTRADICTS]-> neo4j",
    ),
}


@pytest.mark.parametrize("defect", sorted(DANGLING))
def test_a_dangling_reference_is_found(store, defect):
    plant_clean_graph(store)
    statement, offender = DANGLING[defect]
    store.query(statement)

    result = checks.no_dangling_references(store)

    assert (result.count, result.offending, result.severity) == (1, (offender,), "error"), result.rows


def test_disputed_without_a_contradiction_and_contradicted_without_the_flag_are_both_found(store):
    plant_clean_graph(store)
    store.query("MATCH (c:Claim {id: 'claim-cql-queries'}) SET c.status = 'disputed'")
    store.query("MATCH (c:Claim {id: 'claim-declarative'}) SET c.status = 'current'")

    result = checks.disputed_iff_contradicted(store)

    assert result.offending == ("claim-cql-queries", "claim-declarative")
    assert (result.count, result.total, result.severity) == (2, 3, "error")
    assert [r["problem"] for r in result.rows] == [
        "disputed but no open CONTRADICTS",
        "open CONTRADICTS but not disputed",
    ]


def test_a_dispute_whose_other_side_is_superseded_is_no_longer_open(store):
    plant_clean_graph(store)
    store.query("MATCH (c:Claim {id: 'claim-imperative'}) SET c.status = 'superseded'")

    result = checks.disputed_iff_contradicted(store)

    assert result.offending == ("claim-declarative",)  # still flagged 'disputed', but nothing open
    assert checks.open_disputes(store, NOW).count == 0


def test_missing_and_invalid_properties_are_found(store):
    plant_clean_graph(store)
    store.query("MATCH (c:Concept {id: 'gds'}) REMOVE c.type")
    store.query("MATCH (c:Claim {id: 'claim-gds-plugin'}) SET c.status = 'maybe'")
    store.query("MATCH (j:Judgment {id: 'judgment-cql'}) SET j.verdict = 'PERHAPS'")
    # an edge of the old schema that no migration knows how to move
    store.query("MATCH (c:Concept {id: 'cypher'}), (n:Concept {id: 'neo4j'}) CREATE (c)-[:RELATES_TO]->(n)")

    result = checks.missing_properties(store)

    problems = {r["id"]: r["problems"] for r in result.rows}
    assert problems == {
        "gds": ["missing type"],
        "claim-gds-plugin": ["invalid status=maybe"],
        "judgment-cql": ["invalid verdict=PERHAPS"],
        "cypher -[RELATES_TO]-> neo4j": ["old relationship type, kind=null"],
    }
    assert (result.count, result.severity) == (4, "warn")


def test_needs_review_older_than_the_window_is_overdue(store):
    plant_clean_graph(store)
    store.query(
        "MATCH (c:Concept {id: 'neo4j'}) SET c.needs_review = true, c.needs_review_since = $since",
        since=NOW.replace(month=4),
    )
    store.query(
        "MATCH (c:Claim {id: 'claim-gds-plugin'}) SET c.needs_review = true, c.needs_review_since = $since",
        since=YESTERDAY,
    )

    result = checks.stale_needs_review(store, NOW, days=30)

    assert (result.count, result.total, result.offending, result.severity) == (1, 2, ("neo4j",), "warn")
    assert result.rows[0]["age_days"] == 61


def test_a_concept_with_more_relationships_than_the_limit_is_an_oversized_hub(store):
    plant_clean_graph(store)
    store.query(
        "MATCH (n:Concept {id: 'neo4j'}) UNWIND range(1, 200) AS i "
        "CREATE (:Concept {id: 'part-' + i, name: 'Part ' + i, status: 'current'})-[:PART_OF]->(n)"
    )

    result = checks.oversized_hubs(store)

    assert (result.count, result.offending, result.severity) == (1, ("neo4j",), "warn")
    assert result.rows[0]["degree"] == 209
    assert checks.oversized_hubs(store, limit=300).count == 0


def test_offenders_are_capped_but_the_count_is_the_full_total(store):
    store.query("UNWIND range(1, 30) AS i CREATE (:Concept {id: 'c' + right('0' + i, 2), status: 'current'})")

    result = checks.orphan_concepts(store, cap=5)

    assert result.count == 30 and len(result.offending) == 5 and result.offending[0] == "c01"
