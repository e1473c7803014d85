"""A model server that restarts answers 503 "Loading model" until its weights are in memory
(llama-server does). A call waits that out within a bound instead of spending its retries
in a second, while a burst of 429s or 503s of another kind is still retried a set number
of times; the embeddings client treats the same answers the same way."""

from __future__ import annotations

import time

import pytest

from graphwiki_assets.core.embeddings_remote import EmbeddingsUnavailable, RemoteEmbedder
from graphwiki_assets.core.llm.calls import RouteRequest
from graphwiki_assets.core.llm.client import build_llm
from graphwiki_assets.core.llm.errors import LLMUnavailable
from graphwiki_assets.core.llm.rules_server import RulesServer
from graphwiki_assets.core.retries import LoadWait
from graphwiki_assets.core.settings import EmbeddingsServiceSettings, LLMSettings

ROUTE = RouteRequest(question="What is a quillon?")


def _llm(server: RulesServer, load_wait_s: float):
    settings = LLMSettings(
        api_key="test", base_url=server.base_url, model="rules", timeout_s=10, max_retries=2, load_wait_s=load_wait_s
    )
    return build_llm(settings, None, backoff_base=0.01, backoff_max=0.02)


@pytest.fixture(autouse=True)
def _quick_polls(monkeypatch):
    monkeypatch.setattr(LoadWait, "POLL_S", 0.2)


def test_a_call_waits_while_the_server_loads_its_model_then_gets_its_answer():
    with RulesServer() as server:
        server.load_for(1.5)
        started = time.monotonic()
        llm = _llm(server, load_wait_s=30)
        assert llm.route(ROUTE).shape
        # more "Loading model" answers than the two retries allow, none of them counted as one
        assert server.refused > 3 and time.monotonic() - started >= 1.4
        assert llm.usage.by_task["route"]["failures"] == 0 and llm.usage.by_task["route"]["retries"] == 0


def test_a_model_still_loading_after_the_bound_fails_the_call_saying_so():
    with RulesServer() as server:
        server.load_for(60)
        with pytest.raises(LLMUnavailable, match="still loading after 0.6 s"):
            _llm(server, load_wait_s=0.6).route(ROUTE)


def test_a_burst_of_429s_is_retried_a_set_number_of_times():
    with RulesServer() as server:
        server.burst(429, 2)
        assert _llm(server, load_wait_s=30).route(ROUTE).shape and server.refused == 2
        server.burst(503, 5)
        with pytest.raises(LLMUnavailable, match="gave up after 3 attempts"):
            _llm(server, load_wait_s=30).route(ROUTE)
        assert server.refused == 5  # 2 earlier + 3: a plain 503 is no loading model


def test_the_embeddings_client_waits_out_a_loading_server_too():
    with RulesServer() as server:
        server.load_for(60)
        settings = EmbeddingsServiceSettings(base_url=server.base_url, max_retries=1, load_wait_s=0.6)
        with pytest.raises(EmbeddingsUnavailable, match="still loading after 0.6 s"):
            RemoteEmbedder(settings, backoff_base=0.01, backoff_max=0.02).encode(["a quillon"])
