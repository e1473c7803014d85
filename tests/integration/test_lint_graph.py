"""The lint's verdict on the small clean graph of tests/support/clean_graph.py."""

from __future__ import annotations

from graphwiki_assets.core.lint.report import LintConfig, run_lint
from graphwiki_assets.core.lint.verify import GATES, verify_graph
from tests.support.clean_graph import DEFECT_CHECKS, NOW, plant_clean_graph


def test_every_defect_check_is_silent_on_a_clean_graph(store):
    plant_clean_graph(store)

    report = run_lint(store, now=NOW)

    assert {c.name for c in report.checks} == DEFECT_CHECKS | {"open_disputes", "judgment_sample", "possibly_outdated"}
    for name in DEFECT_CHECKS:
        result = report.check(name)
        assert (result.count, result.offending, result.severity) == (0, (), "info"), result
    assert report.severity == "info"
    assert report.metrics["orphan_rate"] == 0.0
    assert report.metrics["provenance_completeness"] == 1.0
    assert report.metrics["dangling_references"] == 0
    assert report.metrics["contested_flag_accuracy"] == 1.0


def test_deliberate_states_are_listed_but_not_warned_about(store):
    plant_clean_graph(store)

    report = run_lint(store, now=NOW)

    disputes = report.check("open_disputes")
    assert (disputes.count, disputes.severity) == (1, "info")
    assert disputes.offending == ("claim-imperative vs claim-declarative",)
    assert disputes.rows[0]["age_days"] == 10
    sample = report.check("judgment_sample")
    assert (sample.count, sample.total, sample.severity) == (2, 2, "info")
    assert {r["verdict"] for r in sample.rows} == {"SAME", "NOT_SAME"}


def test_an_empty_graph_is_clean_and_its_ratios_are_defined(store):
    report = run_lint(store, now=NOW, config=LintConfig())

    assert all(c.count == 0 and c.severity == "info" for c in report.checks)
    assert report.metrics["provenance_completeness"] == 1.0
    assert report.metrics["contested_flag_accuracy"] == 1.0


def test_the_verify_gates_pass_on_a_clean_graph(store):
    plant_clean_graph(store)

    results = verify_graph(store)

    assert [r.name for r in results] == list(GATES)
    assert all(r.count == 0 and r.passed for r in results)
