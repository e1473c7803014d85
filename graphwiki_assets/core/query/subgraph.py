"""Reading the retrieved nodes back with their status, and picking the claims to show.

Techniques decide *which* nodes matter; this module loads them once, with everything
the answer needs to flag them (status, needs_review, opponents, stale sources).
"""

from __future__ import annotations

from graphwiki_assets.core.query import cypher
from graphwiki_assets.core.query.models import ClaimRow, CommunityRow, ConceptRow, Retrieval, SourceRow, Subgraph
from graphwiki_assets.core.store.driver import Graph

# Sources a concept's summary cites: what it rests on now, not the whole history of a hub.
SUMMARY_SOURCES = 10


def claims_about(store: Graph, question: list[float], concepts: list[tuple[str, int, int]]) -> list[str]:
    """Claims about each (concept, rank, limit), by the concept's rank, then relevance."""
    if not concepts:
        return []
    rows = store.query(
        cypher.CLAIMS_ABOUT,
        question=question,
        concepts=[{"id": cid, "rank": rank, "limit": limit} for cid, rank, limit in concepts],
    )
    return [r["id"] for r in rows]


def claims_linking(store: Graph, question: list[float], pairs: list[tuple[str, str]], per_pair: int = 2) -> list[dict]:
    """Claims about both ends of each pair: the evidence of an edge."""
    if not pairs:
        return []
    return store.query(
        cypher.CLAIMS_LINKING,
        question=question,
        per_pair=per_pair,
        pairs=[{"rank": i, "a": a, "b": b} for i, (a, b) in enumerate(pairs)],
    )


def load(
    store: Graph, retrieval: Retrieval, stale_days: int, max_claims: int | None = None, filed: list[dict] | None = None
) -> Subgraph:
    """Concepts, claims (plus the other side of every dispute) and the sources they cite.

    Only the first ``max_claims`` ranked claims can become facts of the answer, so only
    they are read; and a concept's sources are read only where its summary is a fact (the
    ``summaries``): a hub's hundreds of sources are not loaded to show its name.
    """
    sub = Subgraph(filed=list(filed or []))
    claim_ids = list(dict.fromkeys(retrieval.claims))[:max_claims]
    for row in store.query(cypher.LOAD_CLAIMS, ids=claim_ids):
        sub.claims[row["id"]] = ClaimRow(**row)
    # A disputed claim is shown with its opponents, never alone.
    opponents = list(dict.fromkeys(o for c in sub.claims.values() for o in c.opponents if o not in sub.claims))
    if opponents:
        for row in store.query(cypher.LOAD_CLAIMS, ids=opponents):
            sub.claims[row["id"]] = ClaimRow(**row)
            retrieval.claims.append(row["id"])
    concept_ids = list(dict.fromkeys(retrieval.concepts + retrieval.summaries))
    for row in store.query(
        cypher.LOAD_CONCEPTS,
        ids=concept_ids,
        cite=list(dict.fromkeys(retrieval.summaries)),
        source_limit=SUMMARY_SOURCES,
    ):
        sub.concepts[row["id"]] = ConceptRow(**row)
    if retrieval.communities:
        for row in store.query(
            cypher.LOAD_COMMUNITIES, ids=list(dict.fromkeys(retrieval.communities)), source_limit=SUMMARY_SOURCES
        ):
            sub.communities[row["id"]] = CommunityRow(**row)
    source_ids = {s for c in sub.claims.values() for s in c.sources}
    source_ids |= {s for k in sub.communities.values() for s in k.sources}
    source_ids |= {s for f in sub.filed for s in f["citations"] or []}
    source_ids |= {s for c in sub.concepts.values() for s in c.sources} | set(retrieval.sources)
    for row in store.query(cypher.LOAD_SOURCES, ids=sorted(source_ids), stale_days=stale_days):
        sub.sources[row["id"]] = SourceRow(**row)
    return sub
