"""The LLM client every caller uses: typed calls, one factory.

``build_llm`` returns the offline rules when no endpoint is configured, else the
OpenAI-compatible backend; either sits behind the disk cache when a cache directory is
given. Every response carries ``backend`` (e.g. ``offline-nlp/v12+en_core_web_md`` or
``openai:gpt-4o-mini``), and ``client.usage`` counts calls, cache hits and tokens.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from graphwiki_assets.core.llm import calls as r
from graphwiki_assets.core.llm.base import BaseLLM, Usage
from graphwiki_assets.core.llm.errors import LLMBadOutput, LLMError, LLMUnavailable
from graphwiki_assets.core.llm.halving import CallSizes
from graphwiki_assets.core.settings import LLMSettings

log = logging.getLogger(__name__)
_warned: set[str] = set()

__all__ = ["LLMClient", "LLMError", "LLMUnavailable", "LLMBadOutput", "Usage", "build_llm"]


@runtime_checkable
class LLMClient(Protocol):
    label: str
    offline: bool
    usage: Usage
    concurrency: int  # independent calls worth running at once (1: rules gain nothing from threads)

    @property
    def call_sizes(self) -> CallSizes: ...  # items per batched call that fit the model's output limit

    def extract(self, req: r.ExtractRequest) -> r.ExtractResponse: ...
    def extract_batch(self, req: r.ExtractBatchRequest) -> r.ExtractBatchResponse: ...
    def judge(self, req: r.JudgeRequest) -> r.JudgeResponse: ...
    def conflicts(self, req: r.ConflictRequest) -> r.ConflictResponse: ...
    def summarize(self, req: r.SummaryRequest) -> r.SummaryResponse: ...
    def summarize_batch(self, req: r.SummaryBatchRequest) -> r.SummaryBatchResponse: ...
    def route(self, req: r.RouteRequest) -> r.RouteResponse: ...
    def answer(self, req: r.AnswerRequest) -> r.AnswerResponse: ...
    def support(self, req: r.SupportRequest) -> r.SupportResponse: ...
    def community_reports(self, req: r.CommunityReportRequest) -> r.CommunityReportResponse: ...


def backend_label(settings: LLMSettings) -> str:
    """The label a client built from these settings answers with, without building it."""
    if settings.offline:
        from graphwiki_assets.core.llm.offline.backend import offline_label

        return offline_label(settings.nlp_model, usable_nli(settings))
    from graphwiki_assets.core.llm.openai_backend import openai_label

    return openai_label(settings.model)


def usable_nli(settings: LLMSettings) -> str | None:
    """The inference model the offline backend's contradiction check uses: the configured one
    once it is built (`graphwiki nli prepare`); until then, with a warning, its rules alone."""
    name = (settings.nli_model or "").strip()
    if name.lower() in ("", "none"):
        return None
    from graphwiki_assets.core.nli.model import prepared

    if prepared(name):
        return name
    if name not in _warned:
        _warned.add(name)
        log.warning(
            "NLI model %s is not built (graphwiki nli prepare): contradictions are checked by rules alone", name
        )
    return None


def build_llm(settings: LLMSettings, cache_dir: Path | None = None, **openai_options: Any) -> LLMClient:
    """``openai_options`` go to the OpenAI backend (``backoff_base``, ``backoff_max``,
    ``temperature``); the offline backend takes none."""
    backend: BaseLLM
    if settings.offline:
        from graphwiki_assets.core.llm.offline.backend import OfflineLLM

        backend = OfflineLLM(settings.nlp_model, usable_nli(settings))
    else:
        from graphwiki_assets.core.llm.openai_backend import OpenAILLM

        backend = OpenAILLM(settings, **openai_options)
    if cache_dir is not None:
        from graphwiki_assets.core.llm.cache import CachedLLM

        backend = CachedLLM(backend, cache_dir)
    from graphwiki_assets.core.llm.parsed_conflicts import ParsedFirst

    return ParsedFirst(backend, settings.nlp_model)  # outside the cache: the parse is cheaper than a file
