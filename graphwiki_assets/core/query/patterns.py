""""Find something shaped like X": concepts whose typed neighbourhood matches X's.

X's signature counts its neighbours per (relation, neighbour type), e.g.
{association:Database: 1, association:Algorithm: 2}. Candidates of X's type are ranked
by the weighted Jaccard overlap of their signature with X's (ties: more neighbours in
common with X); concepts of any type are considered only when none of X's type shares an
entry. The neighbours that realise a shared entry, and the claims stating those edges,
are the evidence.
"""

from __future__ import annotations

from graphwiki_assets.core.query import cypher
from graphwiki_assets.core.query.models import QueryOptions, Retrieval
from graphwiki_assets.core.query.subgraph import claims_linking
from graphwiki_assets.core.store.driver import GraphStore

WITNESSES_PER_ENTRY = 2


def _counts(signature: list[dict]) -> dict[str, list[str]]:
    return {s["entry"]: sorted(s["members"]) for s in signature}


def weighted_jaccard(a: dict[str, list[str]], b: dict[str, list[str]]) -> float:
    keys = set(a) | set(b)
    top = sum(max(len(a.get(k, [])), len(b.get(k, []))) for k in keys)
    return sum(min(len(a.get(k, [])), len(b.get(k, []))) for k in keys) / top if top else 0.0


def shaped_like(store: GraphStore, question: list[float], entries: list[str], opts: QueryOptions) -> Retrieval:
    x = entries[0]
    found = store.query(cypher.SIGNATURE_OF, id=x)
    mine = _counts(found[0]["signature"]) if found else {}
    if not mine:
        return Retrieval(technique="subgraph pattern matching", concepts=[x], summaries=[x],
                         empty_reason="the entity has no typed neighbours to match a shape against")
    neighbours = {m for members in mine.values() for m in members}
    scored, any_type = [], False
    for any_type in (False, True):
        rows = store.query(cypher.SHAPED_LIKE, id=x, entries=sorted(mine), any_type=any_type)
        scored = sorted(((weighted_jaccard(mine, _counts(r["signature"])), r["id"], _counts(r["signature"]))
                         for r in rows),
                        key=lambda t: (-t[0], -len(neighbours & {m for ms in t[2].values() for m in ms}), t[1]))
        if scored:
            break
    top = scored[: opts.k]
    pairs = [(x, m) for e in sorted(mine) for m in mine[e][:WITNESSES_PER_ENTRY]]
    pairs += [(cid, m) for _, cid, sig in top for e in sorted(set(sig) & set(mine)) for m in sig[e][:WITNESSES_PER_ENTRY]]
    evidence = claims_linking(store, question, pairs, per_pair=1)
    ids = [cid for _, cid, _ in top]
    return Retrieval(
        technique="subgraph pattern matching", concepts=[x] + ids + list(dict.fromkeys(m for _, m in pairs)),
        claims=[r["id"] for r in evidence], summaries=[x] + ids,
        details={"signature": {e: len(m) for e, m in sorted(mine.items())}, "any_type": any_type,
                 "matches": [{"id": cid, "score": round(score, 3), "shared": sorted(set(sig) & set(mine))}
                             for score, cid, sig in top]},
        explanation=f"{len(ids)} concept(s) whose typed neighbourhood overlaps the entity's "
                    f"({', '.join(f'{e} x{len(m)}' for e, m in sorted(mine.items()))})",
        empty_reason="" if ids else "no other concept shares any of the entity's typed relations",
    )
