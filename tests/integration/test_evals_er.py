"""The ER eval end to end: real embeddings, the real offline judge, a real Neo4j.

A handful of pairs from evals/er/general.jsonl (two of each label) keeps it fast; the
numbers are whatever the system gives, the tests pin what they must mean.
"""

from __future__ import annotations

import json
import math

import pytest

from graphwiki_assets.cli.main import main
from graphwiki_assets.core.evals import er, metrics
from graphwiki_assets.core.evals.datasets import evals_dir
from graphwiki_assets.core.ingest.resolution import Stage1Config
from graphwiki_assets.core.llm.client import build_llm

REQUIRED_KEYS = [
    "n",
    "cosine_only.best_f1",
    "cosine_only.best_threshold",
    "cosine_only.f1_at_0_55",
    "stage1.same_passed",
    "stage1.unrelated_screened",
    "two_stage.precision",
    "two_stage.recall",
    "two_stage.f1",
    "two_stage.llm_calls",
    "judge",
]


@pytest.fixture(scope="module")
def handful(tmp_path_factory):
    """Two pairs of each label from the real file, as a pairs file of its own."""
    rows = [json.loads(line) for line in (evals_dir() / "er" / "general.jsonl").read_text().splitlines()]
    picked = [r for label in er.LABELS for r in [x for x in rows if x["label"] == label][:2]]
    path = tmp_path_factory.mktemp("er") / "handful.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in picked))
    return path


@pytest.fixture
def result(store, embedder, settings, handful):
    llm = build_llm(settings.llm, settings.cache_dir)
    return er.run_er(er.load_pairs(handful), embedder, llm, store, name="handful")


def test_report_has_every_required_number(result):
    for key in REQUIRED_KEYS:
        value = metrics.dotted(result.as_json(), key)
        assert value is not None, key
    assert result.n == 6 and result.counts == {"same": 2, "related": 2, "unrelated": 2}
    assert result.judge.startswith("offline")  # the backend is named, never implied


def test_pair_mode_stage1_is_the_cosine_floor_and_only_survivors_are_judged(result):
    floor = Stage1Config().floor
    for row in result.pairs:
        assert row.stage1 == (row.cosine >= floor)
        if row.predicted == "same":
            assert row.stage1
    survivors = sum(r.stage1 for r in result.pairs)
    assert result.two_stage.judged_pairs == survivors
    assert result.two_stage.llm_calls == math.ceil(survivors / Stage1Config().judge.pairs_per_call)


def test_every_wrong_decision_is_listed_with_its_cause(result):
    wrong = {r.pair for r in result.pairs if (r.predicted == "same") != (r.label == "same")}
    assert {e.pair for e in result.errors} == wrong
    for e in result.errors:
        assert e.cause in ("stage1", "judge") and e.reason
        if e.cause == "stage1":
            assert e.label == "same" and e.score < Stage1Config().floor


def test_population_mode_resolves_against_the_vector_index(result, store):
    pop = result.population
    assert store.query("MATCH (c:Concept) RETURN count(c) AS n")[0]["n"] == 12  # both sides of 6 pairs
    assert 0 <= pop.stage1.same_passed <= 1 and 0 <= pop.stage1.unrelated_screened <= 1
    # Each of 12 mentions has at most top_k candidates; with 11 others, exactly top_k pass the rank cut
    # whenever the floor screens none of them.
    assert pop.stage1.candidates_all_mentions <= 12 * Stage1Config().top_k
    for row in result.pairs:
        assert row.knn_rank is not None  # everyone is ranked against everyone
        if row.population_stage1:
            assert row.knn_rank <= Stage1Config().top_k
    assert {"precision", "recall", "f1", "llm_calls"} <= set(pop.two_stage.as_json())


@pytest.mark.integration  # a Neo4j or model endpoint of its own
def test_cli_eval_er_prints_the_json_and_never_uses_the_users_graph(handful, settings, monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("GRAPHWIKI_HOME", str(tmp_path))
    monkeypatch.setenv("GRAPHWIKI_EVAL_NEO4J_URI", settings.neo4j.uri)  # the disposable test server
    monkeypatch.setenv("GRAPHWIKI_EVAL_NEO4J_PASSWORD", settings.neo4j.password)
    assert main(["eval", "er", "--pairs", str(handful), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["n"] == 6 and "population" in out
    assert out["stage1"]["same_passed"] == metrics.share(r["stage1"] for r in out["pairs"] if r["label"] == "same")
