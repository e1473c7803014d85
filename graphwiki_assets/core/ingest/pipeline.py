"""The ingest pipeline: ``Ingestor`` walks the stages of ``stages.py`` in order, one batch of
sources at a time; the CLI (``ingest_documents``), the worker processes and the Dagster
ingest assets (``commit_extracted`` and the stage functions) all run them through here.

    triage (read, hash, unchanged?) -> extract -> embed -> [lease: resolve (two-stage ER)
    -> claims + conflicts -> commit] -> ... every batch ... -> summaries

A batch is the unit of LLM and embedding work (one encode call, a few large judge and
conflict calls) and of writing (one transaction). Extraction and embedding need no graph
and run outside the lease; resolution and commit run under it, so concurrent writers end
with the graph a serial run would build. A batch whose judge or conflict calls fail is
split in halves and retried, so in the end only the sources whose own calls fail are
reported failed and nothing of them is written.
"""

from __future__ import annotations

import resource
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from itertools import islice
from typing import TypeVar

from graphwiki_assets.core.config import SchemaConfig, default_config, load_config
from graphwiki_assets.core.embeddings import Encoder, vector_model_name
from graphwiki_assets.core.ingest import cypher
from graphwiki_assets.core.ingest.answered import Answered
from graphwiki_assets.core.ingest.claims import ClaimLinks, claim_texts, plan_claims
from graphwiki_assets.core.ingest.commit import commit_batch, source_text, touched_concepts
from graphwiki_assets.core.ingest.conflicts import ConflictConfig, find_conflicts
from graphwiki_assets.core.ingest.extraction import ExtractConfig
from graphwiki_assets.core.ingest.lease import IngestLease, LeaseConfig, LeaseLost
from graphwiki_assets.core.ingest.models import Candidates, CommitReport, ResolutionPlan
from graphwiki_assets.core.ingest.resolution import Stage1Config, mention_texts, resolve_batch
from graphwiki_assets.core.ingest.scope import Scope
from graphwiki_assets.core.ingest.stages import (
    Committed,
    CommitTotals,
    Extracted,
    NewSource,
    Prepared,
    Read,
    Triaged,
    extract_new,
    scope_for,
    triage,
)

# the read and extract stages, where the callers of the pipeline have always found them
from graphwiki_assets.core.ingest.stages import extract_sources as extract_sources
from graphwiki_assets.core.ingest.stages import read_paths as read_paths
from graphwiki_assets.core.ingest.summaries import SummaryConfig, SummaryRun, refresh_summaries
from graphwiki_assets.core.ingest.taxonomy import taxonomy_totals
from graphwiki_assets.core.ingest.timing import StageTimes
from graphwiki_assets.core.ingest.vectors import Vectors
from graphwiki_assets.core.llm.client import LLMClient, LLMError
from graphwiki_assets.core.query.upkeep import refresh_after_batch
from graphwiki_assets.core.settings import Settings
from graphwiki_assets.core.sources import DEFAULT_MAX_BYTES, SourceDocument, sha256_text
from graphwiki_assets.core.store.driver import GraphStore
from graphwiki_assets.core.store.schema import ensure_schema

DEFAULT_BATCH_SIZE = 32
T = TypeVar("T")
P = TypeVar("P")


def utc_now() -> str:
    return datetime.now(UTC).isoformat()


