"""What every backend shares: errors, usage counters, and the table of tasks.

A task ties a request type to its response type, prompt builder and prompt version; its
response schema is made from the response type (``llm.schemas``). Backends implement one
method, ``_complete``; the checks that hold a response to its request (ids, names,
citations) run here, the same for every backend.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from graphwiki_assets.core.llm import prompts, validation
from graphwiki_assets.core.llm.calls import (
    AnswerRequest,
    AnswerResponse,
    CommunityReportRequest,
    CommunityReportResponse,
    ConflictRequest,
    ConflictResponse,
    ExtractBatchRequest,
    ExtractBatchResponse,
    ExtractRequest,
    ExtractResponse,
    JudgeRequest,
    JudgeResponse,
    RouteRequest,
    RouteResponse,
    SummaryBatchRequest,
    SummaryBatchResponse,
    SummaryRequest,
    SummaryResponse,
    SupportRequest,
    SupportResponse,
)
from graphwiki_assets.core.llm.errors import LLMBadOutput, LLMError, LLMUnavailable
from graphwiki_assets.core.llm.halving import CallSizes
from graphwiki_assets.core.llm.schemas import response_schema

__all__ = ["LLMError", "LLMUnavailable", "LLMBadOutput", "Usage", "Task", "TASKS", "BaseLLM", "COUNTERS"]

EXTRACT_REPLY_RATIO = 5  # tokens of an extraction reply per token of text, at most

# controls_failed: judge or conflict calls that failed their control pair (core/ingest/controls.py)
COUNTERS = ("calls", "cache_hits", "prompt_tokens", "completion_tokens", "retries", "failures", "controls_failed")


@dataclass
class Usage:
    """Counters for one client. ``calls`` are completed backend calls (offline calls
    included, with estimated tokens); ``retries`` are attempts repeated after a transient
    error or an invalid reply; ``failures`` are calls that raised an ``LLMError``.
    Every count is also kept per task (extract, judge, conflicts, summarize, ...).
    Snapshot before and subtract after to get one asset's share."""

    calls: int = 0
    cache_hits: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    retries: int = 0
    failures: int = 0
    controls_failed: int = 0
    by_task: dict[str, dict[str, int]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False, compare=False)

    def add(self, task: str | None = None, **counts: int) -> None:
        with self._lock:
            for name, n in counts.items():
                setattr(self, name, getattr(self, name) + n)
                if task:
                    per = self.by_task.setdefault(task, dict.fromkeys(COUNTERS, 0))
                    per[name] += n

    def as_dict(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in COUNTERS}

    def portable(self) -> dict[str, Any]:
        """Every counter and the per-task counts as plain data, to send to another process."""
        return {**self.as_dict(), "by_task": {t: dict(c) for t, c in self.by_task.items()}}

    @classmethod
    def from_portable(cls, data: dict[str, Any]) -> Usage:
        return cls(**{name: data.get(name, 0) for name in COUNTERS}, by_task=data.get("by_task", {}))

    def tasks(self) -> dict[str, dict[str, int]]:
        """Per task, the counters that are not zero."""
        return {
            task: {k: v for k, v in counts.items() if v}
            for task, counts in sorted(self.by_task.items())
            if any(counts.values())
        }

    def snapshot(self) -> Usage:
        with self._lock:
            return Usage(**self.as_dict(), by_task={t: dict(c) for t, c in self.by_task.items()})

    def _combine(self, other: Usage, sign: int) -> Usage:
        tasks = {}
        for task in set(self.by_task) | set(other.by_task):
            mine, theirs = self.by_task.get(task, {}), other.by_task.get(task, {})
            tasks[task] = {n: mine.get(n, 0) + sign * theirs.get(n, 0) for n in COUNTERS}
        return Usage(**{name: getattr(self, name) + sign * getattr(other, name) for name in COUNTERS}, by_task=tasks)

    def __sub__(self, other: Usage) -> Usage:
        return self._combine(other, -1)

    def __add__(self, other: Usage) -> Usage:
        return self._combine(other, 1)

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


@dataclass(frozen=True)
class Task:
    name: str
    request: type[BaseModel]
    response: type[BaseModel]
    version: str
    messages: Callable[[Any], prompts.Messages]
    check: Callable[[Any], str | None] = lambda _resp: None  # a problem worth a repair re-ask
    # What one reply may take, in tokens: ``reply_base`` plus ``reply_per_item`` for each of the
    # request's items (``items``). It bounds a reply (``max_tokens``) where the context is
    # known, so a small model that runs on stops there and the call is asked again smaller.
    items: Callable[[Any], int] = lambda _req: 1
    reply_base: int = 256
    reply_per_item: int = 0
    schema: dict[str, Any] = field(init=False, repr=False, compare=False)  # what the model fills

    def __post_init__(self) -> None:
        object.__setattr__(self, "schema", response_schema(self.response))


