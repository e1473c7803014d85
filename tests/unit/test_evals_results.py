"""An eval's typed result is the JSON object its run always printed: the same keys in the same
order with the same values, so ``--json`` and the baselines read exactly what they did, while
the CLI, bench and the Dagster assets read the fields."""

from __future__ import annotations

import copy
import json

import pytest
from pydantic import ValidationError

from graphwiki_assets.core.evals import baselines, kinds, reports
from graphwiki_assets.core.evals.results.contradictions import ContradictionsResult, EndToEnd
from graphwiki_assets.core.evals.results.er import ErResult
from graphwiki_assets.core.evals.results.retrieval import MultihopResult
from graphwiki_assets.core.query.retrieval import GRAPH_METHODS

PRF = {"precision": 0.5, "recall": 1.0, "f1": 0.6667, "tp": 1, "fp": 1, "fn": 0, "tn": 2}
# An ER run in pair mode as it was printed: the keys in the order the run made them.
ER = {
    "name": "handful",
    "n": 4,
    "counts": {"same": 1, "related": 1, "unrelated": 2},
    "embedding_model": "all-MiniLM-L6-v2",
    "text_form": "name and identity encoded apart, mixed by words",
    "judge": "offline-rules/v3",
    "stage1_config": {"top_k": 5, "floor": 0.5, "judge_pairs_per_call": 8},
    "cosine_only": {
        "by_class": {
            "same": {"n": 1, "mean": 0.9, "min": 0.9, "q1": 0.9, "median": 0.9, "q3": 0.9, "max": 0.9},
            "related": {"n": 1, "mean": 0.6, "min": 0.6, "q1": 0.6, "median": 0.6, "q3": 0.6, "max": 0.6},
            "unrelated": {"n": 0},
        },
        "best_f1": 1.0,
        "best_threshold": 0.9,
        "best_precision": 1.0,
        "best_recall": 1.0,
        "f1_at_0_55": 0.6667,
        "precision_at_0_55": 0.5,
        "recall_at_0_55": 1.0,
        "f1_at_floor": 0.6667,
        "all_same_f1": 0.4,
    },
    "stage1": {"same_passed": 1.0, "related_passed": 1.0, "unrelated_screened": 1.0, "survivors": 2},
    "two_stage": {
        **PRF,
        "llm_calls": 1,
        "judged_pairs": 2,
        "verdicts_by_label": {"same": {"SAME": 1}, "related": {"SAME": 1}, "unrelated": {}},
        "errors_by_cause": {"judge:false_same": 1},
        "prompt_tokens": 0,
        "llm_usage": {"calls": 0, "cache_hits": 1, "prompt_tokens": 0, "completion_tokens": 0},
    },
    "errors": [
        {
            "pair": 1,
            "domain": "software",
            "label": "related",
            "a": "Neo4j",
            "b": "Cypher",
            "score": 0.6,
            "predicted": "same",
            "cause": "judge",
            "reason": "shared words",
        }
    ],
    "by_domain": {"software": {"n": 4, "same_passed": 1.0, "f1": 0.6667}},
    "by_split": {},
    "pairs": [
        {
            "pair": 0,
            "domain": "software",
            "label": "same",
            "a": "Neo4j",
            "b": "Neo4j DB",
            "cosine": 0.9,
            "stage1": True,
            "predicted": "same",
        }
    ],
    "seconds": 3,
}


def _printed(data: dict) -> str:
    return json.dumps(data, indent=2, default=str, ensure_ascii=False)


def test_a_result_prints_as_the_object_its_run_made():
    result = ErResult.of(copy.deepcopy(ER))
    assert _printed(result.as_json()) == _printed(ER)  # keys, order, ints and floats alike
    assert result.two_stage.f1 == 0.6667 and result.errors[0].cause == "judge"
    assert result.population is None and "population" not in result.as_json()  # pair mode: no key at all
    assert result.cosine_only.by_class["unrelated"].as_json() == {"n": 0}


def test_a_value_of_the_wrong_kind_is_refused_not_coerced():
    with pytest.raises(ValidationError):
        ErResult.of({**ER, "n": True})
    with pytest.raises(ValidationError):
        ErResult.of({**ER, "seconds": "3"})
    with pytest.raises(ValidationError):
        ErResult.of({**ER, "unknown": 1})  # a key the result does not declare