@dataclass(frozen=True)
class IngestConfig:
    batch_size: int = DEFAULT_BATCH_SIZE  # sources per batch (GRAPHWIKI_INGEST_BATCH)
    max_bytes: int = DEFAULT_MAX_BYTES  # larger files are refused (GRAPHWIKI_MAX_SOURCE_BYTES)
    extract: ExtractConfig = field(default_factory=ExtractConfig)
    # the schema config (graphwiki.yaml): taxonomy, purpose, thresholds
    schema: SchemaConfig = field(default_factory=default_config)
    stage1: Stage1Config | None = None  # None: from the schema config's thresholds
    conflicts: ConflictConfig = field(default_factory=ConflictConfig)
    summaries: SummaryConfig = field(default_factory=SummaryConfig)
    lease: LeaseConfig = field(default_factory=LeaseConfig)
    # Draft a batch's judge and conflict calls before the lease (GRAPHWIKI_INGEST_DRAFT):
    # "auto" when they go to a model server, whose latency is then kept out of the lease; the
    # offline rules run in this process, where a draft would only spend their CPU twice. A
    # batch is drafted just before its turn to commit, so nothing changes under it; "ahead"
    # drafts each worker's batch as soon as it is extracted, overlapping the commits before
    # it and asking again what they changed.
    draft: str = "auto"

    @classmethod
    def from_settings(cls, settings: Settings, schema: SchemaConfig | None = None) -> IngestConfig:
        """``schema`` defaults to the config file the settings lead to (or the general preset)."""
        schema = schema or load_config(settings.config_path, settings.home).config
        return cls(
            batch_size=settings.ingest_batch,
            max_bytes=settings.max_source_bytes,
            extract=ExtractConfig(max_calls_per_source=settings.max_calls_per_source),
            schema=schema,
            draft=settings.ingest_draft,
        )

    @property
    def resolution(self) -> Stage1Config:
        if self.stage1 is not None:
            return self.stage1
        return Stage1Config(top_k=self.schema.thresholds.stage1_k, floor=self.schema.thresholds.stage1_floor)


