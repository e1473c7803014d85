"""Settling a dispute by hand: the loser is superseded, the winner is current again unless
another dispute of its own is still open. Both keep their CONTRADICTS edge (the history of
the conflict), and who decided, when and why is recorded on both claims.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import UTC, datetime

from neo4j import ManagedTransaction

from graphwiki_assets.core.audit import Entry, append_in
from graphwiki_assets.core.review import cypher
from graphwiki_assets.core.store.driver import GraphStore, rows


class DisputeError(ValueError):
    """The two claims cannot be settled as asked; the message says why."""


@dataclass(frozen=True)
class Resolution:
    winner: str
    loser: str
    winner_status: str
    decided_by: str
    decided_at: str
    reason: str
    rederived: dict[str, str]  # every claim whose status was re-derived -> its status now

    def as_dict(self) -> dict:
        return asdict(self)


def resolve_dispute(
    store: GraphStore, claim: str, winner: str, by: str = "human", reason: str = "", now: datetime | None = None
) -> Resolution:
    """``claim`` and ``winner`` are the two sides of one CONTRADICTS; the non-winner loses."""
    if claim == winner:
        raise DisputeError("name the other side of the dispute as CLAIM; it cannot win against itself")
    now = now or datetime.now(UTC)

    def work(tx: ManagedTransaction) -> Resolution:
        pair = rows(tx, cypher.DISPUTE_PAIR, claim=claim, winner=winner)[0]
        for exists, cid in ((pair["claim_exists"], claim), (pair["winner_exists"], winner)):
            if not exists:
                raise DisputeError(f"no claim {cid!r}")
        if not pair["linked"]:
            raise DisputeError(f"{claim} and {winner} do not contradict each other")
        for status, cid in ((pair["claim_status"], claim), (pair["winner_status"], winner)):
            if status == "superseded":
                raise DisputeError(f"{cid} is already superseded; this dispute was settled")
        statuses = {
            r["id"]: r["status"]
            for r in rows(tx, cypher.SETTLE_BY_HAND, loser=claim, winner=winner, by=by, reason=reason, now=now)
        }
        append_in(
            tx,
            Entry(
                action="resolve",
                actor=by,
                at=now.isoformat(),
                summary=f"{winner} wins over {claim}" + (f" ({reason})" if reason else ""),
                inputs={"claims": [claim, winner], "reason": reason},
                outputs={"superseded": claim, "statuses": statuses},
            ),
        )
        return Resolution(
            winner=winner,
            loser=claim,
            winner_status=statuses[winner],
            decided_by=by,
            decided_at=now.isoformat(),
            reason=reason,
            rederived=statuses,
        )

    return store.write(work)
