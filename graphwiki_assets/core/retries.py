"""How an OpenAI-compatible endpoint's failures are retried: which statuses are worth another
try, the server's Retry-After, and exponential back-off with jitter. The chat (LLM) client and
the embeddings client share it, so both treat an overloaded server the same way; a question's
reads from Neo4j use its back-off too."""

from __future__ import annotations

import random
import time
from typing import Any

# Besides every 5xx: a timeout the server reports, a conflict, and rate limiting.
RETRY_STATUS = frozenset({408, 409, 429})


def retryable(status: int) -> bool:
    return status in RETRY_STATUS or status >= 500


def retry_after(e: Any) -> float | None:
    """The seconds an error's response asks to wait (its Retry-After header), if any."""
    try:
        value = e.response.headers.get("retry-after")
        return float(value) if value is not None else None
    except (AttributeError, TypeError, ValueError):
        return None


def backoff(attempt: int, asked: float | None, base: float, ceiling: float) -> float:
    """Seconds to wait before retry ``attempt`` + 1: doubling from ``base`` with jitter, at
    least what the server ``asked``, never more than ``ceiling``."""
    delay = base * (2**attempt) * (0.5 + random.random() / 2)
    if asked is not None:
        delay = max(delay, asked)
    return min(delay, ceiling)


def loading(e: Any) -> bool:
    """Whether an error is a server saying it is still loading its model: llama.cpp's
    ``llama-server`` answers every request with 503 "Loading model" until its weights are
    in memory (as do other local servers, in other words). A state with an end, unlike an
    overload, so it is waited out, not counted against the retries."""
    if getattr(e, "status_code", None) != 503:
        return False
    try:
        text = e.response.text
    except AttributeError:
        text = str(e)
    return "loading" in text.lower()


class LoadWait:
    """The wait for a model that is loading, bounded from the first "loading" answer."""

    POLL_S = 1.0

    def __init__(self, limit_s: float):
        self.limit_s = limit_s
        self.since: float | None = None

    def wait(self, e: Any) -> bool:
        """Sleep a poll interval and return True while ``e`` says the model is loading and
        the bound has not passed; False for any other error (then retries count as usual)."""
        if not loading(e):
            self.since = None
            return False
        now = time.monotonic()
        if self.since is None:
            self.since = now
        left = self.limit_s - (now - self.since)
        if left <= 0:
            return False
        time.sleep(min(self.POLL_S, left))
        return True

    def gave_up(self) -> str:
        """Words for the error once the bound has passed with the model still loading."""
        return f" (the model was still loading after {self.limit_s:g} s)" if self.since is not None else ""
