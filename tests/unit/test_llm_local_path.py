"""The OpenAI path against small local servers: the schema form a server takes is found
once per client, whichever of the two it is; batched calls are packed to fit the model's
context window (set, or read from the server) and to the cap on items per call; every
reply is bounded by what its items need. Real HTTP servers on 127.0.0.1 answer with the
offline rules."""

from __future__ import annotations

import pytest

from graphwiki_assets.core.ingest.judging import JudgeConfig, judge_pairs
from graphwiki_assets.core.ingest.summaries import SummaryConfig
from graphwiki_assets.core.llm.calls import EntityView, SummaryBatchRequest, SummaryRequest
from graphwiki_assets.core.llm.client import build_llm
from graphwiki_assets.core.llm.errors import LLMCallTooLarge, LLMUnavailable
from graphwiki_assets.core.llm.prompts import estimate_prompt_tokens
from graphwiki_assets.core.llm.rules_server import RulesServer, request_from_messages
from graphwiki_assets.core.settings import LLMSettings, Settings


def _client(server: RulesServer, **settings):
    values = dict(api_key="local", base_url=server.base_url, model="small", timeout_s=10, max_retries=1)
    return build_llm(LLMSettings(**(values | settings)), None, backoff_base=0.01, backoff_max=0.02)


def _entity(n: int) -> EntityView:
    return EntityView(name=f"Quillon {n}", type="Instrument", context=f"Quillon {n} is a tide gauge on pier {n}.")


def _pairs(n: int) -> list[tuple[EntityView, EntityView]]:
    return [(_entity(i), _entity(i + 1 if i % 3 else i)) for i in range(n)]


def _summaries(n: int) -> SummaryBatchRequest:
    return SummaryBatchRequest(
        concepts=[
            SummaryRequest(concept_id=f"c{i}", name=f"Quillon {i}", facts=[f"Quillon {i} is a gauge."])
            for i in range(n)
        ]
    )


@pytest.mark.parametrize("form", ["json_schema", "json_object"])
def test_the_schema_form_is_found_once_and_kept(form):
    with RulesServer(schema_form=form) as server:
        llm = _client(server)
        for n in range(3):
            assert len(llm.summarize_batch(_summaries(2 + n)).summaries) == 2 + n
        sent = [body["response_format"] for body in server.bodies]
    if form == "json_schema":
        assert [f["type"] for f in sent] == ["json_schema"] * 3
    else:  # one refused json_schema request, then the json_object form with the schema, every time
        assert [f["type"] for f in sent] == ["json_schema", "json_object", "json_object", "json_object"]
        assert all(f["schema"]["required"] == ["summaries"] for f in sent[1:])
    assert llm.usage.calls == 3 and llm.usage.failures == 0


def test_the_context_window_is_read_from_the_server_and_calls_fit_it():
    with RulesServer(context_tokens=1500) as server:
        llm = _client(server, concurrency=2)
        verdicts = judge_pairs(llm, _pairs(60), JudgeConfig(pairs_per_call=384))
        bodies = list(server.bodies)
    assert len(verdicts) == 60 and all(v.reason != "no verdict returned" for v in verdicts)
    assert len(bodies) > 1  # 60 pairs do not fit 1,500 tokens in one call
    for body in bodies:
        assert estimate_prompt_tokens(body["messages"]) + body["max_tokens"] <= 1500


def test_a_reply_is_bounded_by_what_its_items_need():
    with RulesServer(context_tokens=32000) as server:
        llm = _client(server)
        llm.summarize_batch(_summaries(3))
        (body,) = server.bodies
    assert body["max_tokens"] == 256 + 3 * 200  # far below what the window would leave


def test_the_cap_on_items_per_call_holds_and_the_setting_wins_over_the_server():
    with RulesServer(context_tokens=100_000) as server:
        llm = _client(server, max_items_per_call=4, context_tokens=4000)
        judge_pairs(llm, _pairs(20))
        sizes = [len(request_from_messages("judge", body["messages"]).pairs) for body in server.bodies]
    # every call holds at most 4 pairs, one of them the control (core/ingest/judge_control.py)
    assert max(sizes) == 4 and sum(sizes) - len(sizes) == 20 and llm.call_sizes.limit("judge", 384) == 4
    assert all(body["max_tokens"] <= 4000 for body in server.bodies)


def test_a_call_that_cannot_fit_is_not_sent():
    with RulesServer() as server:
        llm = _client(server, context_tokens=300)
        with pytest.raises(LLMCallTooLarge, match="context of 300 tokens"):
            llm.summarize_batch(_summaries(1))
        assert server.requests == 0


def test_summaries_are_asked_again_in_halves_when_a_call_is_too_large():
    from graphwiki_assets.core.llm.halving import halving

    with RulesServer() as server:
        llm = _client(server, context_tokens=2000)
        requests = _summaries(8).concepts

        def ask(indexes):
            resp = llm.summarize_batch(SummaryBatchRequest(concepts=[requests[i] for i in indexes]))
            return {s.concept_id: s.summary for s in resp.summaries}

        answers = halving(ask, llm.call_sizes, "summarize")(list(range(8)))
    assert sorted(answers) == sorted(f"c{i}" for i in range(8))
    assert llm.call_sizes.limit("summarize", SummaryConfig().concepts_per_call) < 8


def test_a_first_call_that_fails_for_its_own_sake_does_not_change_the_form():
    with RulesServer(fail_marker="BROKEN-CALL") as server:
        llm = _client(server)
        broken = _summaries(1).model_copy(deep=True)
        broken.concepts[0].facts = ["Quillon 0 is a BROKEN-CALL gauge."]
        with pytest.raises(LLMUnavailable, match="gave up"):
            llm.summarize_batch(broken)
        assert len(llm.summarize_batch(_summaries(2)).summaries) == 2
        forms = [body["response_format"]["type"] for body in server.bodies]
    # refused, tried once in the other form (which this server refuses), back to json_schema
    assert forms[:2] == ["json_schema", "json_object"] and set(forms[2:]) == {"json_schema"}
    assert llm.response_form == "json_schema"


def test_the_local_model_reads_one_document_per_extraction_call(tmp_path):
    local = Settings.from_env({"GRAPHWIKI_HOME": str(tmp_path), "GRAPHWIKI_LLM": "local"})
    assert local.llm.max_documents_per_call == 1
    assert Settings.from_env({"GRAPHWIKI_HOME": str(tmp_path)}).llm.max_documents_per_call is None
    told = {"GRAPHWIKI_HOME": str(tmp_path), "GRAPHWIKI_LLM": "local", "GRAPHWIKI_LLM_MAX_DOCS_PER_CALL": "4"}
    assert Settings.from_env(told).llm.max_documents_per_call == 4
