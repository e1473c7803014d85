"""Large batched calls against a model whose output limit is smaller than their replies:
a reply cut off at the limit is reported as such, never re-asked as it was, and the
judge and the conflict check ask again in halves until every pair has its answer."""

from __future__ import annotations

import pytest

from graphwiki_assets.core.ingest.compared import Existing, Pair
from graphwiki_assets.core.ingest.conflicts import ConflictConfig, _ask
from graphwiki_assets.core.ingest.judging import JudgeConfig, _calls, judge_pairs
from graphwiki_assets.core.llm.calls import EntityView, JudgePair, JudgeRequest
from graphwiki_assets.core.llm.client import build_llm
from graphwiki_assets.core.llm.errors import LLMOutputTruncated
from graphwiki_assets.core.llm.offline.backend import OfflineLLM
from graphwiki_assets.core.llm.prompts import entity_key
from graphwiki_assets.core.llm.rules_server import RulesServer
from graphwiki_assets.core.settings import LLMSettings


def _served(server: RulesServer):
    settings = LLMSettings(
        api_key="test", base_url=server.base_url, model="rules", timeout_s=10, max_retries=1, concurrency=4
    )
    return build_llm(settings, None, backoff_base=0.01, backoff_max=0.02)


def _entity(n: int) -> EntityView:
    return EntityView(
        name=f"Quillon {n}",
        type="Instrument",
        context=f"Quillon {n} is a tide gauge of the Varn harbour, installed in pier {n}.",
    )


def _pairs(n: int) -> list[tuple[EntityView, EntityView]]:
    return [(_entity(i), _entity(i + 1 if i % 3 else i)) for i in range(n)]


def test_a_reply_cut_off_at_the_output_limit_is_reported_and_not_reasked():
    pair = JudgePair(pair_id="1", mention=_entity(1), candidate=_entity(2))
    with RulesServer(max_output_tokens=5) as server:
        llm = _served(server)
        with pytest.raises(LLMOutputTruncated, match="output limit"):
            llm.judge(JudgeRequest(pairs=[pair]))
    # A repair re-ask would be cut off the same way: one request, no more.
    assert server.requests == 1 and server.truncated == 1


def test_judge_calls_cut_off_are_asked_again_in_halves_until_every_pair_is_answered():
    pairs = _pairs(40)
    expected = judge_pairs(OfflineLLM(), pairs, JudgeConfig(pairs_per_call=40))
    with RulesServer(max_output_tokens=400) as server:
        llm = _served(server)
        verdicts = judge_pairs(llm, pairs, JudgeConfig(pairs_per_call=40))
    assert server.truncated >= 1 and server.requests > 1
    assert [(v.pair_id, v.verdict) for v in verdicts] == [(v.pair_id, v.verdict) for v in expected]


def test_after_a_reply_is_cut_off_the_client_packs_later_calls_below_that_size():
    pairs = _pairs(40)
    with RulesServer(max_output_tokens=400) as server:
        llm = _served(server)
        judge_pairs(llm, pairs, JudgeConfig(pairs_per_call=40))
        cut, asked = server.truncated, server.requests
        again = judge_pairs(llm, _pairs(40)[::-1], JudgeConfig(pairs_per_call=40))
    assert cut >= 1 and server.truncated == cut  # nothing paid for a reply that cannot fit
    assert server.requests - asked >= 2 and all(v.verdict for v in again)
    assert llm.call_sizes.limit("judge", 40) < 40 and llm.call_sizes.limit("conflicts", 64) == 64


def test_conflict_calls_cut_off_are_asked_again_in_halves():
    existing = Existing("claim-old", "The Quillon gauge reads in metres.", "current", [1.0, 0.0], None)
    pairs = [
        Pair(0, f"claim-{i}", f"The Quillon gauge reads in unit {i}.", existing, "Quillon gauge", []) for i in range(30)
    ]
    expected = _ask(OfflineLLM(), pairs, ConflictConfig(pairs_per_call=30))
    with RulesServer(max_output_tokens=300) as server:
        verdicts = _ask(_served(server), pairs, ConflictConfig(pairs_per_call=30))
    assert server.truncated >= 1
    assert [v.relation for v in verdicts] == [v.relation for v in expected]


def test_mentions_that_share_entities_are_packed_into_the_same_call():
    # Four mentions of two pairs each; mentions 0 and 2 share a candidate, as do 1 and 3.
    groups = [[0, 1], [2, 3], [4, 5], [6, 7]]
    shared = [{"a", "x"}, {"b", "y"}, {"c", "x"}, {"d", "y"}]
    calls = _calls(groups, 4, shared)
    assert sorted(sorted(c) for c in calls) == [[0, 1, 4, 5], [2, 3, 6, 7]]


def test_packing_keeps_every_pair_once_and_calls_within_their_size():
    groups = [[i, i + 1, i + 2] for i in range(0, 60, 3)] + [[60]]
    entities = [{f"e{i % 7}", f"m{i}"} for i in range(len(groups))]
    calls = _calls(groups, 10, entities)
    assert sorted(i for call in calls for i in call) == list(range(61))
    assert all(len(call) <= 10 for call in calls)
    for group in groups:  # a mention's candidates stay in one call
        assert sum(1 for call in calls if set(group) <= set(call)) == 1


def test_an_entity_is_known_by_everything_the_judge_reads_of_it():
    a = EntityView(name="Quillon", type="Instrument", aliases=["QG"], context="A tide gauge.")
    assert entity_key(a) == entity_key(a.model_copy())
    assert entity_key(a) != entity_key(a.model_copy(update={"context": "A harbour crane."}))
    assert entity_key(a) != entity_key(a.model_copy(update={"aliases": []}))
