"""Spot-checking stage-2 judgments: confirm or reject each (the sample to check comes from
``core/lint/judgments.py``).

Confirming only marks the judgment reviewed. Rejecting undoes its decision in one
transaction: a rejected SAME splits the mention back out of the node it was merged into
(``split.py``); a rejected RELATED or DIFFERENT (NOT_SAME before) merges the two nodes
(``merge.py``). Nothing is deleted:
the judgment keeps the original verdict next to ``review_verdict``, split and absorbed
nodes record where they came from or went.
"""

from __future__ import annotations

from datetime import UTC, datetime

from neo4j import ManagedTransaction

from graphwiki_assets.core.audit import Entry, append_in
from graphwiki_assets.core.review.merge import merge_rejected_not_same
from graphwiki_assets.core.review.record import Embed, ReviewOutcome, mark, unreviewed
from graphwiki_assets.core.review.split import split_rejected_same
from graphwiki_assets.core.store.driver import GraphStore


def confirm(
    store: GraphStore, judgment_id: str, by: str = "human", reason: str = "", now: datetime | None = None
) -> ReviewOutcome:
    def work(tx: ManagedTransaction) -> ReviewOutcome:
        j = unreviewed(tx, judgment_id)
        mark(tx, j, "confirmed", "marked", by, reason, now, concept_id=None)
        return _logged(tx, ReviewOutcome(j.id, j.verdict, "confirmed", "marked", j.concept_id), by, reason, now)

    return store.write(work)


def reject(
    store: GraphStore,
    judgment_id: str,
    by: str = "human",
    reason: str = "",
    now: datetime | None = None,
    embed: Embed | None = None,
) -> ReviewOutcome:
    """Undo the judgment's decision. ``embed`` (text -> vector) gives a split-off node its embedding."""
    now = now or datetime.now(UTC)

    def work(tx: ManagedTransaction) -> ReviewOutcome:
        j = unreviewed(tx, judgment_id)
        if j.verdict == "SAME":
            outcome = split_rejected_same(tx, j, by, reason, now, embed)
        else:
            outcome = merge_rejected_not_same(tx, j, by, reason, now)
        return _logged(tx, outcome, by, reason, now)

    return store.write(work)


def _logged(
    tx: ManagedTransaction, outcome: ReviewOutcome, by: str, reason: str, now: datetime | None
) -> ReviewOutcome:
    """The review's audit entry, written in the review's own transaction."""
    append_in(
        tx,
        Entry(
            action="review",
            actor=by,
            summary=f"{outcome.review_verdict} {outcome.verdict} judgment {outcome.judgment_id}: "
            f"{outcome.action}" + (f" ({reason})" if reason else ""),
            inputs={"judgment": outcome.judgment_id, "reason": reason},
            outputs={
                "verdict": outcome.review_verdict,
                "action": outcome.action,
                "concept": outcome.concept_id,
                **outcome.details,
            },
            at=(now or datetime.now(UTC)).isoformat(),
        ),
    )
    return outcome
