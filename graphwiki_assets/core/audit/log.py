"""Entries of the audit log and the two ways to append them.

Each entry says who did what, when, with which backend, what it read (inputs by id or
hash) and what it produced (outputs by id). An entry is written in the same transaction
as the work it records (``append_in``), so work that did not commit leaves no entry and
committed work always has one; a read-only act (a question, a lint run) appends its entry
in a transaction of its own (``append``). Entries are created with unique ids and never
updated or deleted: the log only grows.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from neo4j import ManagedTransaction

from graphwiki_assets.core.audit import cypher
from graphwiki_assets.core.store.driver import GraphStore, rows

ACTIONS = ("ingest", "question", "file_answer", "review", "resolve", "lint")


@dataclass(frozen=True)
class Entry:
    action: str
    actor: str
    summary: str
    inputs: dict[str, Any] = field(default_factory=dict)
    outputs: dict[str, Any] = field(default_factory=dict)
    backend: str = ""
    at: str = field(default_factory=lambda: datetime.now(UTC).isoformat())
    id: str = field(default_factory=lambda: f"log-{uuid.uuid4().hex}")

    def __post_init__(self) -> None:
        if self.action not in ACTIONS:
            raise ValueError(f"unknown audit action {self.action!r}; known: {', '.join(ACTIONS)}")

    def as_row(self) -> dict[str, Any]:
        # inputs/outputs are nested; a property holds them as JSON text
        return {
            "id": self.id,
            "at": self.at,
            "action": self.action,
            "actor": self.actor,
            "backend": self.backend,
            "summary": self.summary,
            "inputs": json.dumps(self.inputs, sort_keys=True, default=str),
            "outputs": json.dumps(self.outputs, sort_keys=True, default=str),
        }

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Entry:
        return cls(
            id=row["id"],
            at=row["at"],
            action=row["action"],
            actor=row["actor"] or "",
            backend=row["backend"] or "",
            summary=row["summary"] or "",
            inputs=json.loads(row["inputs"] or "{}"),
            outputs=json.loads(row["outputs"] or "{}"),
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "at": self.at,
            "action": self.action,
            "actor": self.actor,
            "backend": self.backend,
            "summary": self.summary,
            "inputs": self.inputs,
            "outputs": self.outputs,
        }


def append_in(tx: ManagedTransaction, *entries: Entry) -> None:
    """Append inside the caller's write transaction: the entry commits or rolls back with it."""
    if entries:
        rows(tx, cypher.APPEND, entries=[e.as_row() for e in entries])


def append(store: GraphStore, *entries: Entry) -> None:
    """Append in a transaction of its own (for acts that write nothing else)."""
    if entries:
        store.write(append_in, *entries)


def read_entries(
    store: GraphStore, since: datetime | None = None, action: str | None = None, limit: int = 100
) -> list[Entry]:
    """The newest ``limit`` entries at or after ``since``, oldest first."""
    if action is not None and action not in ACTIONS:
        raise ValueError(f"unknown audit action {action!r}; known: {', '.join(ACTIONS)}")
    if limit < 1:
        raise ValueError("limit must be at least 1")
    found = store.query(cypher.READ, since=_utc(since).isoformat() if since else None, action=action, limit=limit)
    return [Entry.from_row(r) for r in found]


def _utc(moment: datetime) -> datetime:
    """The moment in UTC (a naive one taken as UTC): Neo4j's offsets stop at 18 hours, where
    an ISO time a client sends may carry up to 24."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    try:
        return moment.astimezone(UTC)
    except OverflowError:
        raise ValueError(f"since is out of range: {moment.isoformat()}") from None