TASKS: dict[str, Task] = {
    t.name: t
    for t in [
        Task(
            "extract",
            ExtractBatchRequest,
            ExtractBatchResponse,
            prompts.EXTRACT_PROMPT_VERSION,
            prompts.extract_messages,
            # Concepts and claims restate the text they come from, with JSON keys and quotes
            # around every part, and a small model indents its JSON: the 1.5B model's finished
            # replies ran up to 5 times the text's tokens; a bound of once the text cut most off.
            items=lambda req: sum(len(d.text) for d in req.documents) // 4,
            reply_base=512,
            reply_per_item=EXTRACT_REPLY_RATIO,
        ),
        Task(
            "judge",
            JudgeRequest,
            JudgeResponse,
            prompts.JUDGE_PROMPT_VERSION,
            prompts.judge_messages,
            items=lambda req: len(req.pairs),
            reply_per_item=80,  # a verdict with its one-line reason
        ),
        Task(
            "conflicts",
            ConflictRequest,
            ConflictResponse,
            prompts.CONFLICT_PROMPT_VERSION,
            prompts.conflict_messages,
            items=lambda req: len(req.pairs),
            reply_per_item=80,
        ),
        Task(
            "summarize",
            SummaryBatchRequest,
            SummaryBatchResponse,
            prompts.SUMMARY_PROMPT_VERSION,
            prompts.summary_messages,
            check=lambda r: "a summary is empty" if any(not s.summary.strip() for s in r.summaries) else None,
            items=lambda req: len(req.concepts),
            reply_per_item=200,
        ),
        Task("route", RouteRequest, RouteResponse, prompts.ROUTE_PROMPT_VERSION, prompts.route_messages),
        Task(
            "answer",
            AnswerRequest,
            AnswerResponse,
            prompts.ANSWER_PROMPT_VERSION,
            prompts.answer_messages,
            reply_base=1024,
        ),
        Task(
            "support",
            SupportRequest,
            SupportResponse,
            prompts.SUPPORT_PROMPT_VERSION,
            prompts.support_messages,
            items=lambda req: len(req.pairs),
            reply_per_item=60,
        ),
        Task(
            "community_reports",
            CommunityReportRequest,
            CommunityReportResponse,
            prompts.COMMUNITY_PROMPT_VERSION,
            prompts.community_messages,
            check=lambda r: (
                "a report is empty" if any(not (x.title.strip() and x.summary.strip()) for x in r.reports) else None
            ),
            items=lambda req: len(req.communities),
            reply_per_item=400,
        ),
    ]
}


class BaseLLM:
    """The eight typed calls, each validated against its request and labelled. ``extract``
    and ``summarize`` take one item as a convenience; the tasks themselves take several."""

    label: str
    offline: bool
    usage: Usage
    concurrency: int = 1

    @property
    def call_sizes(self) -> CallSizes:
        """What this client has learnt of its model's output limit (``llm.halving``)."""
        return self.__dict__.setdefault("_call_sizes", CallSizes())

    def extract_batch(self, req: ExtractBatchRequest) -> ExtractBatchResponse:
        return self._run(TASKS["extract"], req)

    def extract(self, req: ExtractRequest) -> ExtractResponse:
        resp = self.extract_batch(ExtractBatchRequest(documents=[req]))
        if not resp.documents:
            raise LLMBadOutput(f"{self.label} extract: no extraction returned for {req.source_id}")
        return resp.documents[0].as_response(resp.backend)

    def summarize_batch(self, req: SummaryBatchRequest) -> SummaryBatchResponse:
        return self._run(TASKS["summarize"], req)

    def summarize(self, req: SummaryRequest) -> SummaryResponse:
        one = req if req.concept_id else req.model_copy(update={"concept_id": "c1"})
        resp = self.summarize_batch(SummaryBatchRequest(concepts=[one]))
        if not resp.summaries:
            raise LLMBadOutput(f"{self.label} summarize: no summary returned for {req.name!r}")
        return SummaryResponse(summary=resp.summaries[0].summary, backend=resp.backend)

    def judge(self, req: JudgeRequest) -> JudgeResponse:
        return self._run(TASKS["judge"], req)

    def conflicts(self, req: ConflictRequest) -> ConflictResponse:
        return self._run(TASKS["conflicts"], req)

    def route(self, req: RouteRequest) -> RouteResponse:
        return self._run(TASKS["route"], req)

    def answer(self, req: AnswerRequest) -> AnswerResponse:
        return self._run(TASKS["answer"], req)

    def support(self, req: SupportRequest) -> SupportResponse:
        return self._run(TASKS["support"], req)

    def community_reports(self, req: CommunityReportRequest) -> CommunityReportResponse:
        return self._run(TASKS["community_reports"], req)

    def version_of(self, task: Task) -> str:
        """The prompt version this client answers ``task`` with (part of the cache key)."""
        return task.version

    def _run(self, task: Task, req: Any) -> Any:
        if not isinstance(req, task.request):
            raise TypeError(f"{task.name} takes a {task.request.__name__}, not {type(req).__name__}")
        resp = self._complete(task, req)
        resp = validation.finish(task.name, req, resp, lambda sub: self._complete(task, sub))
        return resp.model_copy(update={"backend": self.label})

    def _complete(self, task: Task, req: Any) -> Any:
        """One schema-valid response from the backend, or an ``LLMError``."""
        raise NotImplementedError
