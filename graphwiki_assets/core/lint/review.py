"""Spot-checking stage-2 judgments: sample them, then confirm or reject each.

Confirming only marks the judgment reviewed. Rejecting undoes its decision in one
transaction: a rejected SAME splits the mention back out of the node it was merged into
(``split.py``); a rejected RELATED or DIFFERENT (NOT_SAME before) merges the two nodes
(``merge.py``). Nothing is deleted:
the judgment keeps the original verdict next to ``review_verdict``, split and absorbed
nodes record where they came from or went.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from itertools import zip_longest
from typing import Any, Callable

from neo4j import ManagedTransaction

from graphwiki_assets.core.audit import Entry, append_in
from graphwiki_assets.core.lint import cypher
from graphwiki_assets.core.store.driver import GraphStore, rows

Embed = Callable[[str], list[float]]


class ReviewError(ValueError):
    """The judgment cannot be reviewed as asked; the message says why."""


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
    def from_row(cls, row: dict) -> "JudgmentView":
        j = dict(row["j"])
        j["reviewed"] = bool(j.get("reviewed"))
        return cls(source_path=row.get("source_path"), **j)

    def as_row(self) -> dict[str, Any]:
        return {"id": self.id, "verdict": self.verdict, "mention": self.mention,
                "candidate": self.candidate_name, "candidate_id": self.candidate_id, "concept_id": self.concept_id,
                "score": self.score, "backend": self.backend, "source": self.source_path or self.source_id,
                "reason": self.reason}


@dataclass
class ReviewOutcome:
    judgment_id: str
    verdict: str  # the stage-2 verdict that was reviewed
    review_verdict: str  # confirmed | rejected
    action: str  # marked | split | merged | recorded
    concept_id: str | None  # where the mention lives now
    details: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


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


def get_judgment(store: GraphStore, judgment_id: str) -> JudgmentView:
    found = store.query(cypher.JUDGMENT, id=judgment_id)
    if not found:
        raise ReviewError(f"no judgment {judgment_id!r}")
    return JudgmentView.from_row(found[0])


def confirm(store: GraphStore, judgment_id: str, by: str = "human", reason: str = "",
            now: datetime | None = None) -> ReviewOutcome:
    def work(tx: ManagedTransaction) -> ReviewOutcome:
        j = _unreviewed(tx, judgment_id)
        mark(tx, j, "confirmed", "marked", by, reason, now, concept_id=None)
        return _logged(tx, ReviewOutcome(j.id, j.verdict, "confirmed", "marked", j.concept_id), by, reason, now)

    return store.write(work)


def reject(store: GraphStore, judgment_id: str, by: str = "human", reason: str = "",
           now: datetime | None = None, embed: Embed | None = None) -> ReviewOutcome:
    """Undo the judgment's decision. ``embed`` (text -> vector) gives a split-off node its embedding."""
    from graphwiki_assets.core.lint.merge import merge_rejected_not_same
    from graphwiki_assets.core.lint.split import split_rejected_same

    now = now or datetime.now(timezone.utc)

    def work(tx: ManagedTransaction) -> ReviewOutcome:
        j = _unreviewed(tx, judgment_id)
        if j.verdict == "SAME":
            outcome = split_rejected_same(tx, j, by, reason, now, embed)
        else:
            outcome = merge_rejected_not_same(tx, j, by, reason, now)
        return _logged(tx, outcome, by, reason, now)

    return store.write(work)


def _logged(tx: ManagedTransaction, outcome: ReviewOutcome, by: str, reason: str,
            now: datetime | None) -> ReviewOutcome:
    """The review's audit entry, written in the review's own transaction."""
    append_in(tx, Entry(
        action="review", actor=by, summary=f"{outcome.review_verdict} {outcome.verdict} judgment {outcome.judgment_id}: "
                                          f"{outcome.action}" + (f" ({reason})" if reason else ""),
        inputs={"judgment": outcome.judgment_id, "reason": reason},
        outputs={"verdict": outcome.review_verdict, "action": outcome.action, "concept": outcome.concept_id,
                 **outcome.details}, at=(now or datetime.now(timezone.utc)).isoformat()))
    return outcome


def _unreviewed(tx: ManagedTransaction, judgment_id: str) -> JudgmentView:
    found = rows(tx, cypher.JUDGMENT, id=judgment_id)
    if not found:
        raise ReviewError(f"no judgment {judgment_id!r}")
    j = JudgmentView.from_row(found[0])
    if j.reviewed:
        raise ReviewError(f"judgment {judgment_id} was already reviewed ({j.review_verdict})")
    return j


def mark(tx: ManagedTransaction, j: JudgmentView, verdict: str, action: str, by: str, reason: str,
         now: datetime | None, concept_id: str | None) -> None:
    """Record the review on the judgment; a new ``concept_id`` keeps the old one as previous_concept_id."""
    rows(tx, cypher.MARK_REVIEWED, id=j.id, verdict=verdict, action=action, by=by, reason=reason,
         now=now or datetime.now(timezone.utc), concept_id=concept_id)


def live_concept(tx: ManagedTransaction, concept_id: str | None) -> dict:
    """The node a concept id stands for now, following ``merged_into`` past absorbed nodes."""
    seen: list[str] = []
    while concept_id and concept_id not in seen:
        found = rows(tx, cypher.CONCEPT, id=concept_id)
        if not found:
            break
        if not found[0]["merged_into"]:
            return found[0]
        seen.append(concept_id)
        concept_id = found[0]["merged_into"]
    raise ReviewError(f"concept {concept_id!r} does not exist (dangling reference; run `graphwiki lint`)")
