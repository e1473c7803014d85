"""Dagster resources: thin, configurable wrappers that hand the domain core its clients.

Every field is a setting declared in ``core/settings.py``: its default, its description and
the environment variable it is read from come from that one declaration, and the way back
to the core's settings is the same for every field (``setting_values``). A resource opens
clients per use (no driver is shared between runs).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from operator import attrgetter
from pathlib import Path
from typing import Any

import dagster as dg
from pydantic import Field

from graphwiki_assets.core.config import LoadedConfig, load_config
from graphwiki_assets.core.setting_fields import WHAT, default_of, described, with_values
from graphwiki_assets.core.settings import (
    DEFAULT_HOME,
    ENV_VARS,
    EmbeddingsServiceSettings,
    LLMSettings,
    Neo4jSettings,
    Settings,
)
from graphwiki_assets.core.store.driver import GraphStore

SETTING = "setting"  # a field's place in Settings, kept in its JSON schema extras
_UNSET: Any = object()


def setting(path: str, default: Any = _UNSET) -> Any:
    """A field holding the setting at ``path`` of ``Settings``: its default and description
    are the declaration's (``core/settings.py``), the description naming the variable."""
    declaration = described(Settings, path)
    if default is _UNSET:
        default = default_of(declaration)
    if isinstance(default, Path):
        default = str(default)
    what = declaration.metadata[WHAT]
    return Field(default=default, description=f"{what} ({ENV_VARS[path]})", json_schema_extra={SETTING: path})


def _setting_fields(cls: type[dg.ConfigurableResource]) -> Iterator[tuple[str, str]]:
    """Each field of ``cls`` that holds a setting, with the setting's place in ``Settings``."""
    for name, field in cls.model_fields.items():
        extra = field.json_schema_extra
        if isinstance(extra, dict) and SETTING in extra:
            yield name, str(extra[SETTING])


def setting_values(*resources: dg.ConfigurableResource) -> dict[str, Any]:
    """Each field's value by the place of its setting in ``Settings``."""
    return {path: getattr(r, name) for r in resources for name, path in _setting_fields(type(r))}


def _section(resource: dg.ConfigurableResource, section: str, defaults: Any) -> Any:
    """The settings of one section (``llm``) that ``resource`` holds, over ``defaults``."""
    prefix = f"{section}."
    inner = {path[len(prefix) :]: v for path, v in setting_values(resource).items() if path.startswith(prefix)}
    return with_values(defaults, inner)


class Neo4jResource(dg.ConfigurableResource):
    """The graph. Defaults to the local launcher's instance (`graphwiki neo4j start`)."""

    uri: str = setting("neo4j.uri")
    username: str = setting("neo4j.username")
    password: str = setting("neo4j.password")
    database: str = setting("neo4j.database")
    retry_s: float = setting("neo4j.retry_s")
    question_wait_s: float = setting("neo4j.question_wait_s")
    connect_s: float = setting("neo4j.connect_s")

    def settings(self) -> Neo4jSettings:
        return _section(self, "neo4j", Neo4jSettings())

    @contextmanager
    def open(self) -> Iterator[GraphStore]:
        with GraphStore(self.settings()) as store:
            yield store


class EmbeddingResource(dg.ConfigurableResource):
    """A sentence-transformers model by name or path; with a base URL, an OpenAI-compatible
    embeddings service instead."""

    model: str = setting("embedding_model")
    base_url: str | None = setting("embeddings.base_url")
    api_key: str | None = setting("embeddings.api_key")
    service_model: str = setting("embeddings.model")
    batch: int = setting("embeddings.batch")
    concurrency: int = setting("embeddings.concurrency")

    def service(self) -> EmbeddingsServiceSettings:
        return _section(self, "embeddings", EmbeddingsServiceSettings())

    def embedder(self):
        from graphwiki_assets.core.encoders import encoder_for

        return encoder_for(self.service(), self.model, lazy=False)

    def lazy_embedder(self):
        """The same embedder, its local model loaded on first use."""
        from graphwiki_assets.core.encoders import encoder_for

        return encoder_for(self.service(), self.model)


class LLMResource(dg.ConfigurableResource):
    """Any OpenAI-compatible endpoint; with no key and no base URL, the offline backend."""

    api_key: str | None = setting("llm.api_key")
    base_url: str | None = setting("llm.base_url")
    model: str = setting("llm.model")
    timeout_s: float = setting("llm.timeout_s")
    max_retries: int = setting("llm.max_retries")
    concurrency: int = setting("llm.concurrency")
    context_tokens: int | None = setting("llm.context_tokens")
    max_items_per_call: int | None = setting("llm.max_items_per_call")
    max_documents_per_call: int | None = setting("llm.max_documents_per_call")
    verdicts: str = setting("llm.verdicts")
    cache_dir: str | None = setting("cache_dir", None)  # none: no cache

    def settings(self) -> LLMSettings:
        return _section(self, "llm", LLMSettings())

    def label(self) -> str:
        """Which backend runs will use (for run tags): the offline rules' label or the model."""
        from graphwiki_assets.core.llm.client import backend_label

        return backend_label(self.settings())

    def client(self):
        from graphwiki_assets.core.llm.client import build_llm

        return build_llm(self.settings(), Path(self.cache_dir) if self.cache_dir else None)


class GraphwikiConfig(dg.ConfigurableResource):
    """Where sources are read from and where local state lives; the ingest's limits."""

    home: str = setting("home", DEFAULT_HOME)
    sources_dir: str = setting("sources_dir", f"{DEFAULT_HOME}/sources")
    ingest_batch: int = setting("ingest_batch")
    ingest_workers: int = setting("ingest_workers")
    ingest_draft: str = setting("ingest_draft")
    max_source_bytes: int = setting("max_source_bytes")
    max_calls_per_source: int = setting("max_calls_per_source")
    schema_config: str = setting("config_path", "")

    def load_schema(self) -> LoadedConfig:
        """The schema config, read and validated now (a bad file fails the step before any write)."""
        return load_config(Path(self.schema_config) if self.schema_config else None, Path(self.home).resolve())

    def settings(self, neo4j: Neo4jResource, embeddings: EmbeddingResource, llm: LLMResource) -> Settings:
        """The CLI's ``Settings``, made of these resources' values."""
        base = Settings.from_env({ENV_VARS["home"]: self.home, ENV_VARS["sources_dir"]: self.sources_dir})
        return with_values(base, setting_values(self, neo4j, embeddings, llm))


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
    for name, path in _setting_fields(cls):
        value = _field_value(path, env, settings)
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
