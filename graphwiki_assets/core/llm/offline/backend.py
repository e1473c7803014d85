"""The offline backend: the same typed calls answered without an LLM, deterministically.

Extraction reads text with a trained English pipeline (``parsed_extraction``); the other
tasks are answered by rules.

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

import functools
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
from graphwiki_assets.core.llm.offline import (
    answer,
    communities,
    conflicts,
    judge,
    parsed_extraction,
    routing,
    support,
)
from graphwiki_assets.core.llm.prompts import estimate_prompt_tokens, estimate_tokens
from graphwiki_assets.core.nlp.model import DEFAULT_PIPELINE, load_pipeline

OFFLINE_VERSION = "offline-nlp/v20"


def offline_label(nlp_model: str = DEFAULT_PIPELINE, nli_model: str | None = None) -> str:
    """The label names the pipeline and the inference model: other ones extract other
    concepts and find other contradictions, so their cached answers are not reused."""
    return f"{OFFLINE_VERSION}+{nlp_model}" + (f"+{nli_model}" if nli_model else "")


OFFLINE_LABEL = offline_label()


def _extract_with(nlp_model: str) -> Callable[[ExtractBatchRequest], ExtractBatchResponse]:
    def extract_each(req: ExtractBatchRequest) -> ExtractBatchResponse:
        """The pipeline reads the call's documents together; each is answered on its own."""
        found = parsed_extraction.extract_parsed(req.documents, req.types, load_pipeline(nlp_model))
        return ExtractBatchResponse(
            documents=[
                DocumentExtraction(doc_id=doc.source_id, concepts=f.concepts, claims=f.claims, dropped=f.dropped)
                for doc, f in zip(req.documents, found)
            ]
        )

    return extract_each


def _summarize_each(req: SummaryBatchRequest) -> SummaryBatchResponse:
    return SummaryBatchResponse(
        summaries=[ConceptSummary(concept_id=c.concept_id, summary=answer.summarize(c).summary) for c in req.concepts]
    )


_RULES: dict[str, Callable[[Any], Any]] = {
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

    def __init__(self, nlp_model: str = DEFAULT_PIPELINE, nli_model: str | None = None) -> None:
        self.label = offline_label(nlp_model, nli_model)
        self.usage = Usage()
        self._tasks: dict[str, Callable[[Any], Any]] = {
            **_RULES,
            "extract": _extract_with(nlp_model),
            "conflicts": functools.partial(conflicts.conflicts, nli=nli_model is not None),
        }

    def _complete(self, task: Task, req: Any) -> Any:
        resp = self._tasks[task.name](req)
        self.usage.add(
            task.name,
            calls=1,
            prompt_tokens=estimate_prompt_tokens(task.messages(req)),
            completion_tokens=estimate_tokens(resp.model_dump_json()),
        )
        return resp
