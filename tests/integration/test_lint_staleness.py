"""Staleness is measured against a `now` passed in, so it is tested without waiting."""

from __future__ import annotations

from datetime import timedelta

from graphwiki_assets.core.lint import checks
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
