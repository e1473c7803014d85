"""`graphwiki log` — the audit log: every ingest, question, filed answer, review, resolve and lint run."""

from __future__ import annotations

import argparse
import re
from datetime import UTC, datetime, timedelta

from graphwiki_assets.cli.output import add_common, at_least, emit
from graphwiki_assets.core.audit import ACTIONS

_RELATIVE = re.compile(r"(\d+)\s*([mhdw])")
_UNITS = {"m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


def since(text: str) -> datetime:
    """An argparse type: an ISO date or time (UTC unless it says otherwise), or an age such as 30m, 12h, 7d, 2w."""
    text = text.strip()
    if match := _RELATIVE.fullmatch(text):
        return datetime.now(UTC) - timedelta(**{_UNITS[match[2]]: int(match[1])})
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is neither an ISO date/time (2026-12-01, 2026-12-01T09:30) nor an age (30m, 12h, 7d, 2w)"
        ) from None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def register(sub: argparse._SubParsersAction) -> None:
    parser = add_common(
        sub.add_parser(
            "log",
            help="show the append-only audit log (who did what to the graph, when)",
            description="Every ingest batch, question, filed answer, review, resolve and lint run, with who, when, the "
            "backend, inputs by id or hash and outputs by id. Oldest first.",
        )
    )
    parser.add_argument("--since", type=since, metavar="WHEN", help="only entries from then on: ISO date/time or 7d")
    parser.add_argument("--action", choices=ACTIONS, help="only entries of this kind")
    parser.add_argument("--limit", type=at_least(1), default=100, help="the newest N entries (default 100)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from graphwiki_assets.core.audit import read_entries
    from graphwiki_assets.core.settings import Settings
    from graphwiki_assets.core.store.driver import GraphStore

    with GraphStore(Settings.from_env().neo4j) as store:
        entries = read_entries(store, since=args.since, action=args.action, limit=args.limit)
    lines = [
        f"{e.at[:19]}  {e.action:<11} {e.actor:<24} {e.summary}" + (f"  [{e.backend}]" if e.backend else "")
        for e in entries
    ]
    emit(args, [e.as_dict() for e in entries], "\n".join(lines) or "The audit log has no entries for this.")
    return 0
