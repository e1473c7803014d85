"""What every backend shares: errors, usage counters, and the table of tasks.

A task ties a request type to its response type, prompt builder, prompt version and
response schema. Backends implement one method, ``_complete``; the checks that hold a
response to its request (ids, names, citations) run here, the same for every backend.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from graphwiki_assets.core.llm import prompts, validation
from graphwiki_assets.core.llm.errors import LLMBadOutput, LLMError, LLMUnavailable
from graphwiki_assets.core.llm.requests import (
    AnswerRequest,
    AnswerResponse,
    ConflictRequest,
    ConflictResponse,
    ExtractRequest,
    ExtractResponse,
    JudgeRequest,
    JudgeResponse,
    RouteRequest,
    RouteResponse,
    SummaryRequest,
    SummaryResponse,
)


__all__ = ["LLMError", "LLMUnavailable", "LLMBadOutput", "Usage", "Task", "TASKS", "BaseLLM", "COUNTERS"]

COUNTERS = ("calls", "cache_hits", "prompt_tokens", "completion_tokens", "retries", "failures")


@dataclass
class Usage:
    """Counters for one client. ``calls`` are completed backend calls (offline calls
    included, with estimated tokens); ``retries`` are attempts repeated after a transient
    error or an invalid reply; ``failures`` are calls that raised an ``LLMError``.
    Snapshot before and subtract after to get one asset's share."""

    calls: int = 0
    cache_hits: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    retries: int = 0
    failures: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def add(self, **counts: int) -> None:
        with self._lock:
            for name, n in counts.items():
                setattr(self, name, getattr(self, name) + n)

    def as_dict(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in COUNTERS}

    def snapshot(self) -> "Usage":
        with self._lock:
            return Usage(**self.as_dict())

    def __sub__(self, other: "Usage") -> "Usage":
        return Usage(**{name: getattr(self, name) - getattr(other, name) for name in COUNTERS})

    def __add__(self, other: "Usage") -> "Usage":
        return Usage(**{name: getattr(self, name) + getattr(other, name) for name in COUNTERS})

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
    schema: dict[str, Any]
    check: Callable[[Any], str | None] = lambda _resp: None  # a problem worth a repair re-ask


TASKS: dict[str, Task] = {
    t.name: t
    for t in [
        Task("extract", ExtractRequest, ExtractResponse, prompts.EXTRACT_PROMPT_VERSION, prompts.extract_messages, prompts.EXTRACT_SCHEMA),
        Task("judge", JudgeRequest, JudgeResponse, prompts.JUDGE_PROMPT_VERSION, prompts.judge_messages, prompts.JUDGE_SCHEMA),
        Task("conflicts", ConflictRequest, ConflictResponse, prompts.CONFLICT_PROMPT_VERSION, prompts.conflict_messages, prompts.CONFLICT_SCHEMA),
        Task(
            "summarize", SummaryRequest, SummaryResponse, prompts.SUMMARY_PROMPT_VERSION, prompts.summary_messages, prompts.SUMMARY_SCHEMA,
            check=lambda r: None if r.summary.strip() else "summary is empty",
        ),
        Task("route", RouteRequest, RouteResponse, prompts.ROUTE_PROMPT_VERSION, prompts.route_messages, prompts.ROUTE_SCHEMA),
        Task("answer", AnswerRequest, AnswerResponse, prompts.ANSWER_PROMPT_VERSION, prompts.answer_messages, prompts.ANSWER_SCHEMA),
    ]
}


class BaseLLM:
    """The six typed calls, each validated against its request and labelled."""

    label: str
    offline: bool
    usage: Usage

    def extract(self, req: ExtractRequest) -> ExtractResponse:
        return self._run(TASKS["extract"], req)

    def judge(self, req: JudgeRequest) -> JudgeResponse:
        return self._run(TASKS["judge"], req)

    def conflicts(self, req: ConflictRequest) -> ConflictResponse:
        return self._run(TASKS["conflicts"], req)

    def summarize(self, req: SummaryRequest) -> SummaryResponse:
        return self._run(TASKS["summarize"], req)

    def route(self, req: RouteRequest) -> RouteResponse:
        return self._run(TASKS["route"], req)

    def answer(self, req: AnswerRequest) -> AnswerResponse:
        return self._run(TASKS["answer"], req)

    def _run(self, task: Task, req: Any) -> Any:
        if not isinstance(req, task.request):
            raise TypeError(f"{task.name} takes a {task.request.__name__}, not {type(req).__name__}")
        resp = self._complete(task, req)
        resp = validation.finish(task.name, req, resp, lambda sub: self._complete(task, sub))
        return resp.model_copy(update={"backend": self.label})

    def _complete(self, task: Task, req: Any) -> Any:
        """One schema-valid response from the backend, or an ``LLMError``."""
        raise NotImplementedError
