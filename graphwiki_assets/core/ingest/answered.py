"""The model's answers for one batch, kept by what the model was shown.

A batch is resolved and compared twice. First outside the ingest lease, against the graph as
it stands when the batch is ready (the draft: ``Ingestor.draft``), which asks the model every
judge and conflict pair and keeps the answers here. Then under the lease, against the graph
as it is after the commits made meanwhile: the reads are made again, and a pair shown to the
model exactly as before takes the answer it got, so only the pairs those commits changed go
out (a candidate created meanwhile, a concept whose aliases or summary changed, a claim
added to a concept the batch talks about). A verdict is a function of what the model is
shown, so the graph is the one a serial run builds, and the model's latency stays out of the
lease that serialises the writers.

Answers without a verdict (a call that returned no entry for a pair) are not kept: the
pair is asked again under the lease, as it would have been without a draft.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from graphwiki_assets.core.llm.calls import ClaimPair, ConflictVerdict, EntityView, Verdict

A = TypeVar("A")


def judge_key(mention: EntityView, candidate: EntityView) -> str:
    return mention.model_dump_json() + "\x1f" + candidate.model_dump_json()


def conflict_key(pair: ClaimPair) -> str:
    return pair.model_dump_json(exclude={"pair_id"})


@dataclass
class Kept(Generic[A]):
    """Answers of one task by key, and how many were reused or asked."""

    answers: dict[str, A] = field(default_factory=dict)
    reused: int = 0
    asked: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def through(self, keys: Sequence[str], ask: Callable[[list[int]], list[A | None]]) -> list[A | None]:
        """The answer of every key: kept ones reused, the rest asked in one go (``ask`` gets
        their positions in ``keys`` and answers in that order; None is no answer)."""
        with self._lock:
            kept = {n: self.answers[k] for n, k in enumerate(keys) if k in self.answers}
        missing = [n for n in range(len(keys)) if n not in kept]
        fresh = dict(zip(missing, ask(missing))) if missing else {}
        with self._lock:
            self.reused += len(kept)
            self.asked += len(missing)
            for n, answer in fresh.items():
                if answer is not None:
                    self.answers[keys[n]] = answer
        return [kept[n] if n in kept else fresh.get(n) for n in range(len(keys))]


@dataclass
class Answered:
    """A batch's judge verdicts and conflict verdicts, from its draft and its commit."""

    judge: Kept[Verdict] = field(default_factory=Kept)
    conflicts: Kept[ConflictVerdict] = field(default_factory=Kept)

    def restart_counts(self) -> None:
        """Count from here on (the commit's pass, after the draft's)."""
        for kept in (self.judge, self.conflicts):
            kept.reused = kept.asked = 0

    def counts(self) -> dict[str, int]:
        return {
            "judge_reused": self.judge.reused,
            "judge_asked": self.judge.asked,
            "conflicts_reused": self.conflicts.reused,
            "conflicts_asked": self.conflicts.asked,
        }
