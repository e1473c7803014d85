"""Independent LLM calls side by side, at most ``concurrency`` at a time.

Results come back in the order of the inputs. A call that ends in an ``LLMError`` yields
that error in its place (the caller decides which unit of work it fails); any other
exception is a bug and is raised. ``done`` hears of each call as it finishes (progress).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import TypeVar

from graphwiki_assets.core.llm.errors import LLMError

T = TypeVar("T")
R = TypeVar("R")


def call_all(
    fn: Callable[[T], R], items: Sequence[T], concurrency: int, done: Callable[[int], None] | None = None
) -> list[R | LLMError]:
    def guarded(item: T) -> R | LLMError:
        try:
            return fn(item)
        except LLMError as exc:
            return exc

    if concurrency <= 1 or len(items) <= 1:
        results = []
        for n, item in enumerate(items):
            results.append(guarded(item))
            if done:
                done(n)
        return results
    out: list[R | LLMError | None] = [None] * len(items)
    with ThreadPoolExecutor(max_workers=min(concurrency, len(items)), thread_name_prefix="llm") as pool:
        futures = {pool.submit(guarded, item): n for n, item in enumerate(items)}
        for future in as_completed(futures):
            out[futures[future]] = future.result()
            if done:
                done(futures[future])
    return out  # type: ignore[return-value]
