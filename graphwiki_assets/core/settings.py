"""Settings read from the environment, explicitly and only when asked for.

Each setting is declared once, as a field that names its variable and says what it is
(``core/setting_fields.py``); the CLI reads them with ``Settings.from_env()`` and the Dagster
resources take their defaults and descriptions from the same declarations. Nothing reads the
environment at import time: two instances with different homes and ports can live in one
process.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from graphwiki_assets.core.setting_fields import declared, env_vars, read

DEFAULT_HOME = "data"
DEFAULT_BOLT_PORT = 7687
DEFAULT_USERNAME = "neo4j"
DEFAULT_PASSWORD = "graphwiki-local"
DEFAULT_DATABASE = "neo4j"
# The driver's own default: how long a transaction is retried while the server is away.
DEFAULT_NEO4J_RETRY_S = 30.0
# A question is read by someone waiting: a restarting graph is waited out this long, then the
# question is refused (503) rather than held. A connection attempt is given as long.
DEFAULT_NEO4J_QUESTION_WAIT_S = 3.0
DEFAULT_NEO4J_CONNECT_S = 3.0
DEFAULT_LLM_MODEL = "gpt-4o-mini"
DEFAULT_LLM_TIMEOUT_S = 60.0
DEFAULT_LLM_MAX_RETRIES = 4
# a model server that restarts answers 503 "Loading model" until its weights are in memory
DEFAULT_LOAD_WAIT_S = 120.0
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


def user_cache_dir() -> Path:
    """Where graphwiki keeps what it builds once per user and reuses across projects (the
    Neo4j distribution, the exported embedding model): ``$XDG_CACHE_HOME/graphwiki``."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "graphwiki"


def _local_mode(name: str, value: str) -> bool:
    mode = value.strip().lower()
    if mode not in ("", "local"):
        raise ValueError(f"{name} must be 'local' (the llama.cpp server) or unset, not {mode!r}")
    return mode == "local"


def _verdicts(name: str, value: str) -> str:
    mode = value.strip().lower()
    if mode not in VERDICT_MODES:
        raise ValueError(f"{name} must be one of {', '.join(VERDICT_MODES)}, not {mode!r}")
    return mode


@dataclass(frozen=True)
class Neo4jSettings:
    uri: str = declared(f"bolt://127.0.0.1:{DEFAULT_BOLT_PORT}", env="NEO4J_URI", what="Bolt URI")
    username: str = declared(DEFAULT_USERNAME, env="NEO4J_USERNAME", what="user name")
    password: str = declared(DEFAULT_PASSWORD, env="NEO4J_PASSWORD", what="password", secret=True)
    database: str = declared(DEFAULT_DATABASE, env="NEO4J_DATABASE", what="the database within the server")
    retry_s: float = declared(
        DEFAULT_NEO4J_RETRY_S,
        env="GRAPHWIKI_NEO4J_RETRY_S",
        what="seconds a transaction is retried after the server went away, before the command fails",
    )
    question_wait_s: float = declared(
        DEFAULT_NEO4J_QUESTION_WAIT_S,
        env="GRAPHWIKI_NEO4J_QUESTION_WAIT_S",
        what="seconds a question may spend, over all its calls, on failed attempts and pauses before it is refused",
    )
    connect_s: float = declared(
        DEFAULT_NEO4J_CONNECT_S,
        env="GRAPHWIKI_NEO4J_CONNECT_S",
        what="seconds to open one connection to the server before it counts as unreachable",
    )


@dataclass(frozen=True)
class ServerSettings:
    """How the local launcher runs its own Neo4j instance."""

    home: Path = Path(DEFAULT_HOME) / "neo4j"
    bolt_port: int = declared(DEFAULT_BOLT_PORT, env="GRAPHWIKI_NEO4J_BOLT_PORT", what="the launcher's Bolt port")
    password: str = declared(DEFAULT_PASSWORD, env="NEO4J_PASSWORD", what="password", secret=True)
    heap: str = declared("1g", env="GRAPHWIKI_NEO4J_HEAP", what="the launcher's Java heap")
    pagecache: str = declared("512m", env="GRAPHWIKI_NEO4J_PAGECACHE", what="the launcher's page cache")


