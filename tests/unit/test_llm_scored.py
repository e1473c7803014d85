"""Scored verdicts: with GRAPHWIKI_LLM_VERDICTS=scored (the default with the local model) the
judge, conflict and support tasks ask one item a call for one word and read the verdict from
the token probabilities, corrected by the model's lean on content-free items; a server that
returns no probabilities gets the reasoned calls instead. Real HTTP on 127.0.0.1, the real
OpenAI client."""

from __future__ import annotations

import math

import pytest

from graphwiki_assets.core.llm.calls import (
    ClaimPair,
    ConflictRequest,
    EntityView,
    JudgePair,
    JudgeRequest,
    SupportPair,
    SupportRequest,
)
from graphwiki_assets.core.llm.client import build_llm
from graphwiki_assets.core.llm.rules_server import RulesServer
from graphwiki_assets.core.llm.scored import CONFLICT_LABELS, JUDGE_LABELS, LabelScores, label_scores
from graphwiki_assets.core.settings import LLMSettings, Settings


def _top(**shares: float) -> list[tuple[str, float]]:
    return sorted(((token, math.log(p)) for token, p in shares.items()), key=lambda t: -t[1])


def test_a_label_gets_the_probability_of_every_token_that_begins_it_and_no_other():
    found = label_scores(_top(DIFF=0.6, SAME=0.2, D=0.05, S=0.05, R=0.02, **{"{": 0.08}), JUDGE_LABELS)
    assert found is not None
    assert found.probabilities["SAME"] == pytest.approx(0.25 / 0.9)
    assert found.probabilities["DIFFERENT"] == pytest.approx(0.65 / 0.9)
    assert found.mass == pytest.approx(0.9)  # "{" and "R" name no label
    assert found.verdict("SAME") == "DIFFERENT"


def test_a_token_that_could_begin_two_labels_counts_for_neither():
    found = label_scores(_top(CON=0.5, UN=0.3, UNS=0.1, Contr=0.1), CONFLICT_LABELS)
    assert found is not None
    assert found.probabilities == pytest.approx({"CONTRADICTS": 0.6 / 0.9, "SUPPORTS": 0.0, "UNRELATED": 0.3 / 0.9})


def test_no_label_among_the_alternatives_is_no_answer():
    assert label_scores(_top(Hello=0.7, The=0.3), JUDGE_LABELS) is None


def test_calibration_divides_out_the_models_lean():
    raw = LabelScores(probabilities={"SAME": 0.3, "DIFFERENT": 0.7}, mass=1.0)
    lean = {"SAME": 0.1, "DIFFERENT": 0.9}
    assert raw.verdict("SAME") == "DIFFERENT"
    calibrated = raw.calibrated(lean, "SAME")
    assert calibrated.verdict("SAME") == "SAME"  # three times its prior, against seven ninths of it
    assert calibrated.probabilities["SAME"] == pytest.approx(3.0 / (3.0 + 0.7 / 0.9))
    assert "SAME 0.30" in calibrated.describe() and "against the model's lean" in calibrated.describe()


CONTENT_FREE_MARKS = ("N/A", "[MASK]", "Mention: \n")


def _judge_model(messages: list[dict]) -> list[tuple[str, float]]:
    """A model that leans to DIFFERENT: a content-free pair gets SAME 0.1; a pair of one name
    SAME 0.3 (less than DIFFERENT, but three times the lean); two names SAME 0.05."""
    text = messages[-1]["content"]
    if any(mark in text for mark in CONTENT_FREE_MARKS):
        return _top(DIFF=0.9, SAME=0.1)
    if "Mention: Quillon 1\n" in text and "Candidate: Quillon 1\n" in text:
        return _top(DIFF=0.7, SAME=0.3)
    return _top(DIFF=0.95, SAME=0.05)


def _client(server: RulesServer, cache=None, verdicts="scored"):
    settings = LLMSettings(
        api_key="local", base_url=server.base_url, model="small", timeout_s=10, max_retries=1, verdicts=verdicts
    )
    return build_llm(settings, cache, backoff_base=0.01, backoff_max=0.02)


def _pair(pair_id: str, a: str, b: str) -> JudgePair:
    return JudgePair(
        pair_id=pair_id,
        mention=EntityView(name=a, context=f"{a} is a tide gauge."),
        candidate=EntityView(name=b, context=f"{b} is a tide gauge."),
    )


def test_judge_verdicts_come_from_calibrated_token_probabilities_one_pair_a_call():
    with RulesServer(token_logprobs=_judge_model) as server:
        llm = _client(server)
        resp = llm.judge(
            JudgeRequest(pairs=[_pair("p1", "Quillon 1", "Quillon 1"), _pair("p2", "Quillon 1", "Quillon 2")])
        )
        bodies = list(server.bodies)
    verdicts = {v.pair_id: v for v in resp.verdicts}
    assert verdicts["p1"].verdict == "SAME" and verdicts["p2"].verdict == "DIFFERENT"
    assert verdicts["p1"].confidence == pytest.approx(3.0 / (3.0 + 0.7 / 0.9))
    assert "token probabilities" in verdicts["p1"].reason
    # three content-free calls for the lean, then one per pair; each asks for one token and no schema
    assert len(bodies) == 5
    assert all(b["max_tokens"] == 1 and b["logprobs"] and "response_format" not in b for b in bodies)
    assert llm.usage.calls == 5 and llm.usage.failures == 0