@dataclass
class Ingestor:
    """Everything a stage needs; one per run, clients owned by the caller."""

    store: GraphStore
    embedder: Encoder
    llm: LLMClient
    config: IngestConfig = field(default_factory=IngestConfig)
    clock: Callable[[], str] = utc_now
    times: StageTimes = field(default_factory=StageTimes)
    log: Callable[[str], None] = lambda msg: None
    purpose: str = "graphwiki ingest"
    _schema_ready: bool = field(default=False, repr=False)
    _scope: Scope | None = field(default=None, repr=False)
    # the concepts the commits since the last upkeep wrote or tied by an edge
    _touched: set[str] = field(default_factory=set, repr=False)
    # judge and conflict pairs answered in drafts and reused or asked again under the lease
    rechecked: Counter[str] = field(default_factory=Counter, repr=False)

    def ensure_schema(self) -> None:
        if not self._schema_ready:
            # the embedder's model is checked against (or recorded as) the graph's before any write
            ensure_schema(self.store, self.embedder.dimension, vector_model_name(self.embedder))
            self._schema_ready = True

    # -- stages ------------------------------------------------------------------------

    def triage(self, items: list[Read]) -> Triaged:
        with self.times.stage("read"):
            return triage(self.store, items, self.clock(), self.config.schema.extraction_version)

    def extract(self, new: list[NewSource]) -> Extracted:
        schema = self.config.schema
        return extract_new(
            self.llm, new, self.config.extract, schema.taxonomy, self.scope(), times=self.times, log=self.log
        )

    def embed(self, batch: list[Candidates]) -> Vectors:
        """Every vector the batch needs, in one encode call (before the lease: no graph needed)."""
        self.ensure_schema()  # the exact-name lookup below reads an index of the schema
        with self.times.stage("embed"):
            texts = (
                mention_texts(self.store, batch) + claim_texts(batch) + [source_text(c.title, c.text) for c in batch]
            )
            return Vectors(self.embedder, texts)

    @property
    def drafts(self) -> bool:
        """Whether batches are drafted before the lease (``IngestConfig.draft``)."""
        return self.config.draft in ("on", "ahead") or (self.config.draft == "auto" and not self.llm.offline)

    @property
    def drafts_ahead(self) -> bool:
        """Whether a worker drafts its batch before its turn to commit (``IngestConfig.draft``)."""
        return self.config.draft == "ahead"

    def draft(self, batch: list[Candidates], vectors: Vectors) -> Answered:
        """Resolution and conflicts of a batch against the graph as it stands, outside the lease
        and writing nothing, for the model's answers (``answered``): under the lease only the
        pairs the commits made since then changed are asked. A failed call leaves its pairs
        to be asked under the lease."""
        answered = Answered()
        if not batch or not self.drafts:
            return answered
        times = StageTimes()
        try:
            self._plan(batch, vectors, times, answered)
        except LLMError as exc:
            self.log(f"a call of the draft failed; its pairs are asked under the lease ({exc})")
        finally:
            for name, seconds in times.seconds.items():
                self.times.add(f"draft_{name}", seconds)
        return answered

    def resolve_and_commit(
        self, batch: list[Candidates], vectors: Vectors | None = None, answered: Answered | None = None
    ) -> list[CommitReport]:
        """Resolution, conflicts and the commit of one batch under the ingest lease, reusing
        the answers of the batch's draft where the pairs are unchanged."""
        if not batch:
            return []
        self.ensure_schema()  # first write of this run (an unchanged corpus never loads the model)
        vectors = vectors or self.embed(batch)
        answered = answered or Answered()
        answered.restart_counts()
        lease = IngestLease(self.store, self.config.lease, purpose=self.purpose, log=self.log)
        try:
            for _ in range(3):
                with lease.held():
                    held_from = time.perf_counter()
                    try:
                        return self._commit_new(batch, vectors, lease, answered)
                    except LeaseLost:
                        self.log("the ingest lease expired during a batch; redoing it")
                    finally:
                        self.times.held(time.perf_counter() - held_from)
        finally:
            self.times.add("lease_wait", lease.waited_s)
            self.rechecked.update(answered.counts())
        raise LeaseLost("lost the ingest lease three times in a row; is the graph or this machine overloaded?")

    def _commit_new(
        self, batch: list[Candidates], vectors: Vectors, lease: IngestLease, answered: Answered
    ) -> list[CommitReport]:
        # Under the lease, a text another writer committed since triage is not written twice.
        found = {
            r["sha256"]
            for r in self.store.query(
                cypher.SOURCES_BY_SHA,
                sha256s=[c.sha256 for c in batch],
                extraction_version=self.config.schema.extraction_version,
            )
        }
        done = [
            CommitReport(
                source_id=c.source_id, path=c.path, status="unchanged", reason="committed by another writer meanwhile"
            )
            for c in batch
            if c.sha256 in found
        ]
        batch = [c for c in batch if c.sha256 not in found]
        if not batch:
            return done
        return done + self._halves(batch, vectors, lease, answered)

    def _halves(
        self, batch: list[Candidates], vectors: Vectors, lease: IngestLease, answered: Answered
    ) -> list[CommitReport]:
        try:
            return self._resolve_commit(batch, vectors, lease, answered)
        except LLMError as exc:
            if len(batch) == 1:
                c = batch[0]
                return [CommitReport(source_id=c.source_id, path=c.path, status="failed", reason=str(exc))]
            mid = len(batch) // 2
            self.log(f"an LLM call failed for a batch of {len(batch)}; retrying it in halves ({exc})")
            return self._halves(batch[:mid], vectors, lease, answered) + self._halves(
                batch[mid:], vectors, lease, answered
            )

    def _resolve_commit(
        self, batch: list[Candidates], vectors: Vectors, lease: IngestLease, answered: Answered
    ) -> list[CommitReport]:
        plans, links = self._plan(batch, vectors, self.times, answered)
        self._touched |= touched_concepts(plans, links)  # before the write: a failed one only checks more
        with self.times.stage("write"):
            return commit_batch(
                self.store,
                plans,
                links,
                vectors,
                self.llm.label,
                self.clock(),
                lease,
                actor=self.purpose,
                stamp=self.config.schema.stamp(),
            )

    def _plan(
        self, batch: list[Candidates], vectors: Vectors, times: StageTimes, answered: Answered
    ) -> tuple[list[ResolutionPlan], list[ClaimLinks]]:
        """Resolution and conflicts of a batch against the graph as it is now, in memory: the
        draft's pass and the commit's alike, so both show the model the same pairs."""
        config = self.config
        plans = resolve_batch(self.store, self.llm, batch, vectors, config.resolution, times, answered.judge)
        links = [plan_claims(plan, vectors) for plan in plans]
        find_conflicts(self.store, self.llm, plans, links, config.conflicts, times, answered.conflicts)
        return plans, links

    def scope(self) -> Scope:
        if self._scope is None:
            self._scope = scope_for(self.config.schema, self.embedder)
        return self._scope

    def prepare(self, items: list[Read], draft: bool = True) -> Prepared:
        """Every stage of a batch that needs no lease: triage, scope, extraction, embeddings,
        and (``draft``) the draft of its resolution and conflicts (the model's answers)."""
        triaged = self.triage(items)
        extracted = self.extract(triaged.new)
        vectors = self.embed(extracted.candidates) if extracted.candidates else None
        prepared = Prepared(
            items=items,
            candidates=extracted.candidates,
            vectors=vectors,
            reports=triaged.reports + extracted.failed,
        )
        return self.drafted(prepared) if draft else prepared

    def drafted(self, prepared: Prepared) -> Prepared:
        """The prepared batch with its draft's answers (drafted once)."""
        if prepared.vectors is None or prepared.answered is not None:
            return prepared
        return replace(prepared, answered=self.draft(prepared.candidates, prepared.vectors))

    def finish(self, prepared: Prepared) -> list[CommitReport]:
        reports = prepared.reports + self.resolve_and_commit(prepared.candidates, prepared.vectors, prepared.answered)
        order = {item.path: n for n, item in enumerate(prepared.items)}
        return sorted(reports, key=lambda r: order.get(r.path, len(order)))

    def ingest_batch(self, items: list[Read]) -> list[CommitReport]:
        return self.finish(self.prepare(items))

    def upkeep(self, last: bool) -> None:
        """After a batch is committed: the query signatures of what it touched (of every stale
        concept after the last), and the projection when due."""
        touched, self._touched = self._touched, set()
        refresh_after_batch(self.store, last=last, log=self.log, touched=touched)

    def summaries(self) -> SummaryRun:
        with self.times.stage("summaries"):
            return refresh_summaries(
                self.store,
                self.llm,
                self.clock(),
                self.config.summaries,
                self.config.lease,
                purpose=f"{self.purpose}: summaries",
            )


