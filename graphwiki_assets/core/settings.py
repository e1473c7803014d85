"""Settings read from the environment, explicitly and only when asked for.

Nothing here runs at import time: callers build a ``Settings`` with
``Settings.from_env()`` (or pass their own mapping in tests), so two instances with
different homes and ports can live in one process.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

DEFAULT_HOME = "data"
DEFAULT_BOLT_PORT = 7687
DEFAULT_USERNAME = "neo4j"
DEFAULT_PASSWORD = "graphwiki-local"
DEFAULT_DATABASE = "neo4j"
DEFAULT_LLM_MODEL = "gpt-4o-mini"
DEFAULT_LLM_TIMEOUT_S = 60.0
DEFAULT_LLM_MAX_RETRIES = 4
DEFAULT_LLM_CONCURRENCY = 8
DEFAULT_EMBEDDING_MODEL = "all-MiniLM-L6-v2"
DEFAULT_INGEST_BATCH = 32
DEFAULT_MAX_SOURCE_BYTES = 10 * 1024 * 1024
DEFAULT_MAX_CALLS_PER_SOURCE = 400

# The environment variable each setting is read from, by its place in ``Settings``. The CLI
# reads them through ``Settings.from_env``; the Dagster resources name them (``EnvVar``).
ENV_VARS = {
    "home": "GRAPHWIKI_HOME",
    "sources_dir": "GRAPHWIKI_SOURCES_DIR",
    "cache_dir": "GRAPHWIKI_CACHE_DIR",
    "neo4j.uri": "NEO4J_URI",
    "neo4j.username": "NEO4J_USERNAME",
    "neo4j.password": "NEO4J_PASSWORD",
    "neo4j.database": "NEO4J_DATABASE",
    "server.bolt_port": "GRAPHWIKI_NEO4J_BOLT_PORT",
    "server.heap": "GRAPHWIKI_NEO4J_HEAP",
    "server.pagecache": "GRAPHWIKI_NEO4J_PAGECACHE",
    "llm.api_key": "OPENAI_API_KEY",
    "llm.base_url": "OPENAI_BASE_URL",
    "llm.model": "GRAPHWIKI_LLM_MODEL",
    "llm.timeout_s": "GRAPHWIKI_LLM_TIMEOUT",
    "llm.max_retries": "GRAPHWIKI_LLM_MAX_RETRIES",
    "llm.concurrency": "GRAPHWIKI_LLM_CONCURRENCY",
    "embedding_model": "GRAPHWIKI_EMBEDDING_MODEL",
    "ingest_batch": "GRAPHWIKI_INGEST_BATCH",
    "max_source_bytes": "GRAPHWIKI_MAX_SOURCE_BYTES",
    "max_calls_per_source": "GRAPHWIKI_MAX_CALLS_PER_SOURCE",
    "config_path": "GRAPHWIKI_CONFIG",
}


def user_cache_dir() -> Path:
    """Where graphwiki keeps what it builds once per user and reuses across projects (the
    Neo4j distribution, the exported embedding model): ``$XDG_CACHE_HOME/graphwiki``."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "graphwiki"


def _positive(env: Mapping[str, str], name: str, default: int) -> int:
    value = env.get(name)
    if not value:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ValueError(f"{name} must be a whole number, not {value!r}") from None
    if number < 1:
        raise ValueError(f"{name} must be at least 1, not {number}")
    return number


@dataclass(frozen=True)
class Neo4jSettings:
    uri: str
    username: str
    password: str = field(repr=False)
    database: str = DEFAULT_DATABASE


@dataclass(frozen=True)
class ServerSettings:
    """How the local launcher runs its own Neo4j instance."""

    home: Path
    bolt_port: int
    password: str = field(repr=False)
    heap: str = "1g"
    pagecache: str = "512m"


