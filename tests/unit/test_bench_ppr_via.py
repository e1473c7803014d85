"""`graphwiki bench query --ppr-via both`: the timed related questions take the PageRank paths
in turn, and each path is reported on its own line from the same run."""

from __future__ import annotations

import pytest

from graphwiki_assets.core.evals.query_bench import BenchConfig, Drawn, Question, measure_answers
from graphwiki_assets.core.query.models import PPR_VIAS

RETRIEVAL_MS = {"cypher": 5.0, "client": 50.0, "local": 2.0}


def _related(n: int) -> list[Question]:
    return [
        Question("related", f"What else relates to c{i}?", [f"c{i}"], ppr_via=PPR_VIAS[i % len(PPR_VIAS)])
        for i in range(n)
    ]


def test_each_path_is_summarised_from_its_own_questions():
    config = BenchConfig(per_shape=9, warmup=0, ppr_via="both")
    seen: list[tuple[str, str]] = []

    def answer(q: Question, cfg: BenchConfig) -> dict:
        seen.append((q.text, cfg.via(q)))
        return {
            "found": True,
            "technique": "personalized pagerank",
            "latency_ms": 1.0,
            "timings_ms": {"linking": 1.0, "retrieval": RETRIEVAL_MS[cfg.via(q)], "synthesis": 1.0},
        }

    drawn = Drawn(warmup=[], single={"related": _related(9)}, flat=[], concurrent=[])
    summaries, totals = measure_answers(answer, drawn, config)
    assert [via for _, via in seen] == ["local", "cypher", "client"] * 3
    # "related" is the default path's line, the others beside it
    assert set(summaries) == {"related", "related via cypher", "related via client"}
    assert (
        summaries["related"]["n"] == summaries["related via cypher"]["n"] == summaries["related via client"]["n"] == 3
    )
    assert summaries["related"]["retrieval_ms"]["p95"] == 2.0
    assert summaries["related via cypher"]["retrieval_ms"]["p95"] == 5.0
    assert summaries["related via client"]["retrieval_ms"]["p95"] == 50.0
    assert len(totals) == 9


def test_one_path_answers_every_question_with_it():
    assert BenchConfig(ppr_via="client").via(Question("related", "q", ["a"])) == "client"
    assert BenchConfig().via(Question("related", "q", ["a"])) == "local"
    assert BenchConfig(ppr_via="both").via(Question("what_is", "q", ["a"])) == "local"


def test_an_unknown_path_is_refused_by_name():
    with pytest.raises(ValueError, match="^ppr_via must be one of local, cypher, client, both"):
        BenchConfig(ppr_via="gremlin")


def test_a_run_that_measures_each_path_is_a_valid_result():
    from graphwiki_assets.core.evals.results.queries import Technique

    config = BenchConfig(per_shape=3, warmup=0, ppr_via="both")

    def answer(q: Question, cfg: BenchConfig) -> dict:
        timings = {"linking": 1.0, "retrieval": RETRIEVAL_MS[cfg.via(q)], "synthesis": 1.0}
        return {"found": True, "technique": "personalized pagerank", "latency_ms": 3.0, "timings_ms": timings}

    drawn = Drawn(warmup=[], single={"related": _related(3)}, flat=[], concurrent=[])
    summaries, _ = measure_answers(answer, drawn, config)
    parsed = {name: Technique.model_validate(s) for name, s in summaries.items()}
    assert parsed["related"].ppr_via == "local" and parsed["related via client"].ppr_via == "client"
