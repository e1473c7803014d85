"""A real model behind the OpenAI path: `graphwiki llm start` serves SmolLM2-135M with
llama.cpp's server (built once and cached, like the weights), and the project's own
requests go through it: every typed call once, and one file ingested end to end into the
test graph. A model this small says little; the point is that the path, the schema form
and the context window hold, and that every reply validates against its schema.

Building the runtime takes about 15 minutes on two cores the first time (later runs reuse
~/.cache/graphwiki/llama.cpp); `scripts/test.sh` prepares it before pytest starts.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from dataclasses import replace

import pytest

from graphwiki_assets.core.llm.calls import (
    AnswerRequest,
    ClaimPair,
    CommunityInput,
    CommunityMember,
    CommunityReportRequest,
    ConflictRequest,
    EntityView,
    Fact,
    JudgePair,
    JudgeRequest,
    RouteRequest,
    SummaryBatchRequest,
    SummaryRequest,
    SupportPair,
    SupportRequest,
)
from graphwiki_assets.core.llm.client import build_llm
from graphwiki_assets.core.llm.errors import LLMOutputTruncated
from graphwiki_assets.core.query.answer import Facts, synthesise
from graphwiki_assets.core.settings import Settings
from tests.support.ingest import SMOKE_TEXTS, ingest, write_sources

pytestmark = [pytest.mark.llm]

MODEL = "smollm2-135m"
FIRST_BUILD_S = 5400  # fetching the weights and building llama-server from nothing, on two busy cores


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def local_env(tmp_path_factory):
    """The environment of a user who ran `GRAPHWIKI_LLM=local graphwiki llm start`."""
    env = {
        "GRAPHWIKI_HOME": str(tmp_path_factory.mktemp("llm-home")),
        "GRAPHWIKI_LLM": "local",
        "GRAPHWIKI_LLM_LOCAL_MODEL": MODEL,
        "GRAPHWIKI_LLM_PORT": str(_free_port()),
    }
    full = {k: v for k, v in os.environ.items() if k not in ("OPENAI_BASE_URL", "OPENAI_API_KEY")} | env
    cli = [sys.executable, "-m", "graphwiki_assets.cli.main", "llm"]
    started = subprocess.run(
        [*cli, "start", "--json", "--timeout", "600"], env=full, capture_output=True, text=True, timeout=FIRST_BUILD_S
    )
    assert started.returncode == 0, started.stderr[-3000:]
    try:
        yield env, json.loads(started.stdout), full
    finally:
        subprocess.run([*cli, "stop"], env=full, capture_output=True, timeout=120)


@pytest.fixture(scope="module")
def local_llm(local_env):
    env, _, _ = local_env
    return build_llm(Settings.from_env(env).llm)


def test_the_server_runs_the_small_model_and_says_its_context(local_env):
    env, started, full = local_env
    assert started["running"] and started["model"] == MODEL and started["context_tokens"] == 8192
    status = subprocess.run(
        [sys.executable, "-m", "graphwiki_assets.cli.main", "llm", "status", "--json"],
        env=full,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert status.returncode == 0 and json.loads(status.stdout)["pid"] == started["pid"]


CYPHER = EntityView(name="Cypher", type="Language", context="Cypher is a declarative query language for Neo4j.")
CQL = EntityView(name="CQL", type="Language", context="CQL, the Cypher Query Language, queries Neo4j.")
FACT = "Cypher is a declarative query language for property graphs."
CALLS = {
    "judge": lambda llm: llm.judge(JudgeRequest(pairs=[JudgePair(pair_id="1", mention=CQL, candidate=CYPHER)])),
    "conflicts": lambda llm: llm.conflicts(
        ConflictRequest(
            pairs=[ClaimPair(pair_id="1", concept="Cypher", new_claim=FACT, existing_claim="Cypher is imperative.")]
        )
    ),
    "summarize": lambda llm: llm.summarize_batch(
        SummaryBatchRequest(concepts=[SummaryRequest(concept_id="c1", name="Cypher", facts=[FACT])])
    ),
    "route": lambda llm: llm.route(RouteRequest(question="What is Cypher?")),
    "answer": lambda llm: llm.answer(
        AnswerRequest(
            question="What is Cypher?", shape="what_is", facts=[Fact(fact_id="f1", text=FACT, source_ids=["s1"])]
        )
    ),
    "support": lambda llm: llm.support(
        SupportRequest(pairs=[SupportPair(pair_id="1", statement="Cypher is declarative.", evidence=[FACT])])
    ),
    "community_reports": lambda llm: llm.community_reports(
        CommunityReportRequest(
            communities=[CommunityInput(community_id="k1", members=[CommunityMember(name="Cypher")], facts=[FACT])]
        )
    ),
}


# A 135M model often runs on inside a free-text field (a reason, a summary, an answer) until
# the reply's bound. Such a call must fail alone, cleanly and counted; any reply that does
# come back must validate against its schema.
@pytest.mark.parametrize("task", sorted(CALLS))
def test_every_typed_call_gets_a_schema_valid_reply_or_fails_alone_at_its_bound(local_llm, task):
    before = local_llm.usage.snapshot()
    try:
        response = CALLS[task](local_llm)
    except LLMOutputTruncated:
        used = local_llm.usage - before
        assert used.calls >= 1 and used.failures >= 1 and used.completion_tokens > 0
    else:
        used = local_llm.usage - before
        assert response.backend == f"openai:{MODEL}"
        assert used.calls >= 1 and used.failures == 0 and used.prompt_tokens > 0 and used.completion_tokens > 0
    # llama-server takes OpenAI's json_schema form; the client found that on its first call
    assert local_llm.response_form == "json_schema"


def test_verdicts_are_read_from_the_servers_token_probabilities(local_llm):
    # with GRAPHWIKI_LLM=local the judge asks for one word and reads llama-server's logprobs
    assert local_llm.verdicts == "scored"
    resp = CALLS["judge"](local_llm)
    (verdict,) = resp.verdicts
    assert verdict.pair_id == "1" and "token probabilities" in verdict.reason
    assert 0.5 <= verdict.confidence <= 1.0


def test_an_answer_the_model_cannot_finish_falls_back_to_the_facts(local_llm):
    fact = Fact(fact_id="f1", text=FACT, source_ids=["s1"])
    sentences, writer = synthesise(local_llm, "What is Cypher?", "what_is", Facts(facts=[fact]))
    assert sentences and all(s.fact_ids == ["f1"] for s in sentences), writer  # the model's answer, or the fact


def test_one_file_is_ingested_end_to_end_through_the_model(local_env, store, embedder, settings, tmp_path):
    env, _, _ = local_env
    local = replace(settings, llm=Settings.from_env(env).llm)
    paths = write_sources(tmp_path / "sources", {"cypher.md": SMOKE_TEXTS["cypher.md"]})
    report = ingest(store, embedder, local, paths, cache=False).as_dict()
    assert report["backend"] == f"openai:{MODEL}"
    # ingested, or (a reply the model could not finish) failed alone with nothing half-written
    assert report["sources"]["new"] + report["sources"]["failed"] == 1, report
    assert report["llm_calls"] >= 1
    assert store.query("MATCH (s:Source) RETURN count(s) AS n")[0]["n"] == report["sources"]["new"]
    orphans = store.query(
        "MATCH (n) WHERE (n:Concept OR n:Claim) AND NOT (n)-[:DERIVED_FROM]->(:Source) RETURN count(n) AS n"
    )
    assert orphans[0]["n"] == 0
