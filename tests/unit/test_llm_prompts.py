"""Prompts pay for each piece of data once, and say everything the typed request holds:
the rules server reads every prompt back into the very request it was built from."""

from __future__ import annotations

import json

import pytest

from graphwiki_assets.core.llm import prompts
from graphwiki_assets.core.llm.base import TASKS
from graphwiki_assets.core.llm.calls import (
    AnswerRequest,
    ClaimPair,
    ConflictRequest,
    EntityView,
    ExtractBatchRequest,
    ExtractRequest,
    Fact,
    JudgePair,
    JudgeRequest,
    RouteRequest,
    SummaryBatchRequest,
    SummaryRequest,
    SupportPair,
    SupportRequest,
)
from graphwiki_assets.core.llm.rules_server import request_from_messages

KORTEL = EntityView(name="Kortel", type="Company", aliases=["Kortel Inc"], context="Kortel makes disks.")
JUDGE = JudgeRequest(
    pairs=[
        JudgePair(pair_id="1", mention=EntityView(name="Kortel Systems", context="A disk maker."), candidate=KORTEL),
        JudgePair(pair_id="2", mention=EntityView(name="Kortl", context="Kortl sells disks."), candidate=KORTEL),
    ]
)
CONFLICTS = ConflictRequest(
    pairs=[
        ClaimPair(
            pair_id="1",
            concept="Tarn",
            concept_aliases=["Lake Tarn"],
            new_claim="Tarn is 40 m deep.",
            existing_claim="Tarn is 12 m deep.",
        ),
        ClaimPair(
            pair_id="2",
            concept="Tarn",
            concept_aliases=["Lake Tarn"],
            new_claim="Tarn is 40 m deep.",
            existing_claim="Tarn freezes in winter.",
        ),
    ]
)
REQUESTS = {
    "extract": ExtractBatchRequest(
        documents=[
            ExtractRequest(source_id="s1", title="Kortel", text="Kortel\n\nKortel is a hardware company."),
            ExtractRequest(source_id="s2", title="Tarn", text="# Tarn\nTarn is a lake."),
            ExtractRequest(
                source_id="s3#2",
                title="Lakes",
                text="Tarn drains into the Orrin.",
                section="Lakes > Tarn > Outflow",
                links=["Orrin"],
            ),
        ]
    ),
    "judge": JUDGE,
    "conflicts": CONFLICTS,
    "summarize": SummaryBatchRequest(
        concepts=[
            SummaryRequest(concept_id="c1", name="Kortel", type="Company", facts=["Kortel makes disks."]),
            SummaryRequest(concept_id="c2", name="Tarn", current_summary="A lake.", facts=["Tarn freezes."]),
        ]
    ),
    "route": RouteRequest(question="What is Kortel?"),
    "answer": AnswerRequest(
        question="What is Kortel?",
        shape="what_is",
        facts=[Fact(fact_id="f1", text="Kortel makes disks.", source_ids=["s1"])],
    ),
    "support": SupportRequest(
        pairs=[
            SupportPair(
                pair_id="1", statement="Kortel makes disks.", evidence=["Kortel makes disks.", "Tarn is a lake."]
            )
        ]
    ),
}


def _data(messages) -> object:
    content = messages[-1]["content"]
    return json.loads(content.split("\n", 1)[1].rsplit("\n", 1)[0])


def _large(req, copies: int = prompts.INLINE_PAIRS_UP_TO):
    """The request's pairs and ``copies`` more under other ids: a call large enough for a table."""
    extra = [p.model_copy(update={"pair_id": f"{p.pair_id}-{n}"}) for n in range(copies) for p in req.pairs]
    return type(req)(pairs=[*req.pairs, *extra])


def test_a_large_call_lists_a_shared_candidate_once():
    table = _data(prompts.judge_messages(_large(JUDGE)))
    assert [row[1] for row in table["entities"]].count("Kortel") == 1
    assert len(table["entities"]) == 3 and len(table["pairs"]) == 2 * (prompts.INLINE_PAIRS_UP_TO + 1)


def test_a_large_call_lists_a_claim_compared_twice_once():
    table = _data(prompts.conflict_messages(_large(CONFLICTS)))
    assert [c[1] for c in table["claims"]].count("Tarn is 40 m deep.") == 1
    assert len(table["concepts"]) == 1


def test_a_small_call_spells_every_pair_out_with_no_ids_to_join():
    pairs = _data(prompts.judge_messages(JUDGE))
    assert [p["pair_id"] for p in pairs] == [p.pair_id for p in JUDGE.pairs]
    assert pairs[0]["candidate"]["name"] == JUDGE.pairs[0].candidate.name
    claims = _data(prompts.conflict_messages(CONFLICTS))
    assert claims[0]["existing_claim"] == CONFLICTS.pairs[0].existing_claim


@pytest.mark.parametrize("req", [_large(JUDGE), _large(CONFLICTS)], ids=["judge", "conflicts"])
def test_a_large_call_reads_back_into_its_request(req):
    task = "judge" if isinstance(req, JudgeRequest) else "conflicts"
    assert request_from_messages(task, TASKS[task].messages(req)) == req


def test_a_title_that_is_the_first_line_is_not_sent_twice():
    docs = _data(prompts.extract_messages(REQUESTS["extract"]))
    assert "title" not in docs[0] and docs[1]["title"] == "Tarn"


def test_a_section_and_its_link_texts_reach_the_extraction_prompt():
    docs = _data(prompts.extract_messages(REQUESTS["extract"]))
    assert docs[2]["section"] == "Lakes > Tarn > Outflow" and docs[2]["links"] == ["Orrin"]
    assert "section" not in docs[0] and "links" not in docs[0]  # nothing paid for what a document lacks


@pytest.mark.parametrize("task", sorted(REQUESTS))
def test_every_prompt_reads_back_into_its_request(task):
    req = REQUESTS[task]
    assert request_from_messages(task, TASKS[task].messages(req)) == req
