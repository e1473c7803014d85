"""Eval arithmetic and the baseline comparison, without a graph or a model."""

from __future__ import annotations

import json

import pytest

from graphwiki_assets.core.evals import baselines, metrics
from graphwiki_assets.core.evals.instance import EvalInstanceError, eval_settings
from graphwiki_assets.core.settings import Settings


def test_best_threshold_is_the_cut_with_the_highest_f1():
    scores = [0.9, 0.8, 0.7, 0.6, 0.5]
    actual = [True, False, True, False, False]
    best = metrics.best_threshold(scores, actual)
    # Cutting at 0.7 keeps both positives and one negative: P 2/3, R 1, F1 0.8.
    assert best["threshold"] == 0.7
    assert best["f1"] == pytest.approx(0.8)
    assert metrics.at_threshold(scores, actual, 0.95)["f1"] == 0.0


def test_retrieval_scores_one_question():
    row = metrics.retrieval_scores(["d1", "d2", "d3"], ["d1", "d4"])
    assert row == {"recall": 0.5, "all_found": False, "docs": 3, "precision": pytest.approx(1 / 3)}
    assert metrics.retrieval_scores(["d4", "d1"], ["d1", "d4"])["all_found"]


def _baselines(value: float, tolerance: float = 0.02) -> dict:
    return {
        "tolerance": tolerance,
        "evals": {
            "er_eval_general": {
                "higher_is_better": {"two_stage.f1": value},
                "lower_is_better": {"ingest.prompt_tokens_per_passage": {"value": 100, "tolerance": 10}},
            }
        },
    }


def test_a_metric_below_baseline_minus_tolerance_is_a_regression():
    result = {"two_stage": {"f1": 0.70}, "ingest": {"prompt_tokens_per_passage": 105}}
    assert not baselines.regressions(baselines.compare("er_eval_general", result, _baselines(0.71)))
    failed = baselines.regressions(baselines.compare("er_eval_general", result, _baselines(0.75)))
    assert [c.metric for c in failed] == ["two_stage.f1"]
    assert "baseline 0.75" in failed[0].describe()


def test_lower_is_better_metrics_and_missing_metrics_regress_too():
    costly = {"two_stage": {"f1": 0.9}, "ingest": {"prompt_tokens_per_passage": 111}}
    assert [c.metric for c in baselines.regressions(baselines.compare("er_eval_general", costly, _baselines(0.5)))] == [
        "ingest.prompt_tokens_per_passage"
    ]
    assert baselines.regressions(baselines.compare("er_eval_general", {}, _baselines(0.5)))


def test_a_run_is_compared_only_with_the_numbers_of_the_backend_it_ran_on():
    committed = _baselines(0.5) | {"local": {"label": "openai:tiny", "evals": _baselines(0.9)["evals"]}}
    result = {"two_stage": {"f1": 0.7}, "ingest": {"prompt_tokens_per_passage": 100}}
    assert not baselines.regressions(baselines.compare("er_eval_general", result, committed, "offline-rules/v3"))
    local = baselines.regressions(baselines.compare("er_eval_general", result, committed, "openai:tiny"))
    assert [c.metric for c in local] == ["two_stage.f1"]
    # a model no numbers were committed for has nothing to regress against, not the rules' numbers
    assert baselines.compare("er_eval_general", result, committed, "openai:gpt-4o-mini") == []


def test_recording_a_models_run_keeps_the_offline_gate_and_adds_its_own_section():
    committed = _baselines(0.5)
    result = {"two_stage": {"f1": 0.81234}, "ingest": {"prompt_tokens_per_passage": 120}}
    about = {"date": "2026-12-03", "backend": "openai:tiny"}
    out = baselines.record(committed, "openai:tiny", "local", "er_eval_general", result, about)
    assert out["evals"] == committed["evals"]  # the rules' numbers are untouched
    entry = out["local"]["evals"]["er_eval_general"]
    assert out["local"]["label"] == "openai:tiny" and entry["backend"] == "openai:tiny"
    assert entry["higher_is_better"] == {"two_stage.f1": 0.8123}
    # a metric's own tolerance is kept with the new value
    assert entry["lower_is_better"] == {"ingest.prompt_tokens_per_passage": {"value": 120.0, "tolerance": 10}}
    assert not baselines.regressions(baselines.compare("er_eval_general", result, out, "openai:tiny"))
    rules = baselines.record(committed, "offline-rules/v3", "local", "er_eval_general", result, about)
    assert rules["evals"]["er_eval_general"]["higher_is_better"] == {"two_stage.f1": 0.8123} and "local" not in rules


def test_committed_baselines_name_date_backend_and_command():
    committed = baselines.load()
    assert committed["evals"], "evals/baselines.json has no entries"
    for name, entry in committed["evals"].items():
        assert {"date", "backend", "command", "higher_is_better"} <= set(entry), name
    json.dumps(committed)


def test_eval_instance_is_its_own_launcher_instance_never_the_users_graph(tmp_path):
    user = Settings.from_env({"GRAPHWIKI_HOME": str(tmp_path)})
    ev = eval_settings(user, {})
    assert ev.neo4j.uri == "bolt://127.0.0.1:7688"
    assert ev.server.home == (tmp_path / "eval" / "neo4j").resolve()
    assert eval_settings(user, {"GRAPHWIKI_EVAL_BOLT_PORT": "7699"}).neo4j.uri.endswith(":7699")
    with pytest.raises(EvalInstanceError):
        eval_settings(user, {"GRAPHWIKI_EVAL_NEO4J_URI": user.neo4j.uri})
