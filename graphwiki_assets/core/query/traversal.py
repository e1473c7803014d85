""" "What is X": N-hop traversal from X over concept edges, with bounded fan-out.

Each hop keeps at most ``fanout`` neighbours per node (strongest edge first, then the
ones closest to the question), and the whole walk at most ``max_nodes`` concepts, so a
hub with hundreds of neighbours adds a handful of them, not the whole neighbourhood.
Claims come from X first, then from neighbours by distance; a level is read only while
the answer still has room for its claims. A claim that defines X ("X is a ...") leads them.
"""

from __future__ import annotations

from graphwiki_assets.core.query import cypher
from graphwiki_assets.core.query.definitions import defining_claims
from graphwiki_assets.core.query.models import QueryOptions, Retrieval
from graphwiki_assets.core.query.subgraph import claims_about
from graphwiki_assets.core.store.driver import Graph


def walk(
    store: Graph, question: list[float], entries: list[str], hops: int, fanout: int, max_nodes: int
) -> tuple[dict[str, int], list[dict], list[str]]:
    """Concept id -> hop, the edges walked, and the nodes whose fan-out was cut."""
    level = {cid: 0 for cid in entries}
    edges: list[dict] = []
    capped: list[str] = []
    frontier = list(entries)
    for hop in range(1, hops + 1):
        if not frontier or len(level) >= max_nodes:
            break
        rows = store.query(cypher.TRAVERSAL_HOP, frontier=frontier, seen=list(level), fanout=fanout, question=question)
        frontier = []
        for row in rows:
            if row["degree"] > fanout and row["parent"] not in capped:
                capped.append(row["parent"])
            if row["id"] in level or len(level) >= max_nodes:
                continue
            level[row["id"]] = hop
            frontier.append(row["id"])
            edges.append({"from": row["parent"], "to": row["id"], "kinds": row["kinds"], "hop": hop})
    return level, edges, capped


def claims_by_distance(store: Graph, question: list[float], level: dict[str, int], opts: QueryOptions) -> list[str]:
    """The entity's own claims first and all of them; fewer the farther a neighbour is.

    Claims rank by distance before relevance, so once the nearer levels give ``max_facts``
    claims the farther ones could never reach the answer: they are not read. The entity and
    its neighbours are asked for together, the next level only when they fall short.
    """
    by_hop: dict[int, list[str]] = {}
    for cid, hop in level.items():
        by_hop.setdefault(hop, []).append(cid)
    claims: list[str] = []
    hops = sorted(by_hop)
    batches = [hops[:2]] + [[h] for h in hops[2:]]
    for batch in batches:
        if len(claims) >= opts.max_facts:
            break
        wanted = [
            (cid, hop, opts.max_facts if hop == 0 else max(1, opts.per_concept // hop))
            for hop in batch
            for cid in by_hop[hop]
        ]
        claims += [cid for cid in claims_about(store, question, wanted) if cid not in claims]
    return claims


def what_is(store: Graph, question: list[float], entries: list[str], opts: QueryOptions) -> Retrieval:
    level, edges, capped = walk(store, question, entries, opts.hops, opts.fanout, opts.max_nodes)
    concepts = sorted(level, key=lambda cid: level[cid])
    defining = defining_claims(store, entries)
    claims = list(dict.fromkeys(defining + claims_by_distance(store, question, level, opts)))
    note = f"; fan-out cut at {opts.fanout} for {len(capped)} hub(s)" if capped else ""
    return Retrieval(
        technique="n-hop traversal",
        concepts=concepts,
        claims=claims,
        summaries=list(entries),
        defining=defining,
        details={"hops": opts.hops, "fanout": opts.fanout, "levels": level, "edges": edges, "capped": capped},
        explanation=f"{len(concepts)} concept(s) within {opts.hops} hop(s) of the entity{note}",
    )
