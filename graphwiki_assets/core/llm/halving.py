"""Batched calls that survive a model's output limit.

Stage-2 judgments and conflict checks go out in calls of hundreds of pairs, because every
call repeats the instructions and every entity or claim shared by two pairs in one call is
paid for once. A model whose output limit is smaller than such a reply stops mid-answer;
the call is then asked again as two calls of half the pairs each, down to one pair. The
client remembers the size that did not fit (``CallSizes``), so later calls are packed
below it instead of paying again for a reply that cannot fit.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from graphwiki_assets.core.llm.errors import LLMError, LLMOutputTruncated
from graphwiki_assets.core.llm.pool import call_all

if TYPE_CHECKING:
    from graphwiki_assets.core.llm.client import LLMClient

V = TypeVar("V")


class CallSizes:
    """How many items one call of a task may hold on one client: the configured number, until
    a reply is cut off; from then on half the smallest number that was cut off."""

    def __init__(self) -> None:
        self._cut: dict[str, int] = {}
        self._lock = threading.Lock()

    def limit(self, task: str, configured: int) -> int:
        cut = self._cut.get(task)
        return configured if cut is None else max(1, min(configured, cut // 2))

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
    for result in call_all(halving(ask, llm.call_sizes, task), calls, llm.concurrency):
        if isinstance(result, LLMError):
            raise result
        answers.update(result)
    return answers
