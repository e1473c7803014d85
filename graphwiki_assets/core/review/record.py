"""What every review decision shares: the judgment under review, the node a concept id stands
for now, the outcome, and the mark the review leaves on the judgment.

``decide.py`` confirms or rejects; a rejection is carried out by ``split.py`` or ``merge.py``.
All three build on this module, so none of them needs another.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any

from neo4j import ManagedTransaction

from graphwiki_assets.core.lint.judgments import JudgmentView, find_judgment, find_judgment_in
from graphwiki_assets.core.review import cypher
from graphwiki_assets.core.store.driver import GraphStore, rows

Embed = Callable[[str], list[float]]


class ReviewError(ValueError):
    """The judgment cannot be reviewed as asked; the message says why."""


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


def _known(j: JudgmentView | None, judgment_id: str) -> JudgmentView:
    if j is None:
        raise ReviewError(f"no judgment {judgment_id!r}")
    return j


def get_judgment(store: GraphStore, judgment_id: str) -> JudgmentView:
    return _known(find_judgment(store, judgment_id), judgment_id)


def unreviewed(tx: ManagedTransaction, judgment_id: str) -> JudgmentView:
    j = _known(find_judgment_in(tx, judgment_id), judgment_id)
    if j.reviewed:
        raise ReviewError(f"judgment {judgment_id} was already reviewed ({j.review_verdict})")
    return j


def mark(
    tx: ManagedTransaction,
    j: JudgmentView,
    verdict: str,
    action: str,
    by: str,
    reason: str,
    now: datetime | None,
    concept_id: str | None,
) -> None:
    """Record the review on the judgment; a new ``concept_id`` keeps the old one as previous_concept_id."""
    rows(
        tx,
        cypher.MARK_REVIEWED,
        id=j.id,
        verdict=verdict,
        action=action,
        by=by,
        reason=reason,
        now=now or datetime.now(UTC),
        concept_id=concept_id,
    )


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
