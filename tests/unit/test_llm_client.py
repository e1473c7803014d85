"""The client contract: the factory, labels, usage counting, and validation that holds
for every backend."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from graphwiki_assets.core.llm.base import TASKS, BaseLLM, Usage
from graphwiki_assets.core.llm.calls import (
    NO_VERDICT,
    ClaimPair,
    ConflictRequest,
    ConflictResponse,
    ConflictVerdict,
    EntityView,
    ExtractBatchRequest,
    ExtractRequest,
    JudgePair,
    JudgeRequest,
    RouteRequest,
)
from graphwiki_assets.core.llm.client import LLMClient, build_llm
from graphwiki_assets.core.llm.offline.backend import OFFLINE_LABEL, OfflineLLM
from graphwiki_assets.core.llm.openai_backend import OpenAILLM
from graphwiki_assets.core.llm.parsed_conflicts import ParsedFirst
from graphwiki_assets.core.llm.prompts import estimate_prompt_tokens
from graphwiki_assets.core.settings import LLMSettings

DOC = ExtractRequest(source_id="s1", title="Kortel", text="Kortel is a hardware company. It sells storage appliances.")


def test_no_endpoint_means_offline_rules():
    llm = build_llm(LLMSettings(), None)
    assert isinstance(llm, LLMClient) and isinstance(llm, ParsedFirst) and isinstance(llm.inner, OfflineLLM)
    assert llm.offline and llm.label == OFFLINE_LABEL


def test_a_configured_endpoint_means_openai():
    llm = build_llm(LLMSettings(base_url="http://127.0.0.1:9/v1", model="m1"), None)
    assert isinstance(llm.inner, OpenAILLM) and isinstance(llm, LLMClient)
    assert not llm.offline and llm.label == "openai:m1"


def test_every_response_names_its_backend():
    llm = build_llm(LLMSettings(), None)
    assert llm.extract(DOC).backend == OFFLINE_LABEL
    assert llm.route(RouteRequest(question="What is Kortel?")).backend == OFFLINE_LABEL


def test_offline_calls_count_with_estimated_prompt_tokens():
    llm = OfflineLLM()
    before = llm.usage.snapshot()
    llm.extract(DOC)
    used = llm.usage.snapshot() - before
    assert used.calls == 1 and used.cache_hits == 0
    assert used.prompt_tokens == estimate_prompt_tokens(TASKS["extract"].messages(ExtractBatchRequest(documents=[DOC])))
    assert used.completion_tokens > 0
    assert used.tasks()["extract"]["calls"] == 1 and set(used.tasks()) == {"extract"}


def test_short_documents_share_one_extraction_call_and_keep_their_own_answers():
    llm = OfflineLLM()
    other = ExtractRequest(source_id="s2", title="Tarnwell", text="Tarnwell is a lab in Oslo. Tarnwell builds probes.")
    resp = llm.extract_batch(ExtractBatchRequest(documents=[DOC, other]))
    assert llm.usage.calls == 1
    assert [d.doc_id for d in resp.documents] == ["s1", "s2"] and resp.missing == []
    names = [{c.name for c in d.concepts} for d in resp.documents]
    assert "Kortel" in names[0] and "Kortel" not in names[1] and "Tarnwell" in names[1]


def test_usage_snapshot_diff_and_dict():
    u = Usage(calls=3, prompt_tokens=100)
    snap = u.snapshot()
    u.add(calls=2, cache_hits=1, prompt_tokens=50)
    assert (u - snap).as_dict() == {
        "calls": 2,
        "cache_hits": 1,
        "prompt_tokens": 50,
        "completion_tokens": 0,
        "retries": 0,
        "failures": 0,
        "controls_failed": 0,
    }
    assert snap.calls == 3  # a snapshot does not move with the live counters
    assert (snap + (u - snap)).as_dict() == u.as_dict()
    u.add("judge", calls=1, prompt_tokens=7)
    assert (u - snap).tasks() == {"judge": {"calls": 1, "prompt_tokens": 7}}


def test_counting_is_thread_safe():
    llm = OfflineLLM()
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda i: llm.route(RouteRequest(question=f"What is Kortel {i}?")), range(200)))
    assert llm.usage.calls == 200


def test_wrong_request_type_is_refused():
    with pytest.raises(TypeError):
        OfflineLLM().judge(DOC)  # type: ignore[arg-type]


class Scripted(BaseLLM):
    """A backend that replies with prepared responses, to exercise shared validation."""

    offline = True

    def __init__(self, *replies):
        self.label = "scripted/v0"
        self.usage = Usage()
        self.replies = list(replies)
        self.asked: list = []

    def _complete(self, task, req):
        self.asked.append(req)
        return self.replies.pop(0)


def test_conflict_verdicts_for_unasked_ids_are_dropped_and_silent_ids_default_to_unrelated():
    req = ConflictRequest(
        pairs=[ClaimPair(pair_id=i, concept="X", new_claim="a", existing_claim="b") for i in ("a", "b")]
    )
    first = ConflictResponse(
        verdicts=[
            ConflictVerdict(pair_id="a", relation="contradicts"),
            ConflictVerdict(pair_id="zz", relation="supports"),
        ]
    )
    llm = Scripted(first, ConflictResponse(verdicts=[]))
    resp = llm.conflicts(req)
    assert [(v.pair_id, v.relation) for v in resp.verdicts] == [("a", "contradicts"), ("b", "unrelated")]
    assert resp.verdicts[1].reason == NO_VERDICT and (resp.dropped, resp.defaulted) == (1, 1)
    assert [p.pair_id for p in llm.asked[1].pairs] == ["b"]  # only the missing id was asked again
    assert resp.backend == "scripted/v0"


def test_duplicate_verdicts_keep_the_first():
    from graphwiki_assets.core.llm.calls import JudgeResponse, Verdict

    req = JudgeRequest(pairs=[JudgePair(pair_id="p", mention=EntityView(name="A"), candidate=EntityView(name="B"))])
    llm = Scripted(
        JudgeResponse(
            verdicts=[Verdict(pair_id="p", verdict="DIFFERENT", confidence=3.0), Verdict(pair_id="p", verdict="SAME")]
        )
    )
    resp = llm.judge(req)
    assert [(v.same, v.confidence) for v in resp.verdicts] == [(False, 1.0)] and resp.dropped == 1
