"""One process's graph, models and LLM, opened once and shared by every request.

The neo4j driver and the embedders are safe to share between threads; what is not safe to
run twice at once is an ingest in this process, so ingests here take a lock (and, across
processes, the ingest lease as every writer does)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from graphwiki_assets.core.concepts import concept_card, search_concepts
from graphwiki_assets.core.config import load_config
from graphwiki_assets.core.embeddings import Encoder
from graphwiki_assets.core.encoders import build_encoder
from graphwiki_assets.core.llm.client import LLMClient, build_llm
from graphwiki_assets.core.service.answering import answer_as_data
from graphwiki_assets.core.service.job_records import JobRecords
from graphwiki_assets.core.service.jobs import JobQueue
from graphwiki_assets.core.service.requests import AddSource, AskRequest, BadRequest, NotFound
from graphwiki_assets.core.service.validation import validated
from graphwiki_assets.core.settings import Settings
from graphwiki_assets.core.store.driver import GraphStore, GraphUnavailable

JOB_STOP_SECONDS = 30.0  # how long closing waits for a running ingest to finish its batch


@dataclass
class Workspace:
    settings: Settings
    store: GraphStore
    embedder: Encoder
    llm: LLMClient
    _ingesting: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _jobs: JobQueue | None = field(default=None, repr=False)

    @classmethod
    def open(cls, settings: Settings | None = None, warm: bool = True) -> Workspace:
        settings = settings or Settings.from_env()
        store = GraphStore(settings.neo4j)
        workspace = cls(settings, store, build_encoder(settings), build_llm(settings.llm, settings.cache_dir))
        if warm:
            workspace.warm()
        return workspace

    def warm(self) -> None:
        """Load the models and reach the graph now, so the first request pays nothing extra:
        the encoder, and the English pipeline every ingest job reads with (the offline
        extractor, and the claim pairs read on the parse before any model is asked)."""
        from graphwiki_assets.core.nlp.model import load_pipeline

        self.embedder.encode(["graphwiki"])
        load_pipeline(self.settings.llm.nlp_model)
        self.store.query("RETURN 1 AS ok")

    def close(self) -> None:
        if self._jobs is not None:
            self._jobs.stop(JOB_STOP_SECONDS)
        self.store.close()

    @property
    def jobs(self) -> JobQueue:
        """This process's ingest jobs (HTTP's and MCP's alike), recorded under
        ``$GRAPHWIKI_HOME/jobs`` so that they outlive it. Started by the first submit or by
        the adapter that serves it; a start takes over the jobs an ended process left."""
        if self._jobs is None:
            self._jobs = JobQueue(
                lambda request, actor, progress: self.add_source(request, actor=actor, progress=progress),
                records=JobRecords(Path(self.settings.home) / "jobs"),
            )
        return self._jobs

    def health(self) -> dict:
        """Whether the graph answers now, the LLM backend, and whether the models are loaded
        (a question asked before they are pays for loading them)."""
        try:
            self.store.query("RETURN 1 AS ok")
            graph = {"reachable": True, "uri": self.settings.neo4j.uri}
        except GraphUnavailable as exc:
            graph = {"reachable": False, "uri": self.settings.neo4j.uri, "reason": str(exc)}
        return {
            "ok": graph["reachable"],
            "graph": graph,
            "backend": self.llm.label,
            "embedding_model": self.settings.embedding_model,
            "models_loaded": getattr(self.embedder, "is_loaded", True),
        }

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- reading -----------------------------------------------------------------------

    def ask(self, request: AskRequest | dict, actor: str = "api") -> dict:
        """An answer with its shape, technique, citations, claim statuses and flags."""
        req = validated(AskRequest, request)
        try:
            return answer_as_data(
                self.settings,
                self.store,
                self.embedder,
                self.llm,
                req.question,
                hops=req.hops,
                k=req.k,
                shape=req.shape,
                file=req.file,
                actor=actor,
            )
        except ValueError as exc:  # an option the query refuses before reading the graph
            raise BadRequest(str(exc)) from None

    def search(self, text: str, k: int = 10) -> list[dict]:
        if not 1 <= k <= 100:
            raise BadRequest("k must be between 1 and 100")
        try:
            return [hit.model_dump() for hit in search_concepts(self.store, self.embedder, text, k)]
        except ValueError as exc:
            raise BadRequest(str(exc)) from None

    def concept(self, key: str) -> dict:
        """A concept by id, name or alias, with its claims, related concepts, sources and flags."""
        card = concept_card(self.store, key)
        if card is None:
            raise NotFound(f"no concept is named or has the id {key!r}")
        return {**card.model_dump(), "flags": card.flags()}

    def overview(self) -> dict:
        from graphwiki_assets.core.overview import build_overview

        config = load_config(self.settings.config_path, self.settings.home).config
        view = build_overview(self.store, config)
        return {**view.as_dict(), "markdown": view.markdown()}

    def impact(self, source: str, depth: int | str | None = 1, flag: bool = False) -> dict:
        from graphwiki_assets.core.review.impact import UnknownSource, impact, parse_depth

        try:
            return impact(self.store, source, depth=parse_depth(depth), flag=flag).as_dict()
        except UnknownSource as exc:
            raise NotFound(str(exc)) from None
        except ValueError as exc:
            raise BadRequest(str(exc)) from None

    def log(self, since: datetime | None = None, action: str | None = None, limit: int = 100) -> list[dict]:
        from graphwiki_assets.core.audit import read_entries

        if not 1 <= limit <= 10_000:
            raise BadRequest("limit must be between 1 and 10000")
        try:
            return [e.as_dict() for e in read_entries(self.store, since=since, action=action, limit=limit)]
        except ValueError as exc:
            raise BadRequest(str(exc)) from None

    # -- writing -----------------------------------------------------------------------

    def source_path(self, request: AddSource) -> Path:
        return Path(self.settings.sources_dir) / request.name

    def add_source(
        self, request: AddSource | dict, actor: str = "api", progress: Callable[[str], None] = lambda msg: None
    ) -> dict:
        """Write the text under the sources folder and ingest that file like any other (the
        file stays: the graph's provenance points at it, and the next folder ingest sees
        it unchanged). Ingests of this process run one at a time; other writers wait for
        the ingest lease."""
        req = validated(AddSource, request)
        path = self.source_path(req)
        path.parent.mkdir(parents=True, exist_ok=True)
        with self._ingesting:
            path.write_text(req.text, encoding="utf-8")
            progress(f"written {path}")
            return self.ingest_paths([path], actor=actor, progress=progress)

    def ingest_paths(
        self, paths: list[Path], actor: str = "api", progress: Callable[[str], None] = lambda msg: None
    ) -> dict:
        from graphwiki_assets.core.ingest.pipeline import IngestConfig, Ingestor, ingest_documents, read_paths
        from graphwiki_assets.core.sources import collect

        config = IngestConfig.from_settings(self.settings)
        files, refused, _ = collect(paths)
        ingestor = Ingestor(
            store=self.store, embedder=self.embedder, llm=self.llm, config=config, log=progress, purpose=actor
        )
        report = ingest_documents(
            ingestor,
            [*refused, *read_paths(files, max_bytes=config.max_bytes)],
            progress=lambda r: progress(f"{r.status} {r.path} {r.reason}".rstrip()),
        )
        return report.as_dict()
