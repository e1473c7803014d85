"""`graphwiki bench query --ppr-via both`: the timed related questions alternate between the
two PageRank paths, and each path is reported on its own line from the same run."""

from __future__ import annotations

import pytest

from graphwiki_assets.core.evals.query_bench import BenchConfig, Drawn, Question, measure_answers


def _related(n: int) -> list[Question]:
    return [
        Question("related", f"What else relates to c{i}?", [f"c{i}"], ppr_via=("cypher", "client")[i % 2])
        for i in range(n)
    ]


def test_each_path_is_summarised_from_its_own_questions():
    config = BenchConfig(per_shape=6, warmup=0, ppr_via="both")
    seen: list[tuple[str, str]] = []

    def answer(q: Question, cfg: BenchConfig) -> dict:
        seen.append((q.text, cfg.via(q)))
        return {
            "found": True,
            "technique": "personalized pagerank (GDS)",
            "latency_ms": 1.0,
            "timings_ms": {"linking": 1.0, "retrieval": 50.0 if cfg.via(q) == "client" else 5.0, "synthesis": 1.0},
        }

    drawn = Drawn(warmup=[], single={"related": _related(6)}, flat=[], concurrent=[])
    summaries, totals = measure_answers(answer, drawn, config)
    assert [via for _, via in seen] == ["cypher", "client"] * 3
    assert set(summaries) == {"related", "related via client"}
    assert summaries["related"]["n"] == summaries["related via client"]["n"] == 3
    assert summaries["related"]["retrieval_ms"]["p95"] == 5.0
    assert summaries["related via client"]["retrieval_ms"]["p95"] == 50.0
    assert len(totals) == 6


def test_one_path_answers_every_question_with_it():
    assert BenchConfig(ppr_via="client").via(Question("related", "q", ["a"])) == "client"
    assert BenchConfig().via(Question("related", "q", ["a"])) == "cypher"
    assert BenchConfig(ppr_via="both").via(Question("what_is", "q", ["a"])) == "cypher"


def test_an_unknown_path_is_refused_by_name():
    with pytest.raises(ValueError, match="^ppr_via must be one of cypher, client, both"):
        BenchConfig(ppr_via="gremlin")
