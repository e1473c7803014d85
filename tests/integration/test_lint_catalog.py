"""The lint's view of the GDS catalog: a projection that lags the graph, and builds left behind."""

from __future__ import annotations

import time

from graphwiki_assets.core.lint.catalog import gds_catalog
from graphwiki_assets.core.query.projection import concept_layer, current_projection, refresh_projection
from graphwiki_assets.core.store.gds_client import gds


def test_a_graph_without_a_projection_is_fine_the_first_question_builds_one(store):
    result = gds_catalog(store)
    assert (result.count, result.severity) == (0, "info")
    assert "no projection yet" in result.description


def test_a_fresh_projection_passes(seed_graph):
    refresh_projection(seed_graph)
    result = gds_catalog(seed_graph)
    assert (result.count, result.total, result.severity) == (0, 2, "info")  # the build and its concept layer


def test_a_projection_that_lags_the_graph_is_named_with_both_counts(seed_graph):
    built = refresh_projection(seed_graph)
    seed_graph.query("CREATE (:Concept {id: 'lint-catalog-new', name: 'Newer Than The Projection', status: 'current'})")
    result = gds_catalog(seed_graph)
    assert result.severity == "warn" and result.offending == (built.name,)
    assert f"holds {built.nodes} nodes" in result.rows[0]["problem"]
    assert f"the graph {built.nodes + 1}" in result.rows[0]["problem"]


def test_older_builds_left_behind_are_listed_and_a_refresh_clears_them(seed_graph):
    refresh_projection(seed_graph)
    older = current_projection(seed_graph)
    older_layer = current_projection(seed_graph, concept_layer())
    assert older is not None and older_layer is not None
    # a refresh killed after its build and before its clean-up: a newer build beside the older
    source = gds(seed_graph).graph.get(older["name"])
    gds(seed_graph).graph.filter(source, f"graphwiki-query@{time.time_ns()}", "*", "*")
    gds(seed_graph).graph.filter(source, f"{concept_layer()}@{time.time_ns()}", "n:Concept", "*")
    result = gds_catalog(seed_graph)
    assert result.severity == "warn" and set(result.offending) == {older["name"], older_layer["name"]}
    refresh_projection(seed_graph)
    assert gds_catalog(seed_graph).count == 0
