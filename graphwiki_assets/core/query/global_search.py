""" "What are the main topics?", "What does the corpus say about T?": community map-reduce.

Questions about the whole collection are answered from the community reports
(``core/communities``), as GraphRAG answers global questions. Map: each relevant community's
report becomes one fact, citing the sources it was written from. Reduce: one answer over
those facts. Without a subject, the relevant communities are the top-level ones, largest
first. With one, they are the reports nearest the question, and those of the communities the
subject's concepts belong to, by closeness to the question, down to ``MARGIN`` below the
nearest; the claims nearest the question about their members come after the reports, so
the answer can cite a specific source.
"""

from __future__ import annotations

from graphwiki_assets.core.query import cypher
from graphwiki_assets.core.query.models import TECHNIQUES, QueryOptions, Retrieval, cosine, vector_pool
from graphwiki_assets.core.store.driver import Graph

TECHNIQUE = TECHNIQUES["global"]
# Reports this close to the nearest are kept too: a subject may span communities, but one far
# below the best match is about something else.
MARGIN = 0.1
NOT_COMPUTED = (
    "no community reports exist yet: run `graphwiki communities` (or materialise the communities asset) after ingest"
)


def global_search(
    store: Graph, question: list[float], concepts: list[str], subject: bool, opts: QueryOptions
) -> Retrieval:
    if not store.query(cypher.COMMUNITIES_REPORTED)[0]["reported"]:
        return Retrieval(technique=TECHNIQUE, empty_reason=NOT_COMPUTED, explanation="no community reports")
    if not subject:
        rows = store.query(cypher.COMMUNITIES_TOP, k=opts.k)
        ranked = [(r["id"], float(r["size"])) for r in rows]
        return Retrieval(
            technique=TECHNIQUE,
            communities=[cid for cid, _ in ranked],
            details={"communities": [{"id": cid, "size": int(size)} for cid, size in ranked], "subject": None},
            explanation=f"the {len(ranked)} largest top-level communities",
            empty_reason="" if ranked else "no top-level community has a report",
        )
    scored: dict[str, float] = {}
    for row in store.query(cypher.COMMUNITY_VECTOR, k=opts.k, pool=vector_pool(opts.k), embedding=question):
        scored[row["id"]] = cosine(row["score"])
    for row in store.query(cypher.COMMUNITIES_OF, ids=concepts, embedding=question) if concepts else []:
        scored[row["id"]] = max(scored.get(row["id"], -1.0), cosine(row["score"]))
    best = max(scored.values(), default=0.0)
    chosen = sorted((cid for cid in scored if scored[cid] >= best - MARGIN), key=lambda cid: (-scored[cid], cid))[
        : opts.k
    ]
    claims = (
        [
            r["id"]
            for r in store.query(
                cypher.COMMUNITY_CLAIMS,
                communities=chosen,
                k=opts.max_facts,
                pool=vector_pool(4 * opts.max_facts),
                embedding=question,
            )
        ]
        if chosen
        else []
    )
    return Retrieval(
        technique=TECHNIQUE,
        communities=chosen,
        claims=claims,
        details={"communities": [{"id": cid, "similarity": round(scored[cid], 4)} for cid in chosen], "subject": True},
        explanation=f"{len(chosen)} community report(s) nearest the question"
        + (f" or holding its subject ({len(concepts)} concept(s))" if concepts else ""),
        empty_reason="" if chosen else "no community report is near the question",
    )
