""" "Where does this claim come from": the nearest claims and the sources they derive from.

Each source is reported with its path and SHA256; when the file is still on disk its
hash is recomputed the way ingest computed it, so a silent edit shows as drift.
"""

from __future__ import annotations

import re
from pathlib import Path

from graphwiki_assets.core.embeddings import Encoder
from graphwiki_assets.core.query import cypher
from graphwiki_assets.core.query.models import QueryOptions, Retrieval, SourceRow, cosine, vector_pool
from graphwiki_assets.core.sources import SourceRejected, read_source
from graphwiki_assets.core.store.driver import Graph

_LEAD = re.compile(
    r"^\s*(?:where\s+(?:does|did|do)|which\s+sources?\s+(?:says?|states?|claims?)|"
    r"what\s+is\s+the\s+source\s+(?:of|for))\s+(?:the\s+)?(?:(?:claim|statement|fact|idea|assertion)\s+)?(?:that\s+)?",
    re.IGNORECASE,
)
_TRAIL = re.compile(r"\s*(?:(?:come|comes|came)\s+from)?\s*[?.!]*\s*$", re.IGNORECASE)
MARGIN = 0.08  # claims this close to the best match are shown too (paraphrases across sources)


def statement_of(question: str) -> str:
    """The statement inside "Where does the claim that <statement> come from?"."""
    return _TRAIL.sub("", _LEAD.sub("", question)).strip().strip("\"“”'") or question


def trace(store: Graph, embedder: Encoder, text: str, opts: QueryOptions) -> Retrieval:
    rows = store.query(cypher.CLAIM_VECTOR, k=opts.k, pool=vector_pool(opts.k), embedding=embedder.encode_one(text))
    scored = [(r["id"], cosine(r["score"])) for r in rows]
    best = max((s for _, s in scored), default=0.0)
    kept = [(cid, s) for cid, s in scored if s >= opts.provenance_floor and s >= best - MARGIN]
    return Retrieval(
        technique="source traceability (SHA256)",
        claims=[cid for cid, _ in kept],
        details={"matches": [{"id": cid, "similarity": round(s, 4)} for cid, s in kept], "asked": text},
        explanation=f"{len(kept)} claim(s) matching the statement (cosine >= {opts.provenance_floor})",
        empty_reason="" if kept else "no claim in the graph matches that statement",
    )


def verify(sources: list[SourceRow], roots: list[Path]) -> list[dict]:
    """For each source: is the file still there, and does it still hash to the stored SHA256?"""
    out: list[dict] = []
    for source in sources:
        found = next((root / p for root in roots for p in source.paths if p and (root / p).is_file()), None)
        if found is None:
            out.append({"id": source.id, "file": None, "verified": None})
            continue
        try:
            sha = read_source(found, parse=False).sha256
        except SourceRejected:
            sha = None
        out.append({"id": source.id, "file": str(found), "verified": sha == source.sha256})
    return out
