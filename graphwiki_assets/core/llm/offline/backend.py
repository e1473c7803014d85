"""The offline backend: the same typed calls answered by rules, deterministically.

Every response is labelled with ``OFFLINE_LABEL``; bump its version whenever a rule
changes what it returns, so cached answers from older rules are not reused. Token
counts are estimated from the prompt an LLM backend would have been sent, so costs
stay comparable between the two.

What the rules can do: read what a text states (definitions, "also known as", "a product
of", negations, numbers and dates), match names by form (acronyms, spelling, corporate
suffixes, identifiers such as versions and model numbers), and refuse when unsure. What
they cannot: know the world. Two names of one thing that no text connects (a former name,
a trade name, a nickname) stay apart, and a claim pair
that contradicts only through outside knowledge is not seen. Precision comes first: a
wrong merge or a false contradiction costs more than a missed one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from graphwiki_assets.core.llm.base import BaseLLM, Task, Usage
from graphwiki_assets.core.llm.calls import (
    ConceptSummary,
    DocumentExtraction,
    ExtractBatchRequest,
    ExtractBatchResponse,
    SummaryBatchRequest,
    SummaryBatchResponse,
)
from graphwiki_assets.core.llm.offline import answer, communities, conflicts, extraction, judge, routing, support
from graphwiki_assets.core.llm.prompts import estimate_prompt_tokens, estimate_tokens

OFFLINE_LABEL = "offline-rules/v4"


def _extract_each(req: ExtractBatchRequest) -> ExtractBatchResponse:
    """Rules read one document at a time; a shared call is only a shared prompt."""
    documents = []
    for doc in req.documents:
        found = extraction.extract(doc)
        documents.append(
            DocumentExtraction(
                doc_id=doc.source_id, concepts=found.concepts, claims=found.claims, dropped=found.dropped
            )
        )
    return ExtractBatchResponse(documents=documents)


def _summarize_each(req: SummaryBatchRequest) -> SummaryBatchResponse:
    return SummaryBatchResponse(
        summaries=[ConceptSummary(concept_id=c.concept_id, summary=answer.summarize(c).summary) for c in req.concepts]
    )


_RULES: dict[str, Callable[[Any], Any]] = {
    "extract": _extract_each,
    "judge": judge.judge,
    "conflicts": conflicts.conflicts,
    "summarize": _summarize_each,
    "route": routing.route,
    "answer": answer.answer,
    "support": support.support,
    "community_reports": communities.community_reports,
}


class OfflineLLM(BaseLLM):
    offline = True

    def __init__(self) -> None:
        self.label = OFFLINE_LABEL
        self.usage = Usage()

    def _complete(self, task: Task, req: Any) -> Any:
        resp = _RULES[task.name](req)
        self.usage.add(
            task.name,
            calls=1,
            prompt_tokens=estimate_prompt_tokens(task.messages(req)),
            completion_tokens=estimate_tokens(resp.model_dump_json()),
        )
        return resp