@dataclass(frozen=True)
class LLMSettings:
    api_key: str | None = declared(None, env="OPENAI_API_KEY", what="API key", secret=True)
    base_url: str | None = declared(None, env="OPENAI_BASE_URL", what="endpoint")
    model: str = declared(DEFAULT_LLM_MODEL, env="GRAPHWIKI_LLM_MODEL", what="model name")
    timeout_s: float = declared(DEFAULT_LLM_TIMEOUT_S, env="GRAPHWIKI_LLM_TIMEOUT", what="per-call timeout in seconds")
    max_retries: int = declared(
        DEFAULT_LLM_MAX_RETRIES, env="GRAPHWIKI_LLM_MAX_RETRIES", what="retries of 429, 5xx, timeouts", minimum=0
    )
    concurrency: int = declared(
        DEFAULT_LLM_CONCURRENCY, env="GRAPHWIKI_LLM_CONCURRENCY", what="calls in flight at once"
    )
    load_wait_s: float = declared(
        DEFAULT_LOAD_WAIT_S,
        env="GRAPHWIKI_LLM_LOAD_WAIT_S",
        what="seconds a call waits out a server that answers 503 while it loads its model",
    )
    # Batched calls are packed to fit the window; None: the model's window is taken to hold any call.
    context_tokens: int | None = declared(
        None, env="GRAPHWIKI_LLM_CONTEXT", what="the model's context window; none: asked of a local server"
    )
    max_items_per_call: int | None = declared(
        None, env="GRAPHWIKI_LLM_MAX_PAIRS_PER_CALL", what="pairs per batched call; none: each task's own"
    )
    # core/llm/scored.py: "reasoned" (a reason, then the verdict, several items a call) or
    # "scored" (one item a call, the verdict read from the token probabilities of a one-word reply).
    verdicts: str = declared(
        "reasoned",
        env="GRAPHWIKI_LLM_VERDICTS",
        what="judge, conflict and support verdicts: reasoned, or scored from token probabilities",
        parse=_verdicts,
    )
    max_documents_per_call: int | None = declared(
        None, env="GRAPHWIKI_LLM_MAX_DOCS_PER_CALL", what="documents per extraction call; none: as many as fit"
    )
    # The offline backend's English pipeline (core/nlp/model.py): en_core_web_sm or en_core_web_md.
    nlp_model: str = declared(
        "en_core_web_md", env="GRAPHWIKI_NLP_MODEL", what="the offline extractor's spaCy pipeline (a pinned key)"
    )
    # An inference model beside the offline contradiction rules (core/nli), once `graphwiki nli
    # prepare` has built it. Off by default: on the tune half of the labelled pairs it catches
    # more than the rules alone but calls 30 % of compatible pairs contradictions (README, Evals).
    nli_model: str = declared(
        "none",
        env="GRAPHWIKI_NLI_MODEL",
        what="an NLI model beside the offline contradiction rules (minilm-l6-nli), or none",
    )

    @property
    def offline(self) -> bool:
        """No key and no endpoint: use the deterministic offline backend."""
        return not self.api_key and not self.base_url