@dataclass
class IngestReport:
    reports: list[CommitReport] = field(default_factory=list)
    summaries: int = 0
    summary_failures: int = 0
    seconds: float = 0.0
    llm: dict = field(default_factory=dict)
    llm_by_task: dict = field(default_factory=dict)
    stages: dict = field(default_factory=dict)
    lease: dict = field(default_factory=dict)
    embedding: dict = field(default_factory=dict)
    batches: int = 0
    peak_rss_mb: float = 0.0
    backend: str = ""
    config_version: str = ""

    def as_dict(self) -> dict:
        by = lambda s: [r for r in self.reports if r.status == s]  # noqa: E731
        totals = CommitTotals.of(self.reports)  # reports not written count nothing
        return {
            "backend": self.backend,
            "config_version": self.config_version,
            "out_of_scope": [{"path": r.path, "reason": r.scope_reason} for r in self.reports if r.scope == "out"],
            "taxonomy": taxonomy_totals(r.typed for r in self.reports),
            "sources": {
                "new": len(by("new")),
                "unchanged": len(by("unchanged")),
                "skipped": len(by("skipped")),
                "failed": len(by("failed")),
            },
            "concepts": {"created": totals.concepts_created, "merged": totals.concepts_merged},
            "claims": totals.claims,
            "contradictions": totals.contradictions,
            "settled": totals.settled,
            "restatement_pairs": totals.restatement_pairs,
            "judgments": totals.judgments,
            "summaries_refreshed": self.summaries,
            "summary_failures": self.summary_failures,
            "llm_calls": self.llm.get("calls", 0),
            "prompt_tokens": self.llm.get("prompt_tokens", 0),
            "llm": self.llm,
            "llm_by_task": self.llm_by_task,
            "stages_seconds": self.stages,
            "lease": self.lease,
            "embedding": self.embedding,
            "batches": self.batches,
            "seconds": round(self.seconds, 2),
            "peak_rss_mb": round(self.peak_rss_mb, 1),
            "problems": [
                {"path": r.path, "status": r.status, "reason": r.reason}
                for r in self.reports
                if r.status in ("skipped", "failed")
            ],
        }


