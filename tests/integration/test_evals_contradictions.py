"""The contradiction eval: its arithmetic on hand-made rows, then the conflict stage itself
(real embeddings, the offline rules, a real Neo4j) on a few invented pairs, and the
end-to-end mode on a tiny invented corpus.

The pairs and documents here are written for the tests (an invented valve, a lake and a
river); none comes from an eval set.
"""

from __future__ import annotations

import json
import math

import pytest

from graphwiki_assets.cli.main import main
from graphwiki_assets.core.evals import contradictions, injection
from graphwiki_assets.core.ingest.conflicts import ConflictConfig
from graphwiki_assets.core.llm.client import build_llm


def _row(label: str, flagged: bool, kind: str = "k", split: str = "tune") -> dict:
    return {"label": label, "flagged": flagged, "kind": kind, "split": split}


def test_rates_count_catches_and_false_alarms_per_class():
    rows = (
        [_row("contradicts", True)] * 3
        + [_row("contradicts", False)]
        + [_row("consistent", True)]
        + [_row("consistent", False)] * 3
        + [_row("unrelated_aspect", False)] * 2
    )
    r = contradictions.rates(rows)
    assert r["catch_rate"] == 0.75 and (r["caught"], r["contradicts"]) == (3, 4)
    assert r["false_alarm"] == {"consistent": 0.25, "unrelated_aspect": 0.0, "all": round(1 / 6, 4)}
    assert r["precision"] == 0.75  # 3 of the 4 flagged pairs really contradict


def test_a_class_without_pairs_has_no_rate_rather_than_zero():
    r = contradictions.rates([_row("consistent", False)])
    assert r["catch_rate"] is None and r["precision"] is None and r["false_alarm"]["unrelated_aspect"] is None
    assert r["false_alarm"]["consistent"] == 0.0


def test_loading_refuses_an_unknown_label_and_an_empty_claim(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"label": "maybe", "concept": "X", "a": "x", "b": "y"}) + "\n")
    with pytest.raises(ValueError, match="label must be one of"):
        contradictions.load_pairs(bad)
    bad.write_text(json.dumps({"label": "contradicts", "concept": "X", "a": "x", "b": " "}) + "\n")
    with pytest.raises(ValueError, match="b must be non-empty"):
        contradictions.load_pairs(bad)


PAIRS = [
    {
        "id": "t1",
        "kind": "negation",
        "label": "contradicts",
        "concept": "Quorl valve",
        "aliases": [],
        "a": "The Quorl valve is sealed during the night shift.",
        "b": "The Quorl valve is not sealed during the night shift.",
        "split": "tune",
    },
    {
        "id": "t2",
        "kind": "paraphrase",
        "label": "consistent",
        "concept": "Quorl valve",
        "aliases": [],
        "a": "The Quorl valve is sealed during the night shift.",
        "b": "The Quorl valve is sealed during the night shift.",
        "split": "report",
    },
    {
        "id": "t3",
        "kind": "aspect",
        "label": "unrelated_aspect",
        "concept": "Lake Ombra",
        "aliases": ["Ombra"],
        "a": "Lake Ombra is 40 metres deep.",
        "b": "Lake Ombra was first mapped by surveyors in 1911.",
        "split": "tune",
    },
    {
        "id": "t4",
        "kind": "aspect",
        "label": "unrelated_aspect",
        "concept": "Fenwick river",
        "aliases": [],
        "a": "Fenwick river floods the lowland meadows every spring.",
        "b": "Payroll software exports tax tables as spreadsheets.",
        "split": "report",
    },
]


@pytest.fixture
def pairs_file(tmp_path):
    path = tmp_path / "pairs.jsonl"
    path.write_text("".join(json.dumps(p) + "\n" for p in PAIRS))
    return path


@pytest.fixture
def result(store, embedder, settings, pairs_file):
    llm = build_llm(settings.llm)
    return contradictions.run_pairs(store, embedder, llm, contradictions.load_pairs(pairs_file), name="tiny")


def test_pairs_go_through_the_stage_screen_and_batched_calls(result):
    rows = {r.id: r for r in result.pairs}
    floor = ConflictConfig().similarity_floor
    for r in rows.values():
        # below the floor nothing reaches the LLM; at or above it, the pair is judged
        assert (r.outcome == "screened") == (r.cosine < floor)
        assert r.flagged == (r.outcome == "contradicts")
    assert rows["t4"].outcome == "screened"  # one concept, yet the two claims share no subject
    judged = sum(r.outcome != "screened" for r in rows.values())
    assert result.llm_calls == math.ceil(judged / ConflictConfig().pairs_per_call)
    assert result.prompt_tokens > 0 and result.backend.startswith("offline")


def test_the_report_agrees_with_its_own_rows(result):
    rows = result.pairs
    assert result.catch_rate == contradictions.rates([r.as_json() for r in rows])["catch_rate"]
    assert sum(sum(v.values()) for v in result.outcomes.values()) == len(PAIRS)
    assert {e.id for e in result.errors} == {r.id for r in rows if r.flagged != (r.label == "contradicts")}
    assert set(result.by_split) == {"tune", "report"}
    assert result.by_split["report"].n == 2


