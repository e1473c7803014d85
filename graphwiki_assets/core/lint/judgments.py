"""Stage-2 judgments as read: counted and sampled for the lint report, and read one at a
time by review (``core/review``), which builds its decisions on this view."""

from __future__ import annotations

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


def count_judgments(store: GraphStore) -> dict[str, int]:
    return store.query(cypher.JUDGMENT_COUNTS)[0]


def sample_judgments(store: GraphStore, size: int = 10) -> list[JudgmentView]:
    """Up to ``size`` unreviewed judgments, taking each verdict in turn (SAME, RELATED,
    DIFFERENT) while they last, so a small sample still shows every kind of decision."""
    found = [JudgmentView.from_row(r) for r in store.query(cypher.JUDGMENT_SAMPLE, size=max(size, 0))]
    groups: dict[str, list[JudgmentView]] = {}
    for j in found:
        groups.setdefault(j.verdict, []).append(j)
    mixed = [j for turn in zip_longest(*groups.values()) for j in turn if j is not None]
    return mixed[:size]


def find_judgment(store: GraphStore, judgment_id: str) -> JudgmentView | None:
    found = store.query(cypher.JUDGMENT, id=judgment_id)
    return JudgmentView.from_row(found[0]) if found else None


def find_judgment_in(tx: ManagedTransaction, judgment_id: str) -> JudgmentView | None:
    """The same, inside the transaction that goes on to act on it."""
    found = rows(tx, cypher.JUDGMENT, id=judgment_id)
    return JudgmentView.from_row(found[0]) if found else None
