"""Which encoder a run embeds with: the service at GRAPHWIKI_EMBEDDINGS_BASE_URL when set,
else the local sentence-transformers model (the default)."""

from __future__ import annotations

from graphwiki_assets.core.embeddings import Encoder, LazyEmbedder, load_embedder
from graphwiki_assets.core.embeddings_remote import load_remote_embedder
from graphwiki_assets.core.settings import EmbeddingsServiceSettings, Settings


def encoder_for(service: EmbeddingsServiceSettings, local_model: str, lazy: bool = True) -> Encoder:
    """The service's client when it is set, else the local model: loaded on first use
    (``lazy``), or now (a run that times the model apart from its loading)."""
    if service.enabled:
        return load_remote_embedder(service)
    return LazyEmbedder(local_model) if lazy else load_embedder(local_model)


def build_encoder(settings: Settings, lazy: bool = True) -> Encoder:
    """The embedder every path uses, from the environment's settings."""
    return encoder_for(settings.embeddings, settings.embedding_model, lazy)
