"""The eval and bench tables as DataFrames: per-split summaries in a fixed order, the spread
of a distribution, and the query bench's per-technique summary, as plain JSON values."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from graphwiki_assets.core.evals import metrics
from graphwiki_assets.core.evals.ingest_bench import by_task
from graphwiki_assets.core.evals.query_bench import _summary, concurrent_summary, percentile, spread, timings


def test_per_split_summarises_tune_then_report_and_leaves_other_halves_out():
    frame = pd.DataFrame({"split": ["report", "tune", "", "report", "dev"], "x": [1, 2, 3, 4, 5]})

    halves = metrics.per_split(frame, lambda half: {"n": len(half), "sum": int(half["x"].sum())})

    assert list(halves) == ["tune", "report"]  # not the sorted order a groupby keeps
    assert halves == {"tune": {"n": 1, "sum": 2}, "report": {"n": 2, "sum": 5}}
    assert metrics.per_split(frame[frame["split"] == "tune"], len) == {"tune": 1}


def test_distribution_is_the_five_numbers_and_the_mean_rounded():
    d = metrics.distribution([4.0, 1.0, 3.0, 2.0])

    assert d == {"n": 4, "mean": 2.5, "min": 1.0, "q1": 1.75, "median": 2.5, "q3": 3.25, "max": 4.0}
    assert metrics.distribution([]) == {"n": 0}
    assert json.loads(json.dumps(d)) == d  # plain floats and ints


def test_percentiles_are_nearest_ranks_on_every_size():
    # the rank is round(q * (n - 1)), half to even: 4 values, p50 is the 2nd (index 1.5 -> 2)
    assert percentile([10.0, 20.0, 30.0, 40.0], 0.5) == 30.0
    assert percentile(list(range(30)), 0.95) == 28.0 and percentile(list(range(30)), 0.99) == 29.0
    s = spread([5.0, 1.0, 3.0])
    assert s == {"p50": 3.0, "p95": 5.0, "p99": 5.0, "mean": 3.0, "n": 3}
    assert spread([]) == {"p50": 0.0, "p95": 0.0, "p99": 0.0, "mean": 0.0, "n": 0}


def _answer(ms: float, shape: str = "what_is", found: bool = True) -> dict:
    phases = {"linking": ms / 4, "retrieval": ms / 2, "synthesis": ms / 4}
    return {"shape": shape, "ms": ms, "found": found, "technique": "t", "answer_ms": ms - 1, **phases}


def test_a_techniques_summary_counts_failures_apart_from_the_timings():
    rows = [_answer(10.0), _answer(30.0, found=False), {"shape": "what_is", "error": "Boom: x", "ms": 999.0}]

    out = _summary("what_is", timings(rows))

    assert (out["n"], out["found"], out["errors"]) == (3, 1, 1)
    assert out["total_ms"]["n"] == 2 and out["total_ms"]["p99"] == 30.0  # the failure's time is not a timing
    assert out["retrieval_ms"]["p50"] == 5.0 and out["error_samples"] == ["Boom: x"]  # rank 0.5 -> 0
    json.dumps(out)


def test_concurrent_askers_get_a_p95_per_shape_even_for_a_shape_never_asked():
    rows = [_answer(float(ms), "connect") for ms in range(1, 21)] + [{"shape": "related", "error": "E", "ms": 1.0}]

    out = concurrent_summary(rows, askers=2, wall=2.0)

    assert out["per_shape_p95_ms"] == {"what_is": 0.0, "related": 0.0, "connect": 19.0, "shaped_like": 0.0}
    assert (out["questions"], out["errors"], out["throughput_qps"]) == (21, 1, 10.0)


def test_llm_calls_by_task_keep_every_task_and_count_a_missing_number_as_zero():
    used = {
        "extract": {"calls": 10, "prompt_tokens": 1234, "completion_tokens": 90},
        "judge": {"calls": 3},
        "conflict": {},
    }
    out = by_task(used, 4)

    assert list(out) == ["extract", "judge", "conflict"]
    assert out["extract"] == {
        "calls": 10,
        "prompt_tokens": 1234,
        "output_tokens": 90,
        "calls_per_passage": 2.5,
        "prompt_tokens_per_passage": 308.5,
        "output_tokens_per_passage": 22.5,
    }
    assert out["judge"]["prompt_tokens"] == 0 and out["conflict"] == {
        "calls": 0,
        "prompt_tokens": 0,
        "output_tokens": 0,
        "calls_per_passage": 0.0,
        "prompt_tokens_per_passage": 0.0,
        "output_tokens_per_passage": 0.0,
    }
    assert by_task({}, 4) == {}
    assert all(type(v) in (int, float) for task in out.values() for v in task.values())


@pytest.mark.parametrize("size", [1, 2, 7, 30, 101])
def test_spread_matches_the_sorted_ranks(size):
    values = [float((i * 37) % size) for i in range(size)]
    ordered = sorted(values)
    assert spread(values)["p95"] == round(ordered[round(0.95 * (size - 1))], 1)
