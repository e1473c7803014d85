""" "Find something shaped like X": concepts whose typed neighbourhood matches X's.

X's signature counts its neighbours per (relation, neighbour type), e.g.
{related:Database: 1, related:Algorithm: 2}, read live from X's edges. Candidates
come from the stored signatures (``signatures.py``): the full-text index hands over the
``shape_pool`` concepts of X's type whose tokens best match X's, so the cost of a question
does not grow with the graph; concepts of any type are asked for only when none of X's type
shares an entry. The pool is ranked by the weighted Jaccard overlap of its stored
signatures with X's (ties: more neighbours in common with X, then id). The neighbours that
realise a shared entry, and the claims stating those edges, are the evidence.
"""

from __future__ import annotations

from graphwiki_assets.core.query import cypher
from graphwiki_assets.core.query.models import QueryOptions, Retrieval
from graphwiki_assets.core.query.signatures import lucene_query, refresh_signatures, weighted_jaccard
from graphwiki_assets.core.query.subgraph import claims_linking
from graphwiki_assets.core.store.driver import Graph

WITNESSES_PER_ENTRY = 2


def _candidates(
    store: Graph, x: str, type_name: str, counts: dict[str, int], pool: int
) -> tuple[list[tuple[float, str, dict[str, int]]], bool]:
    """(score, id, stored counts) of the pool, X's type first; whether any type was needed."""
    for any_type in (False, True):
        rows = store.query(
            cypher.SHAPE_CANDIDATES, id=x, pool=pool, tokens=lucene_query(None if any_type else type_name, counts)
        )
        if rows:
            return [
                (weighted_jaccard(counts, sig), r["id"], sig)
                for r in rows
                for sig in [dict(zip(r["entries"] or [], r["counts"] or []))]
            ], any_type
    return [], True


def _rank(
    store: Graph, scored: list[tuple[float, str, dict[str, int]]], neighbours: set[str], k: int
) -> list[tuple[float, str, dict[str, int]]]:
    """Best score first; among those tied at the top k, more neighbours shared with X first."""
    scored = sorted(scored, key=lambda t: (-t[0], t[1]))
    if not scored:
        return []
    cut = scored[min(k, len(scored)) - 1][0]
    tier = [cid for score, cid, _ in scored if score >= cut]
    shared = {
        r["id"]: r["shared"] for r in store.query(cypher.SHARED_NEIGHBOURS, ids=tier, neighbours=sorted(neighbours))
    }
    return sorted(scored, key=lambda t: (-t[0], -shared.get(t[1], 0), t[1]))[:k]


def _witnesses(
    store: Graph, top: list[tuple[float, str, dict[str, int]]], mine: dict[str, list[str]]
) -> dict[str, dict[str, list[str]]]:
    matches = [{"id": cid, "entries": sorted(set(sig) & set(mine))} for _, cid, sig in top]
    found: dict[str, dict[str, list[str]]] = {}
    for row in store.query(cypher.SHAPE_WITNESSES, matches=matches, per_entry=WITNESSES_PER_ENTRY):
        found.setdefault(row["id"], {})[row["entry"]] = row["members"]
    return found


def shaped_like(store: Graph, question: list[float], entries: list[str], opts: QueryOptions) -> Retrieval:
    x = entries[0]
    found = store.query(cypher.SIGNATURE_OF, id=x)
    mine = {s["entry"]: sorted(s["members"]) for s in found[0]["signature"]} if found else {}
    if not mine:
        return Retrieval(
            technique="subgraph pattern matching",
            concepts=[x],
            summaries=[x],
            empty_reason="the entity has no typed neighbours to match a shape against",
        )
    if not found[0]["stored"] and not store.query(cypher.ANY_SIGNATURE)[0]["stored"]:
        refresh_signatures(store)  # a graph no ingest has refreshed yet: catch it up once
    # (X alone without one was written by a batch whose refresh is still to come: its live
    # signature is all the match needs)
    counts = {e: len(m) for e, m in mine.items()}
    scored, any_type = _candidates(store, x, found[0]["type"], counts, opts.shape_pool)
    top = _rank(store, scored, {m for members in mine.values() for m in members}, opts.k)
    witnesses = _witnesses(store, top, mine)
    pairs = [(x, m) for e in sorted(mine) for m in mine[e][:WITNESSES_PER_ENTRY]]
    pairs += [(cid, m) for _, cid, _ in top for e, ms in sorted(witnesses.get(cid, {}).items()) for m in ms]
    evidence = claims_linking(store, question, pairs, per_pair=1)
    ids = [cid for _, cid, _ in top]
    return Retrieval(
        technique="subgraph pattern matching",
        concepts=[x] + ids + list(dict.fromkeys(m for _, m in pairs)),
        claims=[r["id"] for r in evidence],
        summaries=[x] + ids,
        details={
            "signature": dict(sorted(counts.items())),
            "any_type": any_type,
            "pool": len(scored),
            "matches": [
                {"id": cid, "score": round(score, 3), "shared": sorted(set(sig) & set(mine))} for score, cid, sig in top
            ],
        },
        explanation=f"{len(ids)} concept(s) whose typed neighbourhood overlaps the entity's "
        f"({', '.join(f'{e} x{n}' for e, n in sorted(counts.items()))})",
        empty_reason="" if ids else "no other concept shares any of the entity's typed relations",
    )
