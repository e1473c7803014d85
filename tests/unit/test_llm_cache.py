"""The disk cache: re-running costs no call, and nothing stale is ever reused."""

from __future__ import annotations

import json
from dataclasses import replace

from graphwiki_assets.core.llm.base import TASKS, BaseLLM, Usage
from graphwiki_assets.core.llm.cache import CachedLLM, cache_key
from graphwiki_assets.core.llm.calls import (
    EntityView,
    ExtractRequest,
    JudgePair,
    JudgeRequest,
    JudgeResponse,
)
from graphwiki_assets.core.llm.client import build_llm
from graphwiki_assets.core.llm.offline.backend import OFFLINE_LABEL
from graphwiki_assets.core.settings import LLMSettings

DOC = ExtractRequest(source_id="s1", title="Kortel", text="Kortel is a hardware company. It sells storage appliances.")


def test_a_repeated_request_is_a_cache_hit_not_a_call(tmp_path):
    llm = build_llm(LLMSettings(), tmp_path)
    first = llm.extract(DOC)
    before = llm.usage.snapshot()
    again = llm.extract(DOC)
    used = llm.usage.snapshot() - before
    assert again == first
    assert (used.calls, used.cache_hits, used.prompt_tokens) == (0, 1, 0)


def test_the_cache_survives_the_process(tmp_path):
    build_llm(LLMSettings(), tmp_path).extract(DOC)
    fresh = build_llm(LLMSettings(), tmp_path)
    fresh.extract(DOC)
    assert (fresh.usage.calls, fresh.usage.cache_hits) == (0, 1)


def test_the_key_covers_request_prompt_version_and_backend():
    task = TASKS["extract"]
    base = cache_key(task, "offline-rules/v2", DOC)
    assert cache_key(task, "offline-rules/v2", DOC) == base
    assert cache_key(task, "openai:gpt-4o-mini", DOC) != base
    assert cache_key(replace(task, version="extract/v999"), "offline-rules/v2", DOC) != base
    assert cache_key(task, "offline-rules/v2", DOC.model_copy(update={"text": DOC.text + " "})) != base
    assert cache_key(TASKS["summarize"], "offline-rules/v2", DOC) != base


def test_a_corrupt_entry_is_recomputed_and_rewritten(tmp_path):
    llm = build_llm(LLMSettings(), tmp_path)
    llm.extract(DOC)
    (path,) = list(tmp_path.rglob("*.json"))
    path.write_text("{ truncated")
    llm.extract(DOC)
    assert llm.usage.calls == 2
    assert json.loads(path.read_text())["response"]["backend"] == OFFLINE_LABEL


class Forgetful(BaseLLM):
    """Never answers: every verdict ends up defaulted."""

    offline = True

    def __init__(self):
        self.label = "forgetful/v0"
        self.usage = Usage()

    def _complete(self, task, req):
        self.usage.add(calls=1)
        return JudgeResponse(verdicts=[])


def test_defaulted_answers_are_not_cached(tmp_path):
    llm = CachedLLM(Forgetful(), tmp_path)
    req = JudgeRequest(pairs=[JudgePair(pair_id="p", mention=EntityView(name="A"), candidate=EntityView(name="B"))])
    assert llm.judge(req).verdicts[0].same is False
    llm.judge(req)
    assert llm.usage.cache_hits == 0 and llm.usage.calls == 4  # asked and re-asked, twice
    assert not list(tmp_path.rglob("*.json"))


def test_responses_from_different_backends_live_side_by_side(tmp_path):
    offline = build_llm(LLMSettings(), tmp_path)
    offline.extract(DOC)
    other = CachedLLM(Forgetful(), tmp_path)
    assert other.path_for(TASKS["extract"], DOC) != offline.path_for(TASKS["extract"], DOC)
