"""Which encoder a run embeds with: the service at GRAPHWIKI_EMBEDDINGS_BASE_URL when set,
else the local sentence-transformers model (the default)."""

from __future__ import annotations

from graphwiki_assets.core.embeddings import Encoder, LazyEmbedder
from graphwiki_assets.core.embeddings_remote import load_remote_embedder
from graphwiki_assets.core.settings import Settings


def build_encoder(settings: Settings) -> Encoder:
    """The embedder every path uses; the local model loads on first use."""
    if settings.embeddings.enabled:
        return load_remote_embedder(settings.embeddings)
    return LazyEmbedder(settings.embedding_model)