def batched(items: Iterable, size: int) -> Iterator[list]:
    it = iter(items)
    while chunk := list(islice(it, max(1, size))):
        yield chunk


def one_ahead(batches: Iterable[T], prepare: Callable[[T], P]) -> Iterator[tuple[P, bool]]:
    """Each batch prepared while the one before it is consumed, with whether it is the last.

    Preparing (extraction, embedding) needs no graph and no lease, so the model works on the
    next batch while the graph resolves and writes this one. The CLI and the Dagster step
    both walk their batches through here.
    """
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="ingest-prepare") as ahead:
        it = iter(batches)
        upcoming = next(it, None)
        pending = ahead.submit(prepare, upcoming) if upcoming is not None else None
        while pending is not None:
            prepared = pending.result()
            upcoming = next(it, None)
            pending = ahead.submit(prepare, upcoming) if upcoming is not None else None
            yield prepared, pending is None


def commit_extracted(ingestor: Ingestor, extracted: Mapping[str, Candidates | CommitReport]) -> Committed:
    """Resolve and commit the sources extraction gave (the Dagster path), in the given order,
    batch by batch, each batch embedded while the one before it is resolved and written; the
    other values (reports of sources not extracted) are carried through."""
    reports = {key: v for key, v in extracted.items() if isinstance(v, CommitReport)}
    pending = [v for v in extracted.values() if isinstance(v, Candidates)]
    if not pending:
        return Committed(reports)
    ingestor.ensure_schema()
    embedded = one_ahead(batched(pending, ingestor.config.batch_size), lambda b: (b, ingestor.embed(b)))
    for (batch, vectors), _last in embedded:
        # drafted just before its commit, for the reason ingest_documents gives
        answered = ingestor.draft(batch, vectors)
        reports.update((r.path, r) for r in ingestor.resolve_and_commit(batch, vectors, answered))
        ingestor.log(f"committed {sum(r.status == 'new' for r in reports.values())} of {len(pending)} sources")
    return Committed(reports)


def ingest_documents(
    ingestor: Ingestor,
    documents: Iterable[Read],
    progress: Callable[[CommitReport], None] | None = None,
) -> IngestReport:
    started = time.monotonic()
    before = ingestor.llm.usage.snapshot()
    encoded_before, calls_before = ingestor.embedder.encoded, ingestor.embedder.model_calls
    report = IngestReport(backend=ingestor.llm.label, config_version=ingestor.config.schema.version)
    # One process drafts a batch just before its commit, while the next batch is extracted:
    # drafted while the batch before it commits, 24 % of its pairs changed under it and were
    # asked again (256 MuSiQue passages into an empty graph), which cost more calls than the
    # overlap saved.
    batches = batched(documents, ingestor.config.batch_size)
    for prepared, last in one_ahead(batches, lambda items: ingestor.prepare(items, draft=False)):
        for result in ingestor.finish(ingestor.drafted(prepared)):
            report.reports.append(result)
            if progress:
                progress(result)
        report.batches += 1
        ingestor.upkeep(last)
    summary = ingestor.summaries()
    report.summaries, report.summary_failures = summary.refreshed, summary.failed_calls
    used = ingestor.llm.usage.snapshot() - before
    report.llm, report.llm_by_task = used.as_dict(), used.tasks()
    report.stages = ingestor.times.as_dict()
    report.embedding = {
        "texts_encoded": ingestor.embedder.encoded - encoded_before,
        "encode_calls": ingestor.embedder.model_calls - calls_before,
    }
    report.seconds = time.monotonic() - started
    report.lease = {**ingestor.times.lease(report.seconds), **ingestor.rechecked}
    report.peak_rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return report


def records_as_documents(records: Iterable[dict], namespace: str) -> Iterator[SourceDocument]:
    """Corpus records ({id, title, text}) as sources; the path keeps the record id."""
    for record in records:
        text = record["text"]
        if record.get("title") and not text.startswith(record["title"]):
            text = f"{record['title']}\n\n{text}"
        yield SourceDocument(
            path=f"{namespace}/{record['id']}",
            title=record.get("title") or record["id"],
            text=text,
            sha256=sha256_text(text),
        )
