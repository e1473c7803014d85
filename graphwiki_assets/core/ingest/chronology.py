"""When a claim was stated: the newest date among its sources, and what that allows.

Two conflicting claims are ordered by their sources' dates, so a reader (and a reviewer)
sees which one is the later statement. The order also bounds what the ingest may decide
on its own: a source that sides with one claim of a dispute may supersede the other only
when that other claim is not the newer of the two. Superseding a newer statement on the
word of an older one is exactly how true, up-to-date facts got hidden, so that case stays
disputed for a person to settle, with the reason recorded.

A claim whose sources carry no date is *not dated*: nothing is known about when it was
said. Two undated claims keep the ingest order (the later source's word settles, as the
spec has it); a dated claim is never superseded by an undated one, whose age is unknown.
"""

from __future__ import annotations

import datetime as dt


def newer_of(a: str, a_date: dt.date | None, b: str, b_date: dt.date | None) -> tuple[str, str]:
    """(the newer claim's id or "" when unknown or equal, the order in words)."""
    if a_date is None or b_date is None:
        undated = [c for c, d in ((a, a_date), (b, b_date)) if d is None]
        return "", f"not ordered: {' and '.join(undated)} {'has' if len(undated) == 1 else 'have'} no dated source"
    if a_date == b_date:
        return "", f"stated on the same date ({a_date.isoformat()})"
    newer, older = ((a, a_date), (b, b_date)) if a_date > b_date else ((b, b_date), (a, a_date))
    return newer[0], f"{newer[0]} ({newer[1].isoformat()}) is newer than {older[0]} ({older[1].isoformat()})"


def hold_reason(
    winner: str, winner_date: dt.date | None, loser: str, loser_date: dt.date | None, settler_date: dt.date | None
) -> str | None:
    """Why a settlement must not supersede ``loser`` automatically, or None when it may."""
    if winner_date is None and loser_date is None:
        return None  # no dates on either side: the order of ingest is all there is
    if loser_date is None:
        return f"{loser} has no dated source, so it cannot be shown to be older than {winner}"
    if winner_date is None:
        return f"{winner} has no dated source, so {loser} ({loser_date.isoformat()}) may be the newer statement"
    if loser_date > winner_date:
        return (
            f"{loser} ({loser_date.isoformat()}) is newer than {winner} ({winner_date.isoformat()}): "
            "a newer claim is never superseded automatically"
        )
    if settler_date is not None and settler_date < loser_date:
        return (
            f"the siding source ({settler_date.isoformat()}) is older than {loser} ({loser_date.isoformat()}), "
            "so it cannot settle what was said after it"
        )
    return None


def as_date(value) -> dt.date | None:
    """A Neo4j DATE (or DATETIME) read back, as a Python date."""
    if value is None:
        return None
    native = value.to_native() if hasattr(value, "to_native") else value
    return native.date() if isinstance(native, dt.datetime) else native
