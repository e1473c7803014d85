"""Dagster resources: thin, configurable wrappers that hand the domain core its clients.

Every field is a setting of ``core/settings.py``, read from the same environment variable
with the same default as the CLI reads it. A resource opens clients per use (no driver is
shared between runs).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from operator import attrgetter
from pathlib import Path
from typing import Any

import dagster as dg
from pydantic import Field

from graphwiki_assets.core.config import LoadedConfig, load_config
from graphwiki_assets.core.settings import (
    DEFAULT_BOLT_PORT,
    DEFAULT_DATABASE,
    DEFAULT_EMBEDDING_MODEL,
    DEFAULT_EMBEDDINGS_BATCH,
    DEFAULT_EMBEDDINGS_CONCURRENCY,
    DEFAULT_HOME,
    DEFAULT_INGEST_BATCH,
    DEFAULT_LLM_CONCURRENCY,
    DEFAULT_LLM_MAX_RETRIES,
    DEFAULT_LLM_MODEL,
    DEFAULT_LLM_TIMEOUT_S,
    DEFAULT_MAX_CALLS_PER_SOURCE,
    DEFAULT_MAX_SOURCE_BYTES,
    DEFAULT_PASSWORD,
    DEFAULT_USERNAME,
    ENV_VARS,
    EmbeddingsServiceSettings,
    LLMSettings,
    Neo4jSettings,
    Settings,
)
from graphwiki_assets.core.store.driver import GraphStore

SETTING = "setting"  # a field's place in Settings, kept in its JSON schema extras


def setting(path: str, default: Any, what: str) -> Any:
    """A field holding the setting at ``path`` of ``Settings``; its description names the variable."""
    return Field(default=default, description=f"{what} ({ENV_VARS[path]})", json_schema_extra={SETTING: path})


class Neo4jResource(dg.ConfigurableResource):
    """The graph. Defaults to the local launcher's instance (`graphwiki neo4j start`)."""

    uri: str = setting("neo4j.uri", f"bolt://127.0.0.1:{DEFAULT_BOLT_PORT}", "Bolt URI")
    username: str = setting("neo4j.username", DEFAULT_USERNAME, "user name")
    password: str = setting("neo4j.password", DEFAULT_PASSWORD, "password")
    database: str = setting("neo4j.database", DEFAULT_DATABASE, "the database within the server")

    def settings(self) -> Neo4jSettings:
        return Neo4jSettings(uri=self.uri, username=self.username, password=self.password, database=self.database)

    @contextmanager
    def open(self) -> Iterator[GraphStore]:
        with GraphStore(self.settings()) as store:
            yield store


class EmbeddingResource(dg.ConfigurableResource):
    """A sentence-transformers model by name or path; with a base URL, an OpenAI-compatible
    embeddings service instead."""

    model: str = setting("embedding_model", DEFAULT_EMBEDDING_MODEL, "model name or path")
    base_url: str | None = setting("embeddings.base_url", None, "embeddings service; none: the local model")
    api_key: str | None = setting("embeddings.api_key", None, "the embeddings service's API key")
    service_model: str = setting("embeddings.model", DEFAULT_EMBEDDING_MODEL, "the model the service runs")
    batch: int = setting("embeddings.batch", DEFAULT_EMBEDDINGS_BATCH, "texts per request to the service")
    concurrency: int = setting("embeddings.concurrency", DEFAULT_EMBEDDINGS_CONCURRENCY, "requests in flight")

    def service(self) -> EmbeddingsServiceSettings:
        return EmbeddingsServiceSettings(
            base_url=self.base_url or None,
            api_key=self.api_key or None,
            model=self.service_model,
            batch=self.batch,
            concurrency=self.concurrency,
        )

    def embedder(self):
        from graphwiki_assets.core.encoders import encoder_for

        return encoder_for(self.service(), self.model, lazy=False)

    def lazy_embedder(self):
        """The same embedder, its local model loaded on first use."""
        from graphwiki_assets.core.encoders import encoder_for

        return encoder_for(self.service(), self.model)


class LLMResource(dg.ConfigurableResource):
    """Any OpenAI-compatible endpoint; with no key and no base URL, the offline backend."""

    api_key: str | None = setting("llm.api_key", None, "API key")
    base_url: str | None = setting("llm.base_url", None, "endpoint")
    model: str = setting("llm.model", DEFAULT_LLM_MODEL, "model name")
    timeout_s: float = setting("llm.timeout_s", DEFAULT_LLM_TIMEOUT_S, "per-call timeout in seconds")
    max_retries: int = setting("llm.max_retries", DEFAULT_LLM_MAX_RETRIES, "retries of 429, 5xx, timeouts")
    concurrency: int = setting("llm.concurrency", DEFAULT_LLM_CONCURRENCY, "calls in flight at once")
    context_tokens: int | None = setting(
        "llm.context_tokens", None, "the model's context window; none: asked of a local server"
    )
    max_items_per_call: int | None = setting(
        "llm.max_items_per_call", None, "pairs per batched call; none: each task's own"
    )
    max_documents_per_call: int | None = setting(
        "llm.max_documents_per_call", None, "documents per extraction call; none: as many as fit"
    )
    verdicts: str = setting(
        "llm.verdicts", "reasoned", "judge, conflict and support verdicts: reasoned, or scored from token probabilities"
    )
    cache_dir: str | None = setting("cache_dir", None, "request/response cache; none: no cache")

    def settings(self) -> LLMSettings:
        return LLMSettings(
            api_key=self.api_key or None,
            base_url=self.base_url or None,
            model=self.model,
            timeout_s=self.timeout_s,
            max_retries=self.max_retries,
            concurrency=self.concurrency,
            context_tokens=self.context_tokens,
            max_items_per_call=self.max_items_per_call,
            verdicts=self.verdicts,
            max_documents_per_call=self.max_documents_per_call,
        )

    def label(self) -> str:
        """Which backend runs will use (for run tags): the offline rules' label or the model."""
        from graphwiki_assets.core.llm.client import backend_label

        return backend_label(self.settings())

    def client(self):
        from graphwiki_assets.core.llm.client import build_llm

        return build_llm(self.settings(), Path(self.cache_dir) if self.cache_dir else None)


