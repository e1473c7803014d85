"""How an OpenAI-compatible endpoint's failures are retried: which statuses are worth another
try, the server's Retry-After, and exponential back-off with jitter. The chat (LLM) client and
the embeddings client share it, so both treat an overloaded server the same way."""

from __future__ import annotations

import random
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
