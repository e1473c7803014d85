"""The report: every check, the seed's targets, markdown with a table per check, plain data."""

from __future__ import annotations

import json

from graphwiki_assets.core.lint.report import LintConfig, run_lint
from graphwiki_assets.core.lint.verify import verify_graph
from tests.support.clean_graph import NOW, plant_clean_graph


def test_the_markdown_has_a_summary_the_targets_and_a_table_per_check(store):
    plant_clean_graph(store)
    store.query("UNWIND range(1, 4) AS i CREATE (:Concept {id: 'orphan-' + i, name: 'O|' + i, status: 'current'})")

    report = run_lint(store, now=NOW, config=LintConfig(cap=3))
    md = report.markdown()

    assert "| orphan_concepts | WARN | 4 | 7 | 57.14% |" in md
    assert "| orphan_rate | 0.5714 | < 0.05 | no |" in md
    assert "| provenance_completeness | 0.6364 | = 1.0 | no |" in md  # the orphans cite nothing either
    assert md.count("\n### ") == len(report.checks)
    assert "| orphan-1 | O\\|1 |  |" in md  # cells are escaped; a missing type is an empty cell
    assert "… and 1 more (4 in total)." in md
    assert "### stale_sources — ok" in md and "Nothing found." in md


def test_the_report_as_data_is_json_and_its_severity_is_the_worst_check(store):
    plant_clean_graph(store)
    store.query("MATCH (s:Source) WITH s LIMIT 1 SET s.text = 'tampered'")

    report = run_lint(store, now=NOW)
    data = json.loads(json.dumps(report.as_dict()))

    assert data["severity"] == report.severity == "error"
    assert [c["name"] for c in data["checks"] if not c["passed"]] == ["source_text_unchanged"]
    assert data["generated_at"] == NOW.isoformat()
    assert {
        "orphan_rate",
        "provenance_completeness",
        "dangling_references",
        "contested_flag_accuracy",
        "sources",
        "concepts",
        "claims",
        "judgments",
        "relationships",
    } <= set(data["metrics"])
    assert all(isinstance(v, (int, float)) for v in data["metrics"].values())


def test_verify_results_carry_what_the_blocking_ingest_checks_read(store):
    plant_clean_graph(store)
    store.query("MATCH (:Claim {id: 'claim-gds-plugin'})-[d:DERIVED_FROM]->() DELETE d")

    results = {r.name: r for r in verify_graph(store)}

    assert results["provenance_complete"].count == 1
    assert list(results["provenance_complete"].offending) == ["claim-gds-plugin"]
    assert not results["provenance_complete"].passed and results["no_dangling_references"].passed
