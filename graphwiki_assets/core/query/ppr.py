""" "What else relates to X": Personalized PageRank seeded at X, on the concept layer.

GDS's stream runs on the concept layer of the named projection (Concept nodes and their
RELATED_TO / PART_OF edges, built with it, never per query), weighted by how many claims
state an edge.
A node written after the projection's last refresh is not in it: GDS refuses a run whose
seeds it does not hold, so such seeds are left out (``without_absent``) and the answer says
so, instead of the question failing while an ingest runs beside it.

The ranking runs one of three ways (``QueryOptions.ppr_via``): by local pushes over the live
graph (``local``, the default, ``local_ppr``: a cost that does not grow with the graph, no
projection needed), or as GDS's stream over the projection, parameterised Cypher inside the
question's read transaction (``cypher``) or the GDS client's ``gds.page_rank.stream`` over the
store's driver (``client``), whose graph ids are then read back as concepts. All rank alike;
``graphwiki bench query --ppr-via`` measures each.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

from neo4j.exceptions import ClientError

from graphwiki_assets.core.query import cypher, local_ppr
from graphwiki_assets.core.query.models import QueryOptions, Retrieval
from graphwiki_assets.core.query.projection import concept_layer, store_behind, with_projection
from graphwiki_assets.core.query.subgraph import claims_linking
from graphwiki_assets.core.store.driver import Graph
from graphwiki_assets.core.store.gds_client import calls, gds, graph

# GDS 2.13's words, with or without a label filter:
#   "sourceNodes nodes do not exist in the in-memory graph: [12]"
#   "sourceNodes nodes do not exist in the in-memory graph for the labels ['Concept']: [12, 13]"
_ABSENT = re.compile(
    r"sourceNodes nodes do not exist in the in-memory graph(?: for the labels \[[^\]]*\])?: "
    r"\[([\d,\s]*)\]"
)
T = TypeVar("T")
# Iterate until no score moves by more than this. With half the walk restarting at X each
# step shrinks what is left to move by the damping factor, so the ranking is settled long
# before GDS's default (1e-7), which at 100k concepts took twice the time for the same top k.
TOLERANCE = 1e-4


def node_ids(store: Graph, ids: list[str]) -> dict[str, int]:
    """Graph ids (what GDS takes as sourceNodes) of concept/claim/source ids."""
    return {r["id"]: r["node_id"] for r in store.query(cypher.NODE_IDS, ids=ids)} if ids else {}


def absent_seeds(exc: Exception) -> set[int]:
    """The seeds GDS says its in-memory graph does not hold (none: another error)."""
    found = _ABSENT.search(str(exc)) if isinstance(exc, ClientError) else None
    return {int(n) for n in found.group(1).replace(",", " ").split()} if found else set()


def without_absent(run: Callable[[set[int]], T], seeds: int) -> tuple[T, set[int]]:
    """``run(excluded)`` again without the seeds GDS reported absent, until it succeeds."""
    excluded: set[int] = set()
    for _ in range(seeds + 1):
        try:
            return run(excluded), excluded
        except ClientError as exc:
            absent = absent_seeds(exc) - excluded
            if not absent:
                raise
            excluded |= absent
    raise AssertionError("every seed was reported absent and the run still failed")


def _stream_cypher(store: Graph, layer: str, seeds: list[int], damping: float, limit: int) -> list[dict]:
    return store.query(cypher.RELATED_PPR, graph=layer, seeds=seeds, damping=damping, tolerance=TOLERANCE, limit=limit)


def _stream_client(store: Graph, layer: str, seeds: list[int], damping: float, limit: int) -> list[dict]:
    owner = store_behind(store)  # the client runs outside the question's read transaction
    with calls(owner):
        scores = gds(owner).page_rank.stream(
            graph(owner, layer),
            source_nodes=seeds,
            damping_factor=damping,
            relationship_weight_property="weight",
            tolerance=TOLERANCE,
        )
    top = scores[(scores["score"] > 0) & ~scores["nodeId"].isin(seeds)]
    top = top.sort_values("score", ascending=False, kind="stable").head(limit)
    ranked = [
        {"node_id": node, "score": score, "rank": i}
        for i, (node, score) in enumerate(zip(top["nodeId"].tolist(), top["score"].tolist()))
    ]
    return store.query(cypher.RANKED_CONCEPTS, ranked=ranked) if ranked else []


PPR_STREAMS = {"cypher": _stream_cypher, "client": _stream_client}  # by QueryOptions.ppr_via
LOCAL = "local"  # QueryOptions.ppr_via: local pushes (local_ppr.py), no GDS stream


def rank_related(
    store: Graph, seeds: list[str], k: int, damping: float, via: str = LOCAL
) -> tuple[list[tuple[str, float]], list[str]]:
    """The top k concepts by PPR from ``seeds``, and the seeds the projection does not hold yet."""
    if via == LOCAL:
        # pushes over the live graph: no projection, so no seed is ever missing from it
        return [(r["id"], r["score"]) for r in local_ppr.rank(store, seeds, damping, k)], []
    graph_ids = node_ids(store, seeds)
    stream = PPR_STREAMS[via]

    def on(layer: dict) -> tuple[list[dict], set[int]]:
        def run(excluded: set[int]) -> list[dict]:
            kept = [g for g in graph_ids.values() if g not in excluded]
            if not kept or not layer["relationships"]:
                return []
            return stream(store, layer["name"], kept, damping, 2 * k + 10)

        return without_absent(run, len(graph_ids))

    rows, excluded = with_projection(store, on, concept_layer())
    newer = [cid for cid, g in graph_ids.items() if g in excluded]
    return [(r["id"], r["score"]) for r in rows][:k], newer


def related(store: Graph, question: list[float], seeds: list[str], opts: QueryOptions) -> Retrieval:
    ranked, newer = rank_related(store, seeds, opts.k, opts.damping, opts.ppr_via)
    ids = [cid for cid, _ in ranked]
    evidence = claims_linking(store, question, [(s, cid) for cid in ids for s in seeds], per_pair=1)
    empty = "the entity has no related concepts in the graph"
    if newer and not ids:
        empty = (
            "the entity was written after the PageRank projection was last refreshed; it is ranked once "
            "the refresh after this ingest is done (or run `graphwiki ask --refresh`)"
        )
    return Retrieval(
        technique="personalized pagerank",
        concepts=list(seeds) + ids,
        claims=[r["id"] for r in evidence],
        summaries=ids,
        details={
            "seeds": seeds,
            "damping": opts.damping,
            "via": opts.ppr_via,
            "not_in_projection": newer,
            "ranking": [{"id": cid, "score": round(score, 6)} for cid, score in ranked],
        },
        explanation=f"top {len(ids)} concept(s) by PageRank personalised at the entity (damping {opts.damping}"
        f"{', by local pushes' if opts.ppr_via == LOCAL else ''})",
        empty_reason="" if ids else empty,
    )
