"""Batched calls that survive a model's output limit.

Stage-2 judgments and conflict checks go out in calls of hundreds of pairs, because every
call repeats the instructions and every entity or claim shared by two pairs in one call is
paid for once. A model whose output limit is smaller than such a reply stops mid-answer;
the call is then asked again as two calls of half the pairs each, down to one pair.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from graphwiki_assets.core.llm.errors import LLMOutputTruncated

V = TypeVar("V")


def halving(ask: Callable[[list[int]], dict[str, V]]) -> Callable[[list[int]], dict[str, V]]:
    """``ask`` (pair indexes -> answers by id), split in halves whenever its reply is cut off."""

    def run(indexes: list[int]) -> dict[str, V]:
        try:
            return ask(indexes)
        except LLMOutputTruncated:
            if len(indexes) < 2:
                raise
            middle = len(indexes) // 2
            return {**run(indexes[:middle]), **run(indexes[middle:])}

    return run
