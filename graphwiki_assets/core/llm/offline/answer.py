"""Offline answers and summaries: extractive, from the given facts only."""

from __future__ import annotations

import re

from graphwiki_assets.core.llm.calls import (
    AnswerRequest,
    AnswerResponse,
    AnswerSentence,
    SummaryRequest,
    SummaryResponse,
)
from graphwiki_assets.core.normal_forms import norm_name
from graphwiki_assets.core.text.sentences import distinct_sentences, join_within, split_sentences
from graphwiki_assets.core.text.words import content_words

MAX_ANSWER_SENTENCES = 8
MAX_SUMMARY_CHARS = 400


def flag_status(text: str, status: str, fact_id: str) -> str:
    """Marks a statement whose status is not current, inside its sentence:
    "X is declarative [disputed — see claim-2]."."""
    body = text.rstrip()
    end = ""
    while body and body[-1] in ".!?":
        body, end = body[:-1], body[-1] + end
    return f"{body} [{status} — see {fact_id}]{end}"


def answer(req: AnswerRequest) -> AnswerResponse:
    """One sentence per fact, the facts sharing most words with the question first (ties
    keep the retrieval order); identical texts are cited together; a fact whose status
    is not current carries its flag."""
    question = set(content_words(req.question))
    merged: dict[str, list] = {}
    for rank, fact in enumerate(req.facts):
        key = " ".join(content_words(fact.text)) or fact.text.strip().lower()
        if not fact.text.strip():
            continue
        if key in merged:
            merged[key][2].append(fact)
            continue
        overlap = len(question & set(content_words(fact.text)))
        merged[key] = [overlap, rank, [fact]]
    ranked = sorted(merged.values(), key=lambda item: (-item[0], item[1]))[:MAX_ANSWER_SENTENCES]
    sentences = []
    for _, _, facts in ranked:
        text = facts[0].text.strip()
        for f in facts:
            if f.status and f.status != "current":
                text = flag_status(text, f.status, f.fact_id)
        sentences.append(AnswerSentence(text=text, fact_ids=[f.fact_id for f in facts]))
    return AnswerResponse(sentences=sentences)


def summarize(req: SummaryRequest) -> SummaryResponse:
    """The concept's definition, the current summary's sentences, then facts not already said,
    definitional facts about the concept first ("X is a ..."), cut at a sentence within ~400
    characters."""
    name = norm_name(req.name)
    defining = re.compile(rf"^(?:(?:the|an?)\s+)?{re.escape(req.name)}\b.*?\b(?:is|was|are|were)\b", re.IGNORECASE)
    facts = sorted(enumerate(req.facts), key=lambda f: (not defining.search(f[1].strip()), f[0]))
    lead = [req.definition] if req.definition.strip() else []
    pieces = distinct_sentences(lead + split_sentences(req.current_summary) + [f for _, f in facts], contained=True)
    summary = join_within(pieces, MAX_SUMMARY_CHARS)
    if not summary:
        kind = f" ({req.type})" if req.type else ""
        summary = f"{req.name}{kind}: no facts recorded yet." if name else "No facts recorded yet."
    return SummaryResponse(summary=summary)