def test_the_lean_is_measured_once_per_task():
    with RulesServer(token_logprobs=_judge_model) as server:
        llm = _client(server)
        for n in range(3):
            llm.judge(JudgeRequest(pairs=[_pair(f"p{n}", "Quillon 1", "Quillon 2")]))
        assert len(server.bodies) == 3 + 3


def test_conflicts_and_support_are_scored_too():
    def model(messages):
        text = messages[-1]["content"]
        if "Does the evidence support" in text:
            return _top(YES=0.5, NO=0.5) if "N/A" in text or "Statement: \n" in text else _top(YES=0.9, NO=0.1)
        return _top(UN=0.7, CON=0.2, SUP=0.1) if "N/A" in text or "Concept: \n" in text else _top(CON=0.6, UN=0.4)

    with RulesServer(token_logprobs=model) as server:
        llm = _client(server)
        conflicts = llm.conflicts(
            ConflictRequest(
                pairs=[ClaimPair(pair_id="c1", concept="Pier 4", new_claim="It is 40 m.", existing_claim="It is 50 m.")]
            )
        )
        support = llm.support(SupportRequest(pairs=[SupportPair(pair_id="s1", statement="A.", evidence=["A."])]))
    assert conflicts.verdicts[0].relation == "contradicts"
    assert support.verdicts[0].supported is True


def test_a_server_without_token_probabilities_gets_the_reasoned_calls(caplog):
    with RulesServer() as server:  # answers one word, with no logprobs
        llm = _client(server)
        first = llm.judge(JudgeRequest(pairs=[_pair("p1", "Quillon 1", "Quillon 2")]))
        second = llm.judge(JudgeRequest(pairs=[_pair("p2", "Quillon 1", "Quillon 2")]))
        bodies = list(server.bodies)
    assert [v.pair_id for v in first.verdicts] == ["p1"] and [v.pair_id for v in second.verdicts] == ["p2"]
    # one scored probe found out; every later call is a reasoned one with the schema
    assert [bool(b.get("logprobs")) for b in bodies] == [True, False, False]
    assert "no token probabilities" in caplog.text


def test_scored_and_reasoned_answers_are_cached_apart(tmp_path):
    with RulesServer(token_logprobs=_judge_model) as server:
        req = JudgeRequest(pairs=[_pair("p1", "Quillon 1", "Quillon 1")])
        scored = _client(server, tmp_path).judge(req)
        again = _client(server, tmp_path)
        assert again.judge(req).verdicts == scored.verdicts and again.usage.cache_hits == 1
        reasoned = _client(server, tmp_path, verdicts="reasoned")
        reasoned.judge(req)
    assert reasoned.usage.cache_hits == 0 and reasoned.usage.calls == 1


def test_the_local_model_scores_its_verdicts_unless_told_otherwise(tmp_path):
    local = Settings.from_env({"GRAPHWIKI_HOME": str(tmp_path), "GRAPHWIKI_LLM": "local"})
    assert local.llm.verdicts == "scored"
    assert Settings.from_env({"GRAPHWIKI_HOME": str(tmp_path)}).llm.verdicts == "reasoned"
    told = {"GRAPHWIKI_HOME": str(tmp_path), "GRAPHWIKI_LLM": "local", "GRAPHWIKI_LLM_VERDICTS": "reasoned"}
    assert Settings.from_env(told).llm.verdicts == "reasoned"
    with pytest.raises(ValueError, match="GRAPHWIKI_LLM_VERDICTS"):
        Settings.from_env({"GRAPHWIKI_HOME": str(tmp_path), "GRAPHWIKI_LLM_VERDICTS": "vibes"})


def test_only_the_acting_label_is_calibrated_so_a_rarely_named_label_does_not_win_everything():
    raw = LabelScores(probabilities={"CONTRADICTS": 0.3, "SUPPORTS": 0.05, "UNRELATED": 0.65}, mass=1.0)
    lean = {"CONTRADICTS": 0.4, "SUPPORTS": 0.01, "UNRELATED": 0.59}
    calibrated = raw.calibrated(lean, "CONTRADICTS")
    assert calibrated.verdict("CONTRADICTS") == "UNRELATED"  # less than its lean; SUPPORTS is not divided by 0.01
    assert sum(calibrated.probabilities.values()) == pytest.approx(1.0)
    assert calibrated.probabilities["SUPPORTS"] / calibrated.probabilities["UNRELATED"] == pytest.approx(0.05 / 0.65)