class GraphwikiConfig(dg.ConfigurableResource):
    """Where sources are read from and where local state lives; the ingest's limits."""

    home: str = setting("home", DEFAULT_HOME, "local state")
    sources_dir: str = setting("sources_dir", f"{DEFAULT_HOME}/sources", "the folder the sensor watches")
    ingest_batch: int = setting("ingest_batch", DEFAULT_INGEST_BATCH, "sources per ingest batch")
    ingest_workers: int = setting("ingest_workers", 1, "extraction steps a sensor's run runs side by side")
    max_source_bytes: int = setting("max_source_bytes", DEFAULT_MAX_SOURCE_BYTES, "larger source files are refused")
    max_calls_per_source: int = setting(
        "max_calls_per_source", DEFAULT_MAX_CALLS_PER_SOURCE, "extraction calls one source may spend"
    )
    schema_config: str = setting(
        "config_path",
        "",
        "the schema config file; empty: $GRAPHWIKI_HOME/graphwiki.yaml, ./graphwiki.yaml, else the general-text preset",
    )

    def load_schema(self) -> LoadedConfig:
        """The schema config, read and validated now (a bad file fails the step before any write)."""
        return load_config(Path(self.schema_config) if self.schema_config else None, Path(self.home).resolve())

    def settings(self, neo4j: Neo4jResource, embeddings: EmbeddingResource, llm: LLMResource) -> Settings:
        """The CLI's ``Settings``, made of these resources' values."""
        base = Settings.from_env({ENV_VARS["home"]: self.home, ENV_VARS["sources_dir"]: self.sources_dir})
        return replace(
            base,
            neo4j=neo4j.settings(),
            llm=llm.settings(),
            embedding_model=embeddings.model,
            embeddings=embeddings.service(),
            cache_dir=Path(llm.cache_dir).resolve() if llm.cache_dir else base.cache_dir,
            ingest_batch=self.ingest_batch,
            ingest_workers=self.ingest_workers,
            max_source_bytes=self.max_source_bytes,
            max_calls_per_source=self.max_calls_per_source,
            config_path=Path(self.schema_config).expanduser().resolve() if self.schema_config else None,
        )


RESOURCES: dict[str, type[dg.ConfigurableResource]] = {
    "neo4j": Neo4jResource,
    "embeddings": EmbeddingResource,
    "llm": LLMResource,
    "graphwiki": GraphwikiConfig,
}


def resources_for(*keys: str) -> dict[str, dg.ConfigurableResource]:
    """The named resources as the environment configures them, for an area's definitions.

    Read when the code location loads, never at import. Areas that name the same key get the
    same instance while the environment is unchanged: ``Definitions.merge`` refuses two
    different resources under one key, even equal ones.
    """
    names = sorted(set(ENV_VARS.values()))
    every = _configured(tuple((name, os.environ[name]) for name in names if name in os.environ))
    return {key: every[key] for key in keys}


@functools.lru_cache(maxsize=8)
def _configured(environment: tuple[tuple[str, str], ...]) -> dict[str, dg.ConfigurableResource]:
    env = dict(environment)
    settings = Settings.from_env(env)
    return {key: _from_settings(cls, env, settings) for key, cls in RESOURCES.items()}


def _from_settings(
    cls: type[dg.ConfigurableResource], env: Mapping[str, str], settings: Settings
) -> dg.ConfigurableResource:
    values = {}
    for name, field in cls.model_fields.items():
        extra = field.json_schema_extra
        if isinstance(extra, dict) and SETTING in extra:
            value = _field_value(str(extra[SETTING]), env, settings)
            if value is not None:  # unset and no default: the field's own
                values[name] = value
    return cls(**values)


def _field_value(path: str, env: Mapping[str, str], settings: Settings) -> Any:
    """An ``EnvVar`` when the variable is set: resolved in the run, shown by name in the UI
    (never a secret's value). Otherwise the value ``Settings`` gives."""
    value = attrgetter(path)(settings)
    name = ENV_VARS[path]
    if env.get(name) and not isinstance(value, float):  # EnvVar has no float form: read at load
        return dg.EnvVar.int(name) if isinstance(value, int) else dg.EnvVar(name)
    return str(value) if isinstance(value, Path) else value
