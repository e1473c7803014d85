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
# An embeddings service (GRAPHWIKI_EMBEDDINGS_BASE_URL): texts per request, requests in flight.
DEFAULT_EMBEDDINGS_BATCH = 64
DEFAULT_EMBEDDINGS_CONCURRENCY = 4
DEFAULT_MAX_SOURCE_BYTES = 10 * 1024 * 1024
DEFAULT_MAX_CALLS_PER_SOURCE = 400
# The local llama.cpp server (`graphwiki llm start`, GRAPHWIKI_LLM=local): a CPU answers one
# call at a time at a few to a few dozen tokens a second, so calls are few, small and patient.
DEFAULT_LOCAL_PORT = 8089
DEFAULT_LOCAL_CONTEXT = 8192
DEFAULT_LOCAL_TIMEOUT_S = 900.0
DEFAULT_LOCAL_CONCURRENCY = 1
DEFAULT_LOCAL_ITEMS_PER_CALL = 8
# Given several short documents in one call, the 1.5B model named one concept of each (the
# title); given one, it named all it saw (README, "Local model").
DEFAULT_LOCAL_DOCUMENTS_PER_CALL = 1
VERDICT_MODES = ("reasoned", "scored")

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
    "llm.context_tokens": "GRAPHWIKI_LLM_CONTEXT",
    "llm.max_items_per_call": "GRAPHWIKI_LLM_MAX_PAIRS_PER_CALL",
    "llm.verdicts": "GRAPHWIKI_LLM_VERDICTS",
    "llm.max_documents_per_call": "GRAPHWIKI_LLM_MAX_DOCS_PER_CALL",
    "local_llm.enabled": "GRAPHWIKI_LLM",
    "local_llm.port": "GRAPHWIKI_LLM_PORT",
    "local_llm.model": "GRAPHWIKI_LLM_LOCAL_MODEL",
    "local_llm.model_path": "GRAPHWIKI_LLM_MODEL_PATH",
    "local_llm.models_dir": "GRAPHWIKI_LLM_MODELS_DIR",
    "local_llm.threads": "GRAPHWIKI_LLM_THREADS",
    "embedding_model": "GRAPHWIKI_EMBEDDING_MODEL",
    "embeddings.base_url": "GRAPHWIKI_EMBEDDINGS_BASE_URL",
    "embeddings.api_key": "GRAPHWIKI_EMBEDDINGS_API_KEY",
    "embeddings.model": "GRAPHWIKI_EMBEDDINGS_MODEL",
    "embeddings.batch": "GRAPHWIKI_EMBEDDINGS_BATCH",
    "embeddings.concurrency": "GRAPHWIKI_EMBEDDINGS_CONCURRENCY",
    "ingest_batch": "GRAPHWIKI_INGEST_BATCH",
    "ingest_workers": "GRAPHWIKI_INGEST_WORKERS",
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
    # The model's context window in tokens, when known (set, or read from the server): batched
    # calls are packed to fit it. None: the model's window is taken to hold any call.
    context_tokens: int | None = None
    max_items_per_call: int | None = None  # pairs (or documents, concepts) per batched call; None: the task's own
    # How judge, conflict and support verdicts are asked (core/llm/scored.py): "reasoned" (a
    # reason, then the verdict, several items a call) or "scored" (one item a call, the verdict
    # read from the token probabilities of a one-word reply).
    verdicts: str = "reasoned"
    # Documents (sections, chunks) one extraction call may carry; None: as many as fit its size.
    max_documents_per_call: int | None = None

    @property
    def offline(self) -> bool:
        """No key and no endpoint: use the deterministic offline backend."""
        return not self.api_key and not self.base_url


@dataclass(frozen=True)
class EmbeddingsServiceSettings:
    """An OpenAI-compatible ``/v1/embeddings`` endpoint; with no base URL, the local model."""

    base_url: str | None = None
    api_key: str | None = field(default=None, repr=False)
    model: str = DEFAULT_EMBEDDING_MODEL
    batch: int = DEFAULT_EMBEDDINGS_BATCH  # texts per request
    concurrency: int = DEFAULT_EMBEDDINGS_CONCURRENCY  # requests in flight at once
    timeout_s: float = DEFAULT_LLM_TIMEOUT_S  # per request; an embedding request is short
    max_retries: int = DEFAULT_LLM_MAX_RETRIES  # of 429, 5xx, timeouts, as the LLM path

    @property
    def enabled(self) -> bool:
        return bool(self.base_url)


def _embeddings(env: Mapping[str, str], local_model: str) -> EmbeddingsServiceSettings:
    """The service's settings; its model defaults to the local model's name, so a server
    running the same model continues a graph the local model began."""
    var = ENV_VARS
    return EmbeddingsServiceSettings(
        base_url=env.get(var["embeddings.base_url"]) or None,
        api_key=env.get(var["embeddings.api_key"]) or None,
        model=env.get(var["embeddings.model"]) or local_model,
        batch=_positive(env, var["embeddings.batch"], DEFAULT_EMBEDDINGS_BATCH),
        concurrency=_positive(env, var["embeddings.concurrency"], DEFAULT_EMBEDDINGS_CONCURRENCY),
    )


