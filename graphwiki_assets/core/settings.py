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

DEFAULT_BOLT_PORT = 7687
DEFAULT_PASSWORD = "graphwiki-local"
DEFAULT_LLM_MODEL = "gpt-4o-mini"
DEFAULT_EMBEDDING_MODEL = "all-MiniLM-L6-v2"
DEFAULT_INGEST_BATCH = 32
DEFAULT_MAX_SOURCE_BYTES = 10 * 1024 * 1024
DEFAULT_MAX_CALLS_PER_SOURCE = 400


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
    database: str = "neo4j"


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
    timeout_s: float = 60.0
    max_retries: int = 4
    concurrency: int = 8  # independent calls in flight at once (GRAPHWIKI_LLM_CONCURRENCY)

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
    def from_env(cls, env: Mapping[str, str] | None = None) -> "Settings":
        env = os.environ if env is None else env
        home = Path(env.get("GRAPHWIKI_HOME", "data")).expanduser().resolve()
        port = int(env.get("GRAPHWIKI_NEO4J_BOLT_PORT", DEFAULT_BOLT_PORT))
        password = env.get("NEO4J_PASSWORD") or DEFAULT_PASSWORD
        return cls(
            home=home,
            sources_dir=Path(env.get("GRAPHWIKI_SOURCES_DIR", home / "sources")).expanduser().resolve(),
            cache_dir=Path(env.get("GRAPHWIKI_CACHE_DIR", home / "llm-cache")).expanduser().resolve(),
            neo4j=Neo4jSettings(
                uri=env.get("NEO4J_URI") or f"bolt://127.0.0.1:{port}",
                username=env.get("NEO4J_USERNAME") or "neo4j",
                password=password,
                database=env.get("NEO4J_DATABASE") or "neo4j",
            ),
            server=ServerSettings(
                home=home / "neo4j",
                bolt_port=port,
                password=password,
                heap=env.get("GRAPHWIKI_NEO4J_HEAP", "1g"),
                pagecache=env.get("GRAPHWIKI_NEO4J_PAGECACHE", "512m"),
            ),
            llm=LLMSettings(
                api_key=env.get("OPENAI_API_KEY") or None,
                base_url=env.get("OPENAI_BASE_URL") or None,
                model=env.get("GRAPHWIKI_LLM_MODEL") or DEFAULT_LLM_MODEL,
                timeout_s=float(env.get("GRAPHWIKI_LLM_TIMEOUT", 60)),
                max_retries=int(env.get("GRAPHWIKI_LLM_MAX_RETRIES", 4)),
                concurrency=_positive(env, "GRAPHWIKI_LLM_CONCURRENCY", 8),
            ),
            embedding_model=env.get("GRAPHWIKI_EMBEDDING_MODEL") or DEFAULT_EMBEDDING_MODEL,
            ingest_batch=_positive(env, "GRAPHWIKI_INGEST_BATCH", DEFAULT_INGEST_BATCH),
            max_source_bytes=_positive(env, "GRAPHWIKI_MAX_SOURCE_BYTES", DEFAULT_MAX_SOURCE_BYTES),
            max_calls_per_source=_positive(env, "GRAPHWIKI_MAX_CALLS_PER_SOURCE", DEFAULT_MAX_CALLS_PER_SOURCE),
            config_path=Path(env["GRAPHWIKI_CONFIG"]).expanduser().resolve() if env.get("GRAPHWIKI_CONFIG") else None,
        )

    def with_instance(self, home: Path, bolt_port: int) -> "Settings":
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
