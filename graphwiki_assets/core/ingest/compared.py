"""What the conflict stage puts side by side: a claim already stated, and a new claim paired with it.

Pairs come from two screens (claims sharing a concept, in ``conflicts``; restatements in
other files, in ``restatements``) and go through the one judgment.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass


@dataclass(frozen=True)
class Existing:
    id: str
    text: str
    status: str
    embedding: list[float]
    doc: int | None  # the batch position of its source; None for a claim already in the graph
    date: dt.date | None = None  # the newest date among its sources (None: not dated)
    paths: frozenset[str] = frozenset()  # the files it derives from


@dataclass(frozen=True)
class Pair:
    doc: int
    claim_id: str
    claim_text: str
    existing: Existing
    concept: str
    aliases: list[str]
