"""Stage-2 judgments as read: counted and sampled for the lint report, and read one at a
time by review (``core/review``), which builds its decisions on this view."""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import zip_longest
from typing import Any

from neo4j import ManagedTransaction

from graphwiki_assets.core.lint import cypher
from graphwiki_assets.core.store.driver import GraphStore, rows


@dataclass(frozen=True)
class JudgmentView:
    id: str
    verdict: str
    mention: str
    mention_context: str | None
    candidate_id: str
    candidate_name: str | None
    concept_id: str | None
    score: float | None
    backend: str | None
    reason: str | None
    source_id: str | None
    source_path: str | None = None
    reviewed: bool = False
    review_verdict: str | None = None

    @classmethod
    def from_row(cls, row: dict) -> JudgmentView:
        j = dict(row["j"])
        j["reviewed"] = bool(j.get("reviewed"))
        return cls(source_path=row.get("source_path"), **j)

    def as_row(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "verdict": self.verdict,
            "mention": self.mention,
            "candidate": self.candidate_name,
            "candidate_id": self.candidate_id,
            "concept_id": self.concept_id,
            "score": self.score,
            "backend": self.backend,
            "source": self.source_path or self.source_id,
            "reason": self.reason,
        }


# The verdicts in the order a sample takes them: merges first, as the costliest to get wrong.
VERDICTS = ("SAME", "RELATED", "DIFFERENT", "NOT_SAME")
SAMPLE_SIZE = 20  # judgments a person can check in one sitting
SAMPLE_SEED = 0


@dataclass(frozen=True)
class JudgmentSample:
    """A spot-check sample: what was drawn, and from how many, per verdict."""

    judgments: list[JudgmentView]
    unreviewed: dict[str, int]  # verdict -> unreviewed judgments of it
    sampled: dict[str, int]  # verdict -> drawn of it
    seed: int

    @property
    def total(self) -> int:
        return sum(self.unreviewed.values())

    def describe(self) -> str:
        per = ", ".join(f"{v} {self.sampled.get(v, 0)} of {n:,}" for v, n in self.unreviewed.items())
        return f"{len(self.judgments)} sampled of {self.total:,} unreviewed ({per or 'none'}), seed {self.seed}"


def allocate(sizes: dict[str, int], size: int) -> dict[str, int]:
    """Equal shares per verdict, a share a verdict cannot fill going to the others.

    Not proportional: DIFFERENT verdicts outnumber merges by far on a real corpus, and a
    proportional sample would show almost no merge, the decision a review most needs to see."""
    taken = dict.fromkeys(sizes, 0)
    left = max(size, 0)
    while left > 0 and any(taken[v] < sizes[v] for v in sizes):
        for verdict in sizes:
            if left and taken[verdict] < sizes[verdict]:
                taken[verdict] += 1
                left -= 1
    return taken


def sample_judgments(store: GraphStore, size: int = SAMPLE_SIZE, seed: int = SAMPLE_SEED) -> JudgmentSample:
    """A random sample of ``size`` unreviewed judgments, stratified by verdict (``allocate``),
    the same for the same seed and graph; the verdicts alternate in the list."""
    strata: dict[str, list[str]] = {}
    for row in store.query(cypher.UNREVIEWED_JUDGMENTS):
        strata.setdefault(row["verdict"], []).append(row["id"])
    order = [v for v in VERDICTS if v in strata] + sorted(v for v in strata if v not in VERDICTS)
    strata = {v: strata[v] for v in order}
    shares = allocate({v: len(ids) for v, ids in strata.items()}, size)
    rng = random.Random(seed)
    drawn = {v: rng.sample(ids, shares[v]) for v, ids in strata.items()}
    ids = [j for turn in zip_longest(*drawn.values()) for j in turn if j is not None]
    found = {r["j"]["id"]: JudgmentView.from_row(r) for r in store.query(cypher.JUDGMENTS_BY_ID, ids=ids)}
    return JudgmentSample(
        judgments=[found[j] for j in ids if j in found],
        unreviewed={v: len(ids) for v, ids in strata.items()},
        sampled={v: len(d) for v, d in drawn.items()},
        seed=seed,
    )


def find_judgment(store: GraphStore, judgment_id: str) -> JudgmentView | None:
    found = store.query(cypher.JUDGMENT, id=judgment_id)
    return JudgmentView.from_row(found[0]) if found else None


def find_judgment_in(tx: ManagedTransaction, judgment_id: str) -> JudgmentView | None:
    """The same, inside the transaction that goes on to act on it."""
    found = rows(tx, cypher.JUDGMENT, id=judgment_id)
    return JudgmentView.from_row(found[0]) if found else None
