"""Batched calls that survive a model's output limit.

Stage-2 judgments and conflict checks go out in calls of hundreds of pairs, because every
call repeats the instructions and every entity or claim shared by two pairs in one call is
paid for once. A model whose output limit is smaller than such a reply stops mid-answer;
the call is then asked again as two calls of half the pairs each, down to one pair. The
client remembers the size that did not fit (``CallSizes``), so later calls are packed
below it instead of paying again for a reply that cannot fit. A call whose prompt and reply
would not fit the model's context window is halved the same way before it is sent.
A small local model also gets a cap on items per call (GRAPHWIKI_LLM_MAX_PAIRS_PER_CALL):
its verdicts degrade long before its window is full.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from graphwiki_assets.core.llm.errors import LLMError, LLMOutputTruncated
from graphwiki_assets.core.llm.pool import call_all

if TYPE_CHECKING:
    from graphwiki_assets.core.llm.client import LLMClient

V = TypeVar("V")
log = logging.getLogger("graphwiki.llm")


class CallSizes:
    """How many items one call of a task may hold on one client: the configured number (no
    more than ``max_items``), until a reply is cut off; from then on half the smallest number
    that was cut off. ``context`` tells the model's context window in tokens, when known."""

    def __init__(
        self,
        max_items: int | None = None,
        context: Callable[[], int | None] = lambda: None,
        max_documents: int | None = None,
    ) -> None:
        self.max_items = max_items
        self.max_documents = max_documents  # documents per extraction call (GRAPHWIKI_LLM_MAX_DOCS_PER_CALL)
        self.context = context
        self._cut: dict[str, int] = {}
        self._lock = threading.Lock()

    def limit(self, task: str, configured: int) -> int:
        if self.max_items is not None:
            configured = min(configured, self.max_items)
        cut = self._cut.get(task)
        return configured if cut is None else max(1, min(configured, cut // 2))

    def text_chars(self, configured: int, prompt_tokens: int, reply_ratio: float = 1.0) -> int:
        """Characters of source text one call may carry: ``configured``, or less when the
        context window cannot hold the prompt's fixed part (``prompt_tokens``), the text and a
        reply ``reply_ratio`` times as long as the text (about four characters a token)."""
        context = self.context()
        if context is None:
            return configured
        room = (context - prompt_tokens - 512) / (1.0 + reply_ratio)
        return max(1000, min(configured, int(room * 4)))  # a chunk holds two overlaps

    def cut_off(self, task: str, items: int) -> None:
        with self._lock:
            self._cut[task] = min(self._cut.get(task, items), items)


def halving(
    ask: Callable[[list[int]], dict[str, V]], sizes: CallSizes, task: str
) -> Callable[[list[int]], dict[str, V]]:
    """``ask`` (pair indexes -> answers by id), split in halves whenever its reply is cut off;
    each size cut off is reported to ``sizes`` under ``task``."""

    def run(indexes: list[int]) -> dict[str, V]:
        try:
            return ask(indexes)
        except LLMOutputTruncated:
            sizes.cut_off(task, len(indexes))
            if len(indexes) < 2:
                raise
            middle = len(indexes) // 2
            return {**run(indexes[:middle]), **run(indexes[middle:])}

    return run


def ask_all(
    llm: LLMClient, task: str, ask: Callable[[list[int]], dict[str, V]], calls: list[list[int]]
) -> dict[str, V]:
    """Every call's answers by id, the calls side by side and each asked again in halves when
    its reply is cut off. Raises the first ``LLMError`` of any call."""
    answers: dict[str, V] = {}

    def done(_: int) -> None:
        finished = len(progress) + 1
        progress.append(finished)
        if len(calls) > 1:
            log.info("%s: %d/%d calls done", task, finished, len(calls))

    progress: list[int] = []
    for result in call_all(halving(ask, llm.call_sizes, task), calls, llm.concurrency, done=done):
        if isinstance(result, LLMError):
            raise result
        answers.update(result)
    return answers
