"""The clients of the soak (``soak.py``): askers over HTTP and over MCP, and a submitter of
source files, each recording what became of every request it made.

A request ends one of four ways: answered (200), refused (an HTTP status with a reason, or
a tool error with one), unreachable (no server listening: it is being restarted), or hung
(no answer within the bound). Only the last is a failure of the server; a refusal must
also come quickly.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx


@dataclass
class Tally:
    """What became of one kind of request, over all the clients that made it."""

    asked: int = 0
    answered: int = 0
    refused: Counter[str] = field(default_factory=Counter)  # by status (or "tool error")
    unreachable: int = 0
    hung: list[str] = field(default_factory=list)
    answered_at: list[float] = field(default_factory=list)  # monotonic times: recovery after a fault
    answer_seconds: list[float] = field(default_factory=list)  # how long answers took under the same load
    # every refusal's time, reason and when it came (monotonic), to find a slow one's path
    refusals: list[tuple[float, str, float]] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(self, outcome: str, seconds: float, status: str = "", what: str = "") -> None:
        with self._lock:
            self.asked += 1
            if outcome == "answered":
                self.answered += 1
                self.answered_at.append(time.monotonic())
                self.answer_seconds.append(seconds)
            elif outcome == "refused":
                self.refused[status] += 1
                self.refusals.append((seconds, what, time.monotonic()))
            elif outcome == "unreachable":
                self.unreachable += 1
            else:
                self.hung.append(what)

    def summary(self, bound_s: float, recovered_from: float | None = None, t0: float = 0.0) -> dict[str, Any]:
        """The counts; with ``recovered_from`` (a monotonic time: the last fault's end), how
        many answers came after it, which says the server recovered. Refusals over the bound
        are listed with their reason and when they came (seconds after ``t0``)."""
        with self._lock:
            slow = sorted(seconds for seconds, _, _ in self.refusals)
            over = sorted((r for r in self.refusals if r[0] > bound_s), reverse=True)
            return {
                "asked": self.asked,
                "answered": self.answered,
                "refused": dict(self.refused),
                "answer_seconds": _spread(self.answer_seconds),
                "refused_within_bound": sum(1 for s in slow if s <= bound_s),
                "slowest_refusal_s": round(slow[-1], 2) if slow else None,
                "slow_refusals": [
                    {"seconds": round(sec, 2), "ended_at_s": round(at - t0, 1), "reason": why[:300]}
                    for sec, why, at in over[:5]
                ],
                "unreachable_while_restarting": self.unreachable,
                "answered_after_the_last_fault": (
                    sum(1 for t in self.answered_at if t >= recovered_from) if recovered_from is not None else None
                ),
                "hung": len(self.hung),
                "hung_examples": self.hung[:5],
            }


def _spread(seconds: list[float]) -> dict[str, float] | None:
    """Median, 95th and 99th percentile and slowest: a question that was slow under the load
    when a fault came is refused that much later."""
    if not seconds:
        return None
    ordered = sorted(seconds)

    def at(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)

    return {"p50": at(0.5), "p95": at(0.95), "p99": at(0.99), "max": round(ordered[-1], 2)}


def ask_over_http(url: str, question: str, tally: Tally, timeout_s: float) -> None:
    started = time.monotonic()
    try:
        response = httpx.post(f"{url}/ask", json={"question": question}, timeout=timeout_s)
    except httpx.TimeoutException:
        tally.add("hung", timeout_s, what=question)
        return
    except httpx.TransportError:
        tally.add("unreachable", time.monotonic() - started)
        return
    seconds = time.monotonic() - started
    if response.status_code == 200:
        tally.add("answered", seconds)
    else:
        reason = _detail(response)
        status = f"{response.status_code}{'' if reason else ' without a reason'}"
        tally.add("refused", seconds, status=status, what=reason)


def _detail(response: httpx.Response) -> str:
    try:
        body = response.json()
    except ValueError:
        return ""
    return str(body.get("detail") or "") if isinstance(body, dict) else ""


def http_asker(url: str, questions: QuestionPool, tally: Tally, stop: threading.Event, timeout_s: float) -> None:
    while not stop.is_set():
        ask_over_http(url, questions.next(), tally, timeout_s)
        if tally.unreachable and stop.wait(0.2):  # a restart: no need to hammer a closed port
            return


def mcp_asker(url: str, questions: QuestionPool, tally: Tally, stop: threading.Event, timeout_s: float) -> None:
    """One MCP client over streamable HTTP, asking until stopped; it opens a new session
    when the server went away (a restart ends every session)."""
    import anyio

    async def session_loop() -> None:
        from mcp import ClientSession
        from mcp.client.streamable_http import streamable_http_client

        async with (
            streamable_http_client(f"{url}/mcp") as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            while not stop.is_set():
                question = questions.next()
                started = time.monotonic()
                try:
                    with anyio.fail_after(timeout_s):
                        result = await session.call_tool("ask", {"question": question})
                except TimeoutError:
                    tally.add("hung", timeout_s, what=question)
                    return
                seconds = time.monotonic() - started
                if result.is_error:
                    said = " ".join(b.text for b in result.content if b.type == "text")
                    status = "tool error" if said else "tool error without a reason"
                    tally.add("refused", seconds, status=status, what=said)
                else:
                    tally.add("answered", seconds)

    while not stop.is_set():
        started = time.monotonic()
        try:
            anyio.run(session_loop)
        except Exception:  # the server went away mid-session, or is not listening yet
            tally.add("unreachable", time.monotonic() - started)
            stop.wait(1.0)


class QuestionPool:
    """Questions about what has been submitted so far (and a few about nothing in it)."""

    TEMPLATES = ("What is {a}?", "What else relates to {a}?", "How does {a} connect to {b}?")

    def __init__(self) -> None:
        self._names: list[str] = []
        self._n = 0
        self._lock = threading.Lock()

    def add(self, name: str) -> None:
        with self._lock:
            self._names.append(name)

    def next(self) -> str:
        with self._lock:
            self._n += 1
            n, names = self._n, self._names
            if n % 10 == 0 or not names:
                return f"What is the Zorblax protocol number {n}?"  # in no source: an abstention
            a, b = names[n % len(names)], names[(n * 7) % len(names)]
        return self.TEMPLATES[n % len(self.TEMPLATES)].format(a=a, b=b)
