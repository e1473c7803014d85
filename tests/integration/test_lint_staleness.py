"""Staleness is measured against a `now` passed in, so it is tested without waiting."""

from __future__ import annotations

from datetime import timedelta

from graphwiki_assets.core.lint import checks
from graphwiki_assets.core.lint.report import run_lint
from tests.support.clean_graph import NOW, plant_clean_graph

LATER = NOW + timedelta(days=100)


def test_nothing_is_stale_inside_the_window(store):
    plant_clean_graph(store)

    assert checks.stale_sources(store, NOW, days=90).count == 0
    assert checks.stale_concepts(store, NOW, days=90).count == 0


def test_sources_and_concepts_untouched_for_longer_than_the_window_are_stale(store):
    ids = plant_clean_graph(store)

    sources = checks.stale_sources(store, LATER, days=90)
    concepts = checks.stale_concepts(store, LATER, days=90)

    assert (sources.count, sources.severity, set(sources.offending)) == (3, "warn", set(ids.values()))
    assert sources.rows[0]["age_days"] == 101
    assert (concepts.count, set(concepts.offending)) == (3, {"cypher", "gds", "neo4j"})
    assert checks.stale_sources(store, LATER, days=120).count == 0  # the window is configurable


def test_a_re_seen_source_freshens_it_and_every_concept_derived_from_it(store):
    ids = plant_clean_graph(store)
    store.query("MATCH (s:Source {id: $id}) SET s.last_seen_at = $seen", id=ids["cypher.md"], seen=LATER)

    assert set(checks.stale_sources(store, LATER, days=90).offending) == {ids["cql.md"], ids["gds.md"]}
    assert checks.stale_concepts(store, LATER, days=90).offending == ("gds",)


def test_an_updated_concept_is_fresh_and_superseded_sources_are_not_stale(store):
    ids = plant_clean_graph(store)
    store.query("MATCH (c:Concept {id: 'gds'}) SET c.updated_at = $t", t=LATER)
    store.query("MATCH (s:Source) WHERE s.id <> $keep SET s.status = 'superseded'", keep=ids["gds.md"])

    assert checks.stale_sources(store, LATER, days=90).offending == (ids["gds.md"],)
    assert set(checks.stale_concepts(store, LATER, days=90).offending) == {"cypher", "neo4j"}


def _date_source(store, source_id: str, date) -> None:
    store.query("MATCH (s:Source {id: $id}) SET s.date = $date", id=source_id, date=date)


def test_claims_last_stated_before_the_window_are_counted_as_possibly_outdated_with_a_sample(store):
    ids = plant_clean_graph(store)
    _date_source(store, ids["cypher.md"], (NOW - timedelta(days=400)).date())
    _date_source(store, ids["cql.md"], (NOW - timedelta(days=10)).date())
    old = {
        r["id"]
        for r in store.query(
            "MATCH (c:Claim)-[:DERIVED_FROM]->(:Source {id: $id}) RETURN c.id AS id", id=ids["cypher.md"]
        )
    }

    result = checks.possibly_outdated(store, NOW, days=90, size=10)

    assert (result.count, result.severity, set(result.offending)) == (len(old), "info", old)
    row = result.rows[0]
    assert row["last_stated"] == (NOW - timedelta(days=400)).date().isoformat() and row["age_days"] == 400
    assert row["source"] == "cypher.md"
    assert "claims dated" in result.description
    assert checks.possibly_outdated(store, NOW, days=500).count == 0  # the window is the config's
    assert len(checks.possibly_outdated(store, NOW, days=90, size=1).rows) == 1  # a sample, the count stays
    assert checks.possibly_outdated(store, NOW, days=90, size=1).count == len(old)


def test_undated_claims_are_never_possibly_outdated(store):
    plant_clean_graph(store)
    result = checks.possibly_outdated(store, NOW + timedelta(days=10_000), days=1)
    assert (result.count, result.rows) == (0, ())
    assert "0 of 4 claims dated" in result.description


def test_the_lint_report_lists_possibly_outdated_claims(store):
    ids = plant_clean_graph(store)
    _date_source(store, ids["gds.md"], (NOW - timedelta(days=400)).date())
    report = run_lint(store, now=NOW)
    result = report.check("possibly_outdated")
    assert result.count >= 1 and result.passed
    assert "### possibly_outdated" in report.markdown()
    assert report.metrics["possibly_outdated_count"] == result.count