@dataclass(frozen=True)
class EmbeddingsServiceSettings:
    """An OpenAI-compatible ``/v1/embeddings`` endpoint; with no base URL, the local model."""

    base_url: str | None = declared(
        None, env="GRAPHWIKI_EMBEDDINGS_BASE_URL", what="embeddings service; none: the local model"
    )
    api_key: str | None = declared(
        None, env="GRAPHWIKI_EMBEDDINGS_API_KEY", what="the embeddings service's API key", secret=True
    )
    # Defaults to the local model's name, so a server running that model continues its graph.
    model: str = declared(DEFAULT_EMBEDDING_MODEL, env="GRAPHWIKI_EMBEDDINGS_MODEL", what="the model the service runs")
    batch: int = declared(
        DEFAULT_EMBEDDINGS_BATCH, env="GRAPHWIKI_EMBEDDINGS_BATCH", what="texts per request to the service"
    )
    concurrency: int = declared(
        DEFAULT_EMBEDDINGS_CONCURRENCY, env="GRAPHWIKI_EMBEDDINGS_CONCURRENCY", what="requests in flight"
    )
    timeout_s: float = DEFAULT_LLM_TIMEOUT_S  # per request; an embedding request is short
    max_retries: int = DEFAULT_LLM_MAX_RETRIES  # of 429, 5xx, timeouts, as the LLM path
    load_wait_s: float = DEFAULT_LOAD_WAIT_S  # a server loading its model, as the LLM path

    @property
    def enabled(self) -> bool:
        return bool(self.base_url)