@dataclass(frozen=True)
class LocalLLMSettings:
    """The llama.cpp server `graphwiki llm start` runs; with ``enabled`` every command uses it."""

    enabled: bool = False  # GRAPHWIKI_LLM=local
    home: Path = Path(DEFAULT_HOME) / "llm"  # pid file and logs
    port: int = DEFAULT_LOCAL_PORT
    model: str = "qwen2.5-coder-1.5b"  # a pinned model's key (core/llm_server/models.py)
    model_path: Path | None = None  # any other GGUF file, served instead of the pinned model
    models_dir: Path = field(default_factory=lambda: user_cache_dir() / "models")
    context_tokens: int = DEFAULT_LOCAL_CONTEXT
    threads: int = field(default_factory=lambda: default_local_threads())

    @property
    def alias(self) -> str:
        """The model name the server answers to."""
        return self.model_path.stem if self.model_path else self.model

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"


def default_local_threads() -> int:
    """Half the cores. Writing tokens is bound by memory bandwidth, so on two cores one
    thread wrote as fast as two (5 tokens/s); but while Neo4j, the embedder or an eval used
    the other core, two threads waiting on each other fell to 1-2 tokens/s, one kept 4-6."""
    return max(1, (os.cpu_count() or 1) // 2)


def _local_llm(env: Mapping[str, str], home: Path) -> LocalLLMSettings:
    var = ENV_VARS
    mode = (env.get(var["local_llm.enabled"]) or "").strip().lower()
    if mode not in ("", "local"):
        raise ValueError(f"GRAPHWIKI_LLM must be 'local' (the llama.cpp server) or unset, not {mode!r}")
    path = env.get(var["local_llm.model_path"])
    models_dir = env.get(var["local_llm.models_dir"])
    return LocalLLMSettings(
        enabled=mode == "local",
        home=home / "llm",
        port=_positive(env, var["local_llm.port"], DEFAULT_LOCAL_PORT),
        model=env.get(var["local_llm.model"]) or LocalLLMSettings.model,
        model_path=Path(path).expanduser().resolve() if path else None,
        models_dir=Path(models_dir).expanduser().resolve() if models_dir else user_cache_dir() / "models",
        context_tokens=_positive(env, var["llm.context_tokens"], DEFAULT_LOCAL_CONTEXT),
        threads=_positive(env, var["local_llm.threads"], default_local_threads()),
    )


def _llm(env: Mapping[str, str], local: LocalLLMSettings) -> LLMSettings:
    """The client's settings; with GRAPHWIKI_LLM=local, the local server's endpoint and sizes
    (a variable that is set still wins, e.g. a longer timeout)."""
    var = ENV_VARS
    context = env.get(var["llm.context_tokens"])
    items = env.get(var["llm.max_items_per_call"])
    base_url: str | None = None
    api_key: str | None = None
    model, timeout, concurrency = DEFAULT_LLM_MODEL, DEFAULT_LLM_TIMEOUT_S, DEFAULT_LLM_CONCURRENCY
    limit: int | None = None
    documents: int | None = None
    verdicts = "reasoned"
    if local.enabled:  # any key does for a server on 127.0.0.1
        base_url, api_key, model = local.base_url, "local", local.alias
        timeout, concurrency, limit = DEFAULT_LOCAL_TIMEOUT_S, DEFAULT_LOCAL_CONCURRENCY, DEFAULT_LOCAL_ITEMS_PER_CALL
        verdicts = "scored"  # a small model's reasons talk it into yes (README, "Local model")
        documents = DEFAULT_LOCAL_DOCUMENTS_PER_CALL
    per_call = env.get(var["llm.max_documents_per_call"])
    verdicts = (env.get(var["llm.verdicts"]) or verdicts).strip().lower()
    if verdicts not in VERDICT_MODES:
        raise ValueError(f"{var['llm.verdicts']} must be one of {', '.join(VERDICT_MODES)}, not {verdicts!r}")
    return LLMSettings(
        api_key=env.get(var["llm.api_key"]) or api_key,
        base_url=env.get(var["llm.base_url"]) or base_url,
        model=env.get(var["llm.model"]) or model,
        timeout_s=float(env.get(var["llm.timeout_s"]) or timeout),
        max_retries=int(env.get(var["llm.max_retries"], DEFAULT_LLM_MAX_RETRIES)),
        concurrency=_positive(env, var["llm.concurrency"], concurrency),
        context_tokens=_positive(env, var["llm.context_tokens"], 1) if context else None,
        max_items_per_call=_positive(env, var["llm.max_items_per_call"], 1) if items else limit,
        verdicts=verdicts,
        max_documents_per_call=_positive(env, var["llm.max_documents_per_call"], 1) if per_call else documents,
    )


@dataclass(frozen=True)
class Settings:
    home: Path
    sources_dir: Path
    cache_dir: Path
    neo4j: Neo4jSettings
    server: ServerSettings
    llm: LLMSettings
    local_llm: LocalLLMSettings = field(default_factory=LocalLLMSettings)
    embedding_model: str = DEFAULT_EMBEDDING_MODEL
    embeddings: EmbeddingsServiceSettings = field(default_factory=EmbeddingsServiceSettings)
    ingest_batch: int = DEFAULT_INGEST_BATCH  # sources per ingest batch
    ingest_workers: int = 1  # processes preparing batches side by side (core/ingest/workers.py)
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
        local = _local_llm(env, home)
        embedding_model = env.get(var["embedding_model"]) or DEFAULT_EMBEDDING_MODEL
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
            llm=_llm(env, local),
            local_llm=local,
            embedding_model=embedding_model,
            embeddings=_embeddings(env, embedding_model),
            ingest_batch=_positive(env, var["ingest_batch"], DEFAULT_INGEST_BATCH),
            ingest_workers=_positive(env, var["ingest_workers"], 1),
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
