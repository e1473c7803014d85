"""Opening the clients a command needs from the environment's settings."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from graphwiki_assets.core.settings import Settings
from graphwiki_assets.core.store.driver import GraphStore

if TYPE_CHECKING:  # imported when a command opens them: a command's start stays fast
    from graphwiki_assets.core.embeddings import Encoder
    from graphwiki_assets.core.llm.client import LLMClient


@contextmanager
def open_services(settings: Settings | None = None) -> Iterator[tuple[Settings, GraphStore, Encoder, LLMClient]]:
    """(settings, store, embedder, llm) for one command; the store is closed afterwards."""
    from graphwiki_assets.core.encoders import build_encoder
    from graphwiki_assets.core.llm.client import build_llm

    settings = settings or Settings.from_env()
    with GraphStore(settings.neo4j) as store:
        yield settings, store, build_encoder(settings), build_llm(settings.llm, settings.cache_dir)
