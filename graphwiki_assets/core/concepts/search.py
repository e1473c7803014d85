"""Finding concepts: by the words of their names first (cheap, exact), then by meaning."""

from __future__ import annotations

from pydantic import BaseModel

from graphwiki_assets.core.concepts import cypher
from graphwiki_assets.core.embeddings import Encoder
from graphwiki_assets.core.normal_forms import name_key
from graphwiki_assets.core.store.driver import Graph
from graphwiki_assets.core.store.vector_model import check_encoder


class ConceptHit(BaseModel):
    id: str
    name: str
    type: str | None = None
    summary: str = ""
    score: float
    matched: str  # name | meaning


def _words_query(text: str) -> str:
    """A Lucene query over the text's words; only letters and digits reach it, so nothing
    in a user's text can act as query syntax."""
    words = [w for w in name_key(text).split() if w.isalnum()]
    return " OR ".join(words)


def search_concepts(store: Graph, embedder: Encoder, text: str, k: int = 10) -> list[ConceptHit]:
    """Up to ``k`` concepts for ``text``: name matches, then the nearest by meaning."""
    if not text.strip():
        raise ValueError("search text is empty")
    hits: dict[str, ConceptHit] = {}
    query = _words_query(text)
    if query:
        for row in store.query(cypher.SEARCH_BY_NAME, query=query, k=k):
            hits.setdefault(row["id"], ConceptHit(**row))
    if len(hits) < k:
        check_encoder(store, embedder)
        vector = embedder.encode([text])[0]
        rows = store.query(cypher.SEARCH_BY_MEANING, embedding=vector.tolist(), pool=max(4 * k, 20), k=k)
        for row in rows:
            hits.setdefault(row["id"], ConceptHit(**row))
    return list(hits.values())[:k]
