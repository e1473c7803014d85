"""Answering questions from the graph: the question's shape picks the algorithm.

Public API:
    ask(store, embedder, llm, question, **opts) -> Answer
    retrieve_sources(store, embedder, question, k, hops=2, method="bridge") -> [(source_id, score)]
    flat_sources(store, embedder, question, k) -> [(source_id, score)]
    refresh_projection(store) -> ProjectionStatus   (call after ingest)
"""

from graphwiki_assets.core.query.models import Answer, QueryOptions
from graphwiki_assets.core.query.projection import ensure_projection, refresh_projection
from graphwiki_assets.core.query.retrieval import flat_sources, retrieve_sources
from graphwiki_assets.core.query.service import ask

__all__ = [
    "Answer",
    "QueryOptions",
    "ask",
    "ensure_projection",
    "flat_sources",
    "refresh_projection",
    "retrieve_sources",
]
