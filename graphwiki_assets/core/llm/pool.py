"""Independent LLM calls side by side, at most ``concurrency`` at a time.

Results come back in the order of the inputs. A call that ends in an ``LLMError`` yields
that error in its place (the caller decides which unit of work it fails); any other
exception is a bug and is raised.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from graphwiki_assets.core.llm.errors import LLMError

T = TypeVar("T")
R = TypeVar("R")


def call_all(fn: Callable[[T], R], items: Sequence[T], concurrency: int) -> list[R | LLMError]:
    def guarded(item: T) -> R | LLMError:
        try:
            return fn(item)
        except LLMError as exc:
            return exc

    if concurrency <= 1 or len(items) <= 1:
        return [guarded(item) for item in items]
    with ThreadPoolExecutor(max_workers=min(concurrency, len(items)), thread_name_prefix="llm") as pool:
        return list(pool.map(guarded, items))