def test_a_field_set_after_the_run_comes_where_the_run_put_it():
    pairs = {
        "name": "tiny",
        "backend": "offline-rules/v3",
        "embedding_model": "m",
        "counts": {"contradicts": 1, "consistent": 0, "unrelated_aspect": 0},
        "config": {"similarity_floor": 0.4, "per_claim": 3, "pairs_per_call": 8},
        "n": 1,
        "catch_rate": 1.0,
        "false_alarm": {"consistent": None, "unrelated_aspect": None, "all": None},
        "precision": 1.0,
        "caught": 1,
        "contradicts": 1,
        "false_alarms": 0,
        "not_contradicts": 0,
        "by_split": {},
        "by_kind": {},
        "outcomes": {"contradicts": {"contradicts": 1}},
        "screened": {"contradicts": 0.0},
        "cosine_by_label": {"contradicts": {"n": 0}},
        "llm_calls": 1,
        "cache_hits": 0,
        "prompt_tokens": 10,
        "completion_tokens": 2,
        "errors": [],
        "pairs": [],
        "seconds": 0.5,
    }
    summary = {
        "injected": 0,
        "found": 0,
        "catch_rate": None,
        "found_any_status": 0,
        "compared_with_target": 0,
        "without_claims": 0,
        "controls": 0,
        "false_alarms": 0,
        "false_alarm_rate": None,
    }
    ingest = {
        "backend": "offline-rules/v3",
        "passages": 0,
        "sources_new": 0,
        "sources_failed": 0,
        "concepts": {"created": 0, "merged": 0},
        "claims": 0,
        "llm_calls": 0,
        "prompt_tokens": 0,
        "cache_hits": 0,
        "llm_calls_per_passage": 0.0,
        "prompt_tokens_per_passage": None,
        "seconds": 0.1,
        "seconds_per_passage": 0.1,
    }
    injected = {"sources": {"new": 0}, "claims": 0, "contradictions": 0, "settled": 0, "llm_calls": 0}
    end_to_end = {
        **summary,
        "by_split": {},
        "corpus_contradictions": 0,
        "contradictions_after": 0,
        "ingest": {
            "corpus": ingest,
            "injected": {**injected, "prompt_tokens": 0},
            "conflict_calls": 0,
            "conflict_prompt_tokens": 0,
        },
        "injections": [],
        "seconds": 1.25,
    }
    result = ContradictionsResult.of(pairs).with_(
        end_to_end=EndToEnd.of(end_to_end).with_(corpus="c.jsonl", injections_file="i.jsonl")
    )
    printed = {**pairs, "end_to_end": {**end_to_end, "corpus": "c.jsonl", "injections_file": "i.jsonl"}}
    assert _printed(result.as_json()) == _printed(printed)
    assert result.false_alarm.all is None and result.as_json()["false_alarm"]["all"] is None  # null, not left out


def test_every_graph_method_has_its_own_field_beside_flat_and_graph():
    assert set(GRAPH_METHODS) <= set(MultihopResult.model_fields)


def test_the_report_bench_and_baselines_read_the_typed_result():
    result = ErResult.of(copy.deepcopy(ER))
    assert "two-stage: P 0.500 R 1.000 F1 0.667, 1 LLM calls (2 pairs judged)" in reports.er_text(result)
    assert kinds.ER.headline(result).as_dict()["two_stage.f1"] == 0.6667
    committed = {"evals": {"er_eval_general": {"higher_is_better": {"two_stage.f1": 0.68}}}}
    [check] = baselines.compare("er_eval_general", result, committed)
    assert (check.value, check.passed) == (0.6667, True)  # within the default tolerance
    extras = kinds.ER.bench_extras(result)
    assert extras["errors"] == ER["errors"] and extras["population_errors"] is None


def test_the_asset_tables_are_made_from_the_result_s_fields():
    from graphwiki_assets.defs.evals.assets import er_metadata

    metadata = er_metadata(ErResult.of(copy.deepcopy(ER)))
    assert metadata["two_stage.f1"].value == 0.6667 and metadata["judge"] == "offline-rules/v3"
    [pair] = (r.data for r in metadata["stages"].records)
    assert pair["mode"] == "pair" and pair["stage1"] == "cosine >= 0.5" and pair["llm_calls"] == 1
    said = {r.data["label"]: r.data for r in metadata["verdicts_by_label"].records}
    assert said["related"]["SAME"] == 1 and said["unrelated"]["SAME"] == 0
    assert metadata["by_split"].text == "this set has no split"
