"""Dagster resources: thin, configurable wrappers that hand the domain core its clients.

Settings arrive through ``EnvVar`` so credentials never sit in code or run config; a
resource opens clients per use (no driver is shared between runs).
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Iterator

import dagster as dg
from pydantic import Field

from graphwiki_assets.core.config import LoadedConfig, load_config
from graphwiki_assets.core.settings import (
    DEFAULT_BOLT_PORT,
    DEFAULT_EMBEDDING_MODEL,
    DEFAULT_INGEST_BATCH,
    DEFAULT_LLM_MODEL,
    DEFAULT_MAX_CALLS_PER_SOURCE,
    DEFAULT_MAX_SOURCE_BYTES,
    DEFAULT_PASSWORD,
    LLMSettings,
    Neo4jSettings,
    Settings,
)
from graphwiki_assets.core.store.driver import GraphStore


class Neo4jResource(dg.ConfigurableResource):
    """The graph. Defaults to the local launcher's instance (`graphwiki neo4j start`)."""

    uri: str = Field(default=f"bolt://127.0.0.1:{DEFAULT_BOLT_PORT}", description="Bolt URI (NEO4J_URI)")
    username: str = Field(default="neo4j", description="NEO4J_USERNAME")
    password: str = Field(default=DEFAULT_PASSWORD, description="NEO4J_PASSWORD")
    database: str = "neo4j"

    def settings(self) -> Neo4jSettings:
        return Neo4jSettings(uri=self.uri, username=self.username, password=self.password, database=self.database)

    @contextmanager
    def open(self) -> Iterator[GraphStore]:
        with GraphStore(self.settings()) as store:
            yield store


class EmbeddingResource(dg.ConfigurableResource):
    """A sentence-transformers model by name or path (GRAPHWIKI_EMBEDDING_MODEL)."""

    model: str = DEFAULT_EMBEDDING_MODEL

    def embedder(self):
        from graphwiki_assets.core.embeddings import load_embedder

        return load_embedder(self.model)


class LLMResource(dg.ConfigurableResource):
    """Any OpenAI-compatible endpoint; with no key and no base URL, the offline backend."""

    api_key: str | None = Field(default=None, description="OPENAI_API_KEY")
    base_url: str | None = Field(default=None, description="OPENAI_BASE_URL")
    model: str = Field(default=DEFAULT_LLM_MODEL, description="GRAPHWIKI_LLM_MODEL")
    timeout_s: float = Field(default=60.0, description="per-call timeout in seconds (GRAPHWIKI_LLM_TIMEOUT)")
    max_retries: int = Field(default=4, description="retries of 429, 5xx, timeouts (GRAPHWIKI_LLM_MAX_RETRIES)")
    concurrency: int = Field(default=8, description="calls in flight at once (GRAPHWIKI_LLM_CONCURRENCY)")
    cache_dir: str | None = Field(default=None, description="request/response cache (GRAPHWIKI_CACHE_DIR)")

    def settings(self) -> LLMSettings:
        return LLMSettings(api_key=self.api_key or None, base_url=self.base_url or None, model=self.model,
                           timeout_s=self.timeout_s, max_retries=self.max_retries, concurrency=self.concurrency)

    def label(self) -> str:
        """Which backend runs will use (for run tags): the offline rules' label or the model."""
        from graphwiki_assets.core.llm.client import backend_label

        return backend_label(self.settings())

    def client(self):
        from graphwiki_assets.core.llm.client import build_llm

        return build_llm(self.settings(), Path(self.cache_dir) if self.cache_dir else None)


