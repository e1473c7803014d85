"""Stored neighbourhood signatures: what "find something shaped like X" is matched against.

A concept's signature counts its neighbours per entry, an entry being relation, direction
and neighbour type ('related:Database', 'part_of>:Place'), exactly as the query reads
X's own. Comparing X with every concept at question time reads the whole graph, so each
concept keeps its signature (``shape_entries`` / ``shape_counts``) and a line of tokens
(``shape_tokens``) in the full-text index ``concept_shapes``: finding the concepts that
share X's entries is then one index lookup whose cost does not grow with the graph.

The tokens are the type's, and for an entry with count c the tokens entry#1 .. entry#c
(capped at ``TOKEN_CAP``). The Jaccard similarity of two such token sets is the weighted
Jaccard similarity of the counts, the score the query ranks by; Lucene's ranking over
the tokens (rarer entries weigh more, longer signatures less) picks the pool that the
exact score then orders.

A signature is stale when the concept's number of edges changed since, or its type or
status did, which also changes its neighbours' entries (an edge moved from one concept to
another changes the degree of both ends, or supersedes one of them). Ingest
refreshes the ones a batch touched after each batch, and every stale one after a run's last
batch (``query.upkeep``); a graph written by other means is caught up by the next full
refresh or by the first "shaped like" question that meets a concept without one.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterable

from graphwiki_assets.core.query import cypher
from graphwiki_assets.core.store.driver import Graph

TOKEN_CAP = 8  # tokens per entry: a hub's 300 neighbours of one type are "many", not 300 terms
MAX_QUERY_TOKENS = 512  # Lucene refuses a query of more than 1024 clauses
BATCH = 2_000  # concepts read and written per statement
_REFRESHING = threading.Lock()  # askers catching a graph up wait for one refresh, not race eight


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=6).hexdigest()


def type_token(type_name: str) -> str:
    """Hex only, so the whitespace analyser keeps each token whole and no query syntax leaks in."""
    return "t" + _digest(type_name or "Concept")


def entry_tokens(counts: dict[str, int]) -> list[str]:
    return [f"e{_digest(entry)}x{i}" for entry, n in sorted(counts.items()) for i in range(1, min(n, TOKEN_CAP) + 1)]


def weighted_jaccard(a: dict[str, int], b: dict[str, int]) -> float:
    keys = set(a) | set(b)
    top = sum(max(a.get(k, 0), b.get(k, 0)) for k in keys)
    return sum(min(a.get(k, 0), b.get(k, 0)) for k in keys) / top if top else 0.0


def lucene_query(type_name: str | None, counts: dict[str, int]) -> str:
    """Concepts sharing at least one of the entry tokens (and of ``type_name``, when given)."""
    tokens = entry_tokens(counts)[:MAX_QUERY_TOKENS]
    shared = "+(" + " ".join(tokens) + ")"
    return f"+{type_token(type_name)} {shared}" if type_name is not None else shared


def _row(found: dict) -> dict:
    counts = {e["entry"]: e["n"] for e in found["entries"]}
    live = found["status"] != "superseded" and bool(counts)
    return {
        "id": found["id"],
        "entries": sorted(counts),
        "counts": [counts[e] for e in sorted(counts)],
        "tokens": " ".join([type_token(found["type"]), *entry_tokens(counts)]) if live else None,
        "degree": found["degree"],
        "state": found["state"],
    }


def compute(store: Graph, ids: Iterable[str]) -> int:
    """Recompute and store the signatures of ``ids``; a concept that changed between the read
    and the write keeps its old one (and stays stale for the next refresh)."""
    ids = list(ids)
    written = 0
    for start in range(0, len(ids), BATCH):
        found = store.query(cypher.SIGNATURES_READ, ids=ids[start : start + BATCH])
        rows = [_row(r) for r in found]
        written += store.write(_store, rows)
    return written


def _store(tx, rows: list[dict]) -> int:
    return tx.run(cypher.SIGNATURES_WRITE, rows=rows).single()["written"]


def stale(store: Graph, among: Iterable[str] | None = None) -> list[str]:
    """Concepts whose signature is missing or out of date, then the neighbours of those whose
    type or status moved (their entries name it): neighbours first, so a crash halfway
    leaves the moved concept stale and it is found again. ``among``: only those concepts are
    checked (a batch's), not every concept of the graph."""
    if among is None:
        rows = store.query(cypher.SIGNATURES_STALE)
    else:
        ids = sorted(set(among))
        rows = [
            r
            for start in range(0, len(ids), BATCH)
            for r in store.query(cypher.SIGNATURES_STALE_AMONG, ids=ids[start : start + BATCH])
        ]
    moved = [r["id"] for r in rows if r["moved"]]
    near = {n for r in store.query(cypher.NEIGHBOURS, ids=moved) for n in r["neighbours"]} if moved else set()
    near -= set(moved)
    rest = [r["id"] for r in rows if not r["moved"] and r["id"] not in near]
    return sorted(near) + rest + moved


def refresh_signatures(store: Graph, among: Iterable[str] | None = None) -> dict:
    """Bring every stale signature up to date; cheap when nothing changed (one scan). With
    ``among`` (the concepts a batch touched), only those and the neighbours of any whose type
    or status moved are read: a batch's refresh costs what the batch wrote, not the graph."""
    with _REFRESHING:
        ids = stale(store, among)
        return {"stale": len(ids), "written": compute(store, ids) if ids else 0}
