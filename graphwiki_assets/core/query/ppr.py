""""What else relates to X": Personalized PageRank seeded at X, on the concept layer.

The stream runs on the named projection (never projected per query), filtered to Concept
nodes and their RELATES_TO / PART_OF edges, weighted by how many claims state an edge.
"""

from __future__ import annotations

from graphwiki_assets.core.query import cypher
from graphwiki_assets.core.query.models import QueryOptions, Retrieval
from graphwiki_assets.core.query.projection import PROJECTION, ensure_projection
from graphwiki_assets.core.query.subgraph import claims_linking
from graphwiki_assets.core.store.driver import GraphStore

CONCEPT_EDGES = ("RELATES_TO", "PART_OF")


def node_ids(store: GraphStore, ids: list[str]) -> dict[str, int]:
    """Graph ids (what GDS takes as sourceNodes) of concept/claim/source ids."""
    return {r["id"]: r["node_id"] for r in store.query(cypher.NODE_IDS, ids=ids)} if ids else {}


def rank_related(store: GraphStore, seeds: list[str], k: int, damping: float) -> list[tuple[str, float]]:
    status = ensure_projection(store)
    graph_ids = list(node_ids(store, seeds).values())
    types = [t for t in CONCEPT_EDGES if t in status.types]
    if not graph_ids or not types:
        return []
    rows = store.query(cypher.RELATED_PPR, graph=PROJECTION, seeds=graph_ids, types=types, damping=damping,
                       limit=2 * k + 10)
    return [(r["id"], r["score"]) for r in rows][:k]


def related(store: GraphStore, question: list[float], seeds: list[str], opts: QueryOptions) -> Retrieval:
    ranked = rank_related(store, seeds, opts.k, opts.damping)
    ids = [cid for cid, _ in ranked]
    evidence = claims_linking(store, question, [(s, cid) for cid in ids for s in seeds], per_pair=1)
    return Retrieval(
        technique="personalized pagerank (GDS)", concepts=list(seeds) + ids,
        claims=[r["id"] for r in evidence], summaries=ids,
        details={"seeds": seeds, "damping": opts.damping,
                 "ranking": [{"id": cid, "score": round(score, 6)} for cid, score in ranked]},
        explanation=f"top {len(ids)} concept(s) by PageRank personalised at the entity (damping {opts.damping})",
        empty_reason="" if ids else "the entity has no related concepts in the graph",
    )