def test_the_stage_never_compares_claims_of_different_pairs(store, embedder, settings, pairs_file):
    """A concept per pair: the only comparisons made are each pair's b against its a."""
    llm = contradictions.VerdictLog(build_llm(settings.llm))
    pairs = contradictions.load_pairs(pairs_file)
    contradictions.outcomes(store, llm, pairs, embedder)
    asked = {(new, old) for (_, new, old) in llm.verdicts}
    assert asked <= {(p.b, p.a) for p in pairs}


INJECT_CORPUS = [
    {
        "id": "lake",
        "title": "Lake Ombra",
        "text": "Lake Ombra is a glacial lake in the Varn hills. Lake Ombra is open to "
        "swimmers in summer. Its water feeds the Fenwick river.",
    },
    {
        "id": "river",
        "title": "Fenwick river",
        "text": "The Fenwick river runs east to the sea. The Fenwick river floods the lowland meadows every spring.",
    },
]
INJECTIONS = [
    {
        "id": "x1",
        "label": "contradicts",
        "target": "lake",
        "title": "Lake Ombra rules",
        "text": "Lake Ombra is not open to swimmers in summer.",
        "split": "tune",
    },
    {
        "id": "x2",
        "label": "consistent",
        "target": "river",
        "title": "Fenwick river notes",
        "text": "The Fenwick river runs east to the sea.",
        "split": "report",
    },
]


def test_end_to_end_counts_edges_whose_both_claims_are_disputed(store, embedder, settings, tmp_path):
    llm = build_llm(settings.llm)
    result = injection.run_injection(store, embedder, llm, INJECT_CORPUS, INJECTIONS)
    rows = {r["id"]: r for r in result.injections}
    # The plainest negation there is: the count below needs one caught case to mean anything.
    assert rows["x1"]["caught"] and rows["x1"]["pairs"][0]["other_status"] == "disputed"
    # what the graph holds, read independently of the eval's own query
    disputed_pairs = store.query(
        "MATCH (a:Claim)-[:CONTRADICTS]-(b:Claim) WHERE a.status = 'disputed' AND b.status = 'disputed' "
        "MATCH (a)-[:DERIVED_FROM]->(s:Source) RETURN DISTINCT coalesce(s.paths, [s.path]) AS paths"
    )
    injected_with_dispute = {
        p.split("/", 1)[1]
        for r in disputed_pairs
        for p in r["paths"]
        if p.startswith(injection.INJECTED_NAMESPACE + "/")
    }
    assert {i for i, r in rows.items() if r["caught"]} <= injected_with_dispute
    assert result.found == sum(r["caught"] for r in rows.values() if r["label"] == "contradicts")
    assert result.false_alarms == int(rows["x2"]["flagged"])
    assert result.injected == 1 and result.controls == 1
    for r in rows.values():
        assert r["why"] in (
            "caught",
            "compared, not judged a contradiction",
            "never compared with a claim of its target",
        )
        assert (r["why"] == "caught") == r["caught"]


def test_injections_must_target_a_document_of_the_corpus(tmp_path):
    path = tmp_path / "inject.jsonl"
    path.write_text(json.dumps({**INJECTIONS[0], "target": "nowhere"}) + "\n")
    with pytest.raises(ValueError, match="not a document id of the corpus"):
        injection.load_injections(path, {"lake", "river"})


def test_the_cli_wants_the_corpus_and_the_injections_together(pairs_file, capsys):
    assert main(["eval", "contradictions", "--pairs", str(pairs_file), "--inject", str(pairs_file)]) == 1
    assert "needs both --corpus and --inject" in capsys.readouterr().err


def test_the_asset_metadata_carries_numbers_a_table_and_a_plot(result, tmp_path, monkeypatch):
    from graphwiki_assets.core.llm.offline.backend import OFFLINE_LABEL
    from graphwiki_assets.defs.evals.assets import contradiction_metadata, regression_check

    metadata = contradiction_metadata(result)
    assert metadata["catch_rate"].value == result.catch_rate
    outcomes = {r.data["label"]: r.data for r in metadata["outcomes_by_label"].records}
    assert outcomes["contradicts"]["contradicts"] == result.outcomes["contradicts"]["contradicts"]
    assert "data:image/png;base64," in metadata["plot"].value
    baselines = tmp_path / "baselines.json"
    monkeypatch.setenv("GRAPHWIKI_EVAL_BASELINES", str(baselines))
    baselines.write_text(
        json.dumps({"evals": {"contradiction_eval": {"higher_is_better": {"catch_rate": result.catch_rate + 0.1}}}})
    )
    assert not regression_check("contradiction_eval", result, OFFLINE_LABEL).passed
    baselines.write_text(
        json.dumps(
            {
                "evals": {
                    "contradiction_eval": {
                        "higher_is_better": {"catch_rate": result.catch_rate},
                        "lower_is_better": {"false_alarm.all": {"value": result.false_alarm.all, "tolerance": 0}},
                    }
                }
            }
        )
    )
    assert regression_check("contradiction_eval", result, OFFLINE_LABEL).passed
