"""`graphwiki lint [--json]` prints the same report as the asset, and exits 2 on a failed gate."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from tests.support.clean_graph import TEXTS, plant_clean_graph


def plant(store):
    return plant_clean_graph(store, at=datetime.now(UTC) - timedelta(days=1))


def test_lint_prints_markdown_with_a_table_per_check(store, cli):
    plant(store)

    code, out = cli("lint")

    assert code == 0
    assert out.startswith("# Graph lint")
    assert "### orphan_concepts — ok" in out and "### open_disputes — ok" in out
    assert "| claim-imperative vs claim-declarative |" in out


def test_lint_json_has_checks_metrics_and_targets(store, cli):
    plant(store)

    code, out = cli("lint", "--json", "--stale-days", "0", "--hub-limit", "3")

    data = json.loads(out)
    checks = {c["name"]: c for c in data["checks"]}
    assert code == 0 and data["severity"] == "warn"
    assert checks["stale_sources"]["count"] == 3  # a zero-day window makes everything stale
    assert checks["oversized_hubs"]["offending"][0] == "neo4j"
    assert data["metrics"]["provenance_completeness"] == 1.0
    assert data["config"]["stale_days"] == 0 and data["targets"]["orphan_rate"] == "< 0.05"


def test_lint_exits_2_when_a_hard_gate_fails(store, cli):
    plant(store)
    store.query("MATCH (j:Judgment {id: 'judgment-cql'}) SET j.concept_id = 'ghost'")

    code, out = cli("lint", "--json")

    assert code == 2
    assert json.loads(out)["severity"] == "error"


def test_lint_flag_drift_flags_what_derives_from_a_changed_file(store, cli, tmp_path):
    plant(store)
    (tmp_path / "sources").mkdir()
    for name, text in TEXTS.items():
        (tmp_path / "sources" / name).write_text(text + ("\nChanged." if name == "cypher.md" else ""), encoding="utf-8")

    code, out = cli("lint", "--json", "--flag-drift")

    flagged = json.loads(out)["drift_flagged"]
    assert code == 0
    assert [set(v) for v in flagged.values()] == [{"cypher", "neo4j", "claim-declarative"}]