def default_local_threads() -> int:
    """Half the cores. Writing tokens is bound by memory bandwidth, so on two cores one
    thread wrote as fast as two (5 tokens/s); but while Neo4j, the embedder or an eval used
    the other core, two threads waiting on each other fell to 1-2 tokens/s, one kept 4-6."""
    return max(1, (os.cpu_count() or 1) // 2)


@dataclass(frozen=True)
class LocalLLMSettings:
    """The llama.cpp server `graphwiki llm start` runs; with ``enabled`` every command uses it."""

    enabled: bool = declared(False, env="GRAPHWIKI_LLM", what="'local': the llama.cpp server", parse=_local_mode)
    home: Path = Path(DEFAULT_HOME) / "llm"  # pid file and logs
    port: int = declared(DEFAULT_LOCAL_PORT, env="GRAPHWIKI_LLM_PORT", what="the local server's port")
    model: str = declared(
        "qwen2.5-coder-1.5b", env="GRAPHWIKI_LLM_LOCAL_MODEL", what="a pinned model's key (core/llm_server/models.py)"
    )
    model_path: Path | None = declared(
        None, env="GRAPHWIKI_LLM_MODEL_PATH", what="any other GGUF file, served instead of the pinned model"
    )
    models_dir: Path = declared(
        env="GRAPHWIKI_LLM_MODELS_DIR", what="where pinned models are kept", factory=lambda: user_cache_dir() / "models"
    )
    context_tokens: int = declared(
        DEFAULT_LOCAL_CONTEXT, env="GRAPHWIKI_LLM_CONTEXT", what="the server's context window"
    )
    threads: int = declared(env="GRAPHWIKI_LLM_THREADS", what="the server's threads", factory=default_local_threads)

    @property
    def alias(self) -> str:
        """The model name the server answers to."""
        return self.model_path.stem if self.model_path else self.model

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"


def _local_defaults(local: LocalLLMSettings) -> LLMSettings:
    """The client's defaults with GRAPHWIKI_LLM=local: the local server's endpoint and sizes
    (a variable that is set still wins, e.g. a longer timeout). Any key does on 127.0.0.1."""
    return LLMSettings(
        api_key="local",
        base_url=local.base_url,
        model=local.alias,
        timeout_s=DEFAULT_LOCAL_TIMEOUT_S,
        concurrency=DEFAULT_LOCAL_CONCURRENCY,
        max_items_per_call=DEFAULT_LOCAL_ITEMS_PER_CALL,
        verdicts="scored",  # a small model's reasons talk it into yes (README, "Local model")
        max_documents_per_call=DEFAULT_LOCAL_DOCUMENTS_PER_CALL,
    )


def _draft_mode(name: str, value: str) -> str:
    mode = value.strip().lower()
    if mode not in ("auto", "on", "ahead", "off"):
        raise ValueError(f"{name} must be auto, on, ahead or off, not {value!r}")
    return mode


@dataclass(frozen=True)
class Settings:
    # Relative defaults resolve when a Settings is made, against the directory of that moment.
    home: Path = declared(env="GRAPHWIKI_HOME", what="local state", factory=lambda: Path(DEFAULT_HOME).resolve())
    sources_dir: Path = declared(
        env="GRAPHWIKI_SOURCES_DIR",
        what="the folder the sensor watches",
        factory=lambda: Path(DEFAULT_HOME, "sources").resolve(),
    )
    cache_dir: Path = declared(
        env="GRAPHWIKI_CACHE_DIR",
        what="request/response cache; none: no cache",
        factory=lambda: Path(DEFAULT_HOME, "llm-cache").resolve(),
    )
    neo4j: Neo4jSettings = field(default_factory=Neo4jSettings)
    server: ServerSettings = field(default_factory=ServerSettings)
    llm: LLMSettings = field(default_factory=LLMSettings)
    local_llm: LocalLLMSettings = field(default_factory=LocalLLMSettings)
    embedding_model: str = declared(DEFAULT_EMBEDDING_MODEL, env="GRAPHWIKI_EMBEDDING_MODEL", what="model name or path")
    embeddings: EmbeddingsServiceSettings = field(default_factory=EmbeddingsServiceSettings)
    ingest_batch: int = declared(DEFAULT_INGEST_BATCH, env="GRAPHWIKI_INGEST_BATCH", what="sources per ingest batch")
    # processes preparing batches side by side (core/ingest/workers.py)
    ingest_workers: int = declared(
        1, env="GRAPHWIKI_INGEST_WORKERS", what="extraction steps a sensor's run runs side by side"
    )
    # a batch's model calls asked before the lease, against the graph as it stands (core/ingest/answered.py)
    ingest_draft: str = declared(
        "auto",
        env="GRAPHWIKI_INGEST_DRAFT",
        what="ask a batch's judge and conflict calls before the ingest lease: auto (when they go to a model server), on, ahead (workers draft before their turn), off",
        parse=_draft_mode,
    )
    max_source_bytes: int = declared(
        DEFAULT_MAX_SOURCE_BYTES, env="GRAPHWIKI_MAX_SOURCE_BYTES", what="larger source files are refused"
    )
    max_calls_per_source: int = declared(
        DEFAULT_MAX_CALLS_PER_SOURCE, env="GRAPHWIKI_MAX_CALLS_PER_SOURCE", what="extraction calls one source may spend"
    )
    # None: looked for ($GRAPHWIKI_HOME/graphwiki.yaml, ./graphwiki.yaml), else the preset
    config_path: Path | None = declared(
        None,
        env="GRAPHWIKI_CONFIG",
        what="the schema config file; empty: $GRAPHWIKI_HOME/graphwiki.yaml, ./graphwiki.yaml, else the general-text preset",
    )

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Every declared setting its variable sets; the rest default, some of them to values
        that follow from others (paths under the home, the launcher's port, the local model)."""
        env = os.environ if env is None else env
        home = read(cls, env, cls()).home
        server = read(ServerSettings, env, ServerSettings(home=home / "neo4j"))
        neo4j = read(Neo4jSettings, env, Neo4jSettings(uri=f"bolt://127.0.0.1:{server.bolt_port}"))
        local = read(LocalLLMSettings, env, LocalLLMSettings(home=home / "llm"))
        llm = read(LLMSettings, env, _local_defaults(local) if local.enabled else LLMSettings())
        top = read(cls, env, cls(home=home, sources_dir=home / "sources", cache_dir=home / "llm-cache"))
        embeddings = read(EmbeddingsServiceSettings, env, EmbeddingsServiceSettings(model=top.embedding_model))
        return replace(top, neo4j=neo4j, server=server, llm=llm, local_llm=local, embeddings=embeddings)

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


# The environment variable of each setting, by its place in ``Settings`` (``llm.timeout_s``):
# the CLI reads them through ``Settings.from_env``; the Dagster resources name them (``EnvVar``).
ENV_VARS = env_vars(Settings)