class GraphwikiConfig(dg.ConfigurableResource):
    """Where sources are read from (GRAPHWIKI_SOURCES_DIR) and where local state lives."""

    home: str = "data"
    sources_dir: str = "data/sources"
    ingest_batch: int = Field(default=DEFAULT_INGEST_BATCH, description="sources per ingest batch (GRAPHWIKI_INGEST_BATCH)")
    max_source_bytes: int = Field(default=DEFAULT_MAX_SOURCE_BYTES,
                                  description="larger source files are refused (GRAPHWIKI_MAX_SOURCE_BYTES)")
    max_calls_per_source: int = Field(default=DEFAULT_MAX_CALLS_PER_SOURCE,
                                      description="extraction calls one source may spend (GRAPHWIKI_MAX_CALLS_PER_SOURCE)")
    schema_config: str = Field(default="", description="the schema config file (GRAPHWIKI_CONFIG); empty: "
                                                       "$GRAPHWIKI_HOME/graphwiki.yaml, ./graphwiki.yaml, else the "
                                                       "general-text preset")

    def schema(self) -> LoadedConfig:
        """The schema config, read and validated now (a bad file fails the step before any write)."""
        return load_config(Path(self.schema_config) if self.schema_config else None, Path(self.home).resolve())

    def settings(self, neo4j: Neo4jResource, embeddings: EmbeddingResource, llm: LLMResource) -> Settings:
        base = Settings.from_env({"GRAPHWIKI_HOME": self.home, "GRAPHWIKI_SOURCES_DIR": self.sources_dir})
        return replace(base, neo4j=neo4j.settings(), llm=llm.settings(), embedding_model=embeddings.model,
                       cache_dir=Path(llm.cache_dir).resolve() if llm.cache_dir else base.cache_dir)


def _env_or(name: str, default):
    """EnvVar when the variable is set (resolved at run time), else the default."""
    return dg.EnvVar(name) if os.environ.get(name) else default


def _env_int(name: str, default: int):
    """Numbers resolve at run time too (``EnvVar.int``) when the variable is set."""
    return dg.EnvVar.int(name) if os.environ.get(name) else default


def build_resources() -> dict:
    """Resources wired to the environment; called when the code location loads, not at import.
    Defaults come from ``Settings`` so the CLI and Dagster agree on every value."""
    base = Settings.from_env()
    home = Path(os.environ.get("GRAPHWIKI_HOME", "data"))
    port = os.environ.get("GRAPHWIKI_NEO4J_BOLT_PORT")
    default_uri = f"bolt://127.0.0.1:{int(port) if port else DEFAULT_BOLT_PORT}"
    return {
        "neo4j": Neo4jResource(
            uri=_env_or("NEO4J_URI", default_uri),
            username=_env_or("NEO4J_USERNAME", "neo4j"),
            password=_env_or("NEO4J_PASSWORD", DEFAULT_PASSWORD),
            database=_env_or("NEO4J_DATABASE", base.neo4j.database),
        ),
        "embeddings": EmbeddingResource(model=_env_or("GRAPHWIKI_EMBEDDING_MODEL", DEFAULT_EMBEDDING_MODEL)),
        "llm": LLMResource(
            api_key=_env_or("OPENAI_API_KEY", None),
            base_url=_env_or("OPENAI_BASE_URL", None),
            model=_env_or("GRAPHWIKI_LLM_MODEL", DEFAULT_LLM_MODEL),
            timeout_s=base.llm.timeout_s,  # read when the code location loads (EnvVar has no float form)
            max_retries=_env_int("GRAPHWIKI_LLM_MAX_RETRIES", base.llm.max_retries),
            concurrency=_env_int("GRAPHWIKI_LLM_CONCURRENCY", base.llm.concurrency),
            cache_dir=_env_or("GRAPHWIKI_CACHE_DIR", str(home / "llm-cache")),
        ),
        "graphwiki": GraphwikiConfig(
            home=_env_or("GRAPHWIKI_HOME", str(home)),
            sources_dir=_env_or("GRAPHWIKI_SOURCES_DIR", str(home / "sources")),
            ingest_batch=_env_int("GRAPHWIKI_INGEST_BATCH", base.ingest_batch),
            max_source_bytes=_env_int("GRAPHWIKI_MAX_SOURCE_BYTES", base.max_source_bytes),
            max_calls_per_source=_env_int("GRAPHWIKI_MAX_CALLS_PER_SOURCE", base.max_calls_per_source),
            schema_config=_env_or("GRAPHWIKI_CONFIG", str(base.config_path or "")),
        ),
    }
