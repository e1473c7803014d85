"""The lint report in Dagster: an asset after ingest, on a daily schedule that is on, with
markdown + a table per check + numbers as metadata, and asset checks that warn or fail by severity."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import dagster as dg

from graphwiki_assets.defs.lint.assets import lint_report
from graphwiki_assets.defs.lint.definitions import daily_lint
from graphwiki_assets.defs.lint.definitions import defs as lint_defs
from graphwiki_assets.defs.resources import GraphwikiConfig, Neo4jResource
from tests.support.clean_graph import TEXTS, plant_clean_graph


def plant_recent_graph(store):
    """The asset lints against the real clock, so the graph is planted as of yesterday."""
    return plant_clean_graph(store, at=datetime.now(UTC) - timedelta(days=1))


# The lint area on its own, with the resources it declares.
LOCATION = lint_defs()


def resources(settings, sources_dir) -> dict:
    neo4j = settings.neo4j
    return {
        "neo4j": Neo4jResource(uri=neo4j.uri, username=neo4j.username, password=neo4j.password),
        "graphwiki": GraphwikiConfig(home=str(sources_dir.parent), sources_dir=str(sources_dir)),
    }


def materialize(settings, sources_dir, config: dict | None = None) -> dg.ExecuteInProcessResult:
    return dg.materialize(
        [lint_report],
        resources=resources(settings, sources_dir),
        raise_on_error=True,
        run_config={"ops": {"lint_report": {"config": config or {}}}},
    )


def checks_by_name(result) -> dict[str, dg.AssetCheckEvaluation]:
    return {e.check_name: e for e in result.get_asset_check_evaluations()}


def test_the_daily_schedule_is_registered_in_the_code_location_and_running_by_default():
    from graphwiki_assets.definitions import defs as location

    full = location() if callable(location) else location
    schedule = full.resolve_schedule_def("daily_lint")
    assert schedule.default_status == dg.DefaultScheduleStatus.RUNNING
    assert (schedule.job_name, schedule.cron_schedule) == ("lint_graph", daily_lint.cron_schedule)
    assert full.resolve_job_def("lint_graph").asset_layer.executable_asset_keys == {dg.AssetKey("lint_report")}


def test_the_report_runs_after_the_ingest_and_carries_one_check_per_lint_check():
    spec = LOCATION.resolve_assets_def("lint_report")
    assert dg.AssetKey("claim_links") in spec.asset_deps[dg.AssetKey("lint_report")]
    assert spec.group_names_by_key[dg.AssetKey("lint_report")] == "lint"
    assert {k.name for k in spec.check_keys} >= {"orphan_concepts", "provenance_complete", "judgment_sample"}


def test_a_clean_graph_materialises_with_markdown_tables_and_numbers_and_all_checks_pass(store, settings, tmp_path):
    plant_recent_graph(store)

    result = materialize(settings, tmp_path / "sources")

    meta = result.asset_materializations_for_node("lint_report")[0].metadata
    assert isinstance(meta["report"], dg.MarkdownMetadataValue) and "## Checks" in meta["report"].value
    assert isinstance(meta["check_open_disputes"], dg.TableMetadataValue)
    assert len(meta["check_open_disputes"].records) == 1
    assert meta["check_no_dangling_references"].value == "none found"  # not an empty table
    assert meta["orphan_rate"].value == 0.0 and meta["provenance_completeness"].value == 1.0
    assert meta["dangling_references"].value == 0 and meta["concepts"].value == 3
    assert all(e.passed for e in checks_by_name(result).values())


def test_asset_checks_warn_or_fail_by_severity(store, settings, tmp_path):
    plant_recent_graph(store)
    store.query("MATCH (:Claim {id: 'claim-gds-plugin'})-[d:DERIVED_FROM]->() DELETE d")  # error
    store.query("CREATE (:Concept {id: 'lonely', name: 'Lonely', status: 'current'})")  # warn

    evaluations = checks_by_name(materialize(settings, tmp_path / "sources", {"hub_limit": 500}))

    assert not evaluations["provenance_complete"].passed
    assert evaluations["provenance_complete"].severity == dg.AssetCheckSeverity.ERROR
    assert not evaluations["orphan_concepts"].passed
    assert evaluations["orphan_concepts"].severity == dg.AssetCheckSeverity.WARN
    assert evaluations["no_dangling_references"].passed


def test_flag_drift_marks_the_dependents_of_a_changed_file(store, settings, tmp_path):
    plant_recent_graph(store)
    folder = tmp_path / "sources"
    folder.mkdir()
    for name, text in TEXTS.items():
        (folder / name).write_text(text if name != "gds.md" else text + "\nGDS changed.", encoding="utf-8")

    evaluations = checks_by_name(materialize(settings, folder, {"flag_drift": True}))

    assert evaluations["source_files_unchanged"].severity == dg.AssetCheckSeverity.WARN
    assert not evaluations["source_files_unchanged"].passed
    flagged = {r["id"] for r in store.query("MATCH (n) WHERE n.needs_review = true RETURN n.id AS id")}
    assert flagged == {"gds", "neo4j", "claim-gds-plugin"}