@dataclass(frozen=True)
class LLMSettings:
    api_key: str | None = field(default=None, repr=False)
    base_url: str | None = None
    model: str = DEFAULT_LLM_MODEL
    timeout_s: float = DEFAULT_LLM_TIMEOUT_S
    max_retries: int = DEFAULT_LLM_MAX_RETRIES
    concurrency: int = DEFAULT_LLM_CONCURRENCY  # independent calls in flight at once

    @property
    def offline(self) -> bool:
        """No key and no endpoint: use the deterministic offline backend."""
        return not self.api_key and not self.base_url


@dataclass(frozen=True)
class Settings:
    home: Path
    sources_dir: Path
    cache_dir: Path
    neo4j: Neo4jSettings
    server: ServerSettings
    llm: LLMSettings
    embedding_model: str = DEFAULT_EMBEDDING_MODEL
    ingest_batch: int = DEFAULT_INGEST_BATCH  # sources per ingest batch
    max_source_bytes: int = DEFAULT_MAX_SOURCE_BYTES  # larger source files are refused
    max_calls_per_source: int = DEFAULT_MAX_CALLS_PER_SOURCE  # extraction calls one source may spend
    config_path: Path | None = None  # the schema config (GRAPHWIKI_CONFIG); None: looked for, else the preset

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        var = ENV_VARS
        home = Path(env.get(var["home"], DEFAULT_HOME)).expanduser().resolve()
        port = int(env.get(var["server.bolt_port"], DEFAULT_BOLT_PORT))
        password = env.get(var["neo4j.password"]) or DEFAULT_PASSWORD
        config = env.get(var["config_path"])
        return cls(
            home=home,
            sources_dir=Path(env.get(var["sources_dir"], home / "sources")).expanduser().resolve(),
            cache_dir=Path(env.get(var["cache_dir"], home / "llm-cache")).expanduser().resolve(),
            neo4j=Neo4jSettings(
                uri=env.get(var["neo4j.uri"]) or f"bolt://127.0.0.1:{port}",
                username=env.get(var["neo4j.username"]) or DEFAULT_USERNAME,
                password=password,
                database=env.get(var["neo4j.database"]) or DEFAULT_DATABASE,
            ),
            server=ServerSettings(
                home=home / "neo4j",
                bolt_port=port,
                password=password,
                heap=env.get(var["server.heap"], "1g"),
                pagecache=env.get(var["server.pagecache"], "512m"),
            ),
            llm=LLMSettings(
                api_key=env.get(var["llm.api_key"]) or None,
                base_url=env.get(var["llm.base_url"]) or None,
                model=env.get(var["llm.model"]) or DEFAULT_LLM_MODEL,
                timeout_s=float(env.get(var["llm.timeout_s"], DEFAULT_LLM_TIMEOUT_S)),
                max_retries=int(env.get(var["llm.max_retries"], DEFAULT_LLM_MAX_RETRIES)),
                concurrency=_positive(env, var["llm.concurrency"], DEFAULT_LLM_CONCURRENCY),
            ),
            embedding_model=env.get(var["embedding_model"]) or DEFAULT_EMBEDDING_MODEL,
            ingest_batch=_positive(env, var["ingest_batch"], DEFAULT_INGEST_BATCH),
            max_source_bytes=_positive(env, var["max_source_bytes"], DEFAULT_MAX_SOURCE_BYTES),
            max_calls_per_source=_positive(env, var["max_calls_per_source"], DEFAULT_MAX_CALLS_PER_SOURCE),
            config_path=Path(config).expanduser().resolve() if config else None,
        )

    def with_instance(self, home: Path, bolt_port: int) -> Settings:
        """A copy pointing at another launcher instance (tests and evals use their own)."""
        home = Path(home).resolve()
        return replace(
            self,
            home=home,
            sources_dir=home / "sources",
            cache_dir=home / "llm-cache",
            neo4j=replace(self.neo4j, uri=f"bolt://127.0.0.1:{bolt_port}"),
            server=replace(self.server, home=home / "neo4j", bolt_port=bolt_port),
        )
