"""The ingest pipeline outside Dagster: the same stage functions the assets call, in order.

    read/hash -> extract -> resolve (two-stage ER) -> claims + conflicts -> commit -> summaries
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterable

from graphwiki_assets.core.embeddings import Embedder
from graphwiki_assets.core.ingest import cypher
from graphwiki_assets.core.ingest.claims import ConflictConfig, find_conflicts, plan_claims
from graphwiki_assets.core.ingest.commit import commit_source
from graphwiki_assets.core.ingest.extraction import extract_candidates
from graphwiki_assets.core.ingest.files import DEFAULT_MAX_BYTES, SourceDocument, SourceRejected, read_source, sha256_text
from graphwiki_assets.core.ingest.models import CommitReport
from graphwiki_assets.core.ingest.resolution import Stage1Config, resolve
from graphwiki_assets.core.ingest.summaries import refresh_summaries
from graphwiki_assets.core.llm.client import LLMClient, LLMError
from graphwiki_assets.core.store.driver import GraphStore
from graphwiki_assets.core.store.schema import ensure_schema


def utc_now() -> str:
    return datetime.now(timezone.utc).isoformat()


@dataclass
class Ingestor:
    """Everything a stage needs; one per run, clients owned by the caller."""

    store: GraphStore
    embedder: Embedder
    llm: LLMClient
    stage1: Stage1Config = field(default_factory=Stage1Config)
    conflicts: ConflictConfig = field(default_factory=ConflictConfig)
    max_bytes: int = DEFAULT_MAX_BYTES
    clock: callable = utc_now

    def ensure_schema(self) -> None:
        ensure_schema(self.store, self.embedder.dimension)

    def existing(self, doc: SourceDocument) -> dict | None:
        found = self.store.query(cypher.SOURCE_BY_SHA, sha256=doc.sha256)
        return found[0] if found else None

    def touch(self, source_id: str, path: str) -> None:
        self.store.query(cypher.TOUCH_SOURCE, id=source_id, path=path, now=self.clock())

    def ingest_document(self, doc: SourceDocument) -> CommitReport:
        """One source through every stage; unchanged content costs no LLM call."""
        if self.existing(doc) is not None:
            self.touch(doc.source_id, doc.path)
            return CommitReport(source_id=doc.source_id, path=doc.path, status="unchanged",
                                reason="same SHA256 as an ingested source")
        candidates = extract_candidates(self.llm, doc)
        plan = resolve(self.store, self.embedder, self.llm, candidates, self.stage1)
        links = find_conflicts(self.store, self.llm, plan, plan_claims(plan, self.embedder), self.conflicts)
        return commit_source(self.store, self.embedder, plan, links, self.llm.label, self.clock())

    def summaries(self) -> int:
        return refresh_summaries(self.store, self.llm, self.clock())


@dataclass
class IngestReport:
    reports: list[CommitReport] = field(default_factory=list)
    summaries: int = 0
    seconds: float = 0.0
    llm: dict = field(default_factory=dict)
    backend: str = ""

    def as_dict(self) -> dict:
        by = lambda s: [r for r in self.reports if r.status == s]  # noqa: E731
        return {
            "backend": self.backend,
            "sources": {"new": len(by("new")), "unchanged": len(by("unchanged")),
                        "skipped": len(by("skipped")), "failed": len(by("failed"))},
            "concepts": {"created": sum(r.concepts_created for r in self.reports),
                         "merged": sum(r.concepts_merged for r in self.reports)},
            "claims": sum(r.claims for r in self.reports),
            "contradictions": sum(r.contradictions for r in self.reports),
            "settled": sum(r.settled for r in self.reports),
            "judgments": sum(r.judgments for r in self.reports),
            "summaries_refreshed": self.summaries,
            "llm_calls": self.llm.get("calls", 0),
            "prompt_tokens": self.llm.get("prompt_tokens", 0),
            "llm": self.llm,
            "seconds": round(self.seconds, 2),
            "problems": [{"path": r.path, "status": r.status, "reason": r.reason}
                         for r in self.reports if r.status in ("skipped", "failed")],
        }


def ingest_documents(ingestor: Ingestor, documents: Iterable[SourceDocument | SourceRejected],
                     progress=None) -> IngestReport:
    started = time.monotonic()
    before = ingestor.llm.usage.snapshot()
    report = IngestReport(backend=ingestor.llm.label)
    ingestor.ensure_schema()
    for item in documents:
        if isinstance(item, SourceRejected):
            report.reports.append(CommitReport(source_id="", path=item.path, status="skipped", reason=item.reason))
            continue
        try:
            result = ingestor.ingest_document(item)
        except LLMError as exc:
            # One source failed cleanly: nothing of it was written, the others go on.
            result = CommitReport(source_id=item.source_id, path=item.path, status="failed", reason=str(exc))
        report.reports.append(result)
        if progress:
            progress(result)
    report.summaries = ingestor.summaries()
    report.llm = (ingestor.llm.usage.snapshot() - before).as_dict()
    report.seconds = time.monotonic() - started
    return report


def read_paths(paths: Iterable[Path], max_bytes: int = DEFAULT_MAX_BYTES):
    for path in paths:
        try:
            yield read_source(Path(path), max_bytes=max_bytes)
        except SourceRejected as exc:
            yield exc


def records_as_documents(records: Iterable[dict], namespace: str):
    """Corpus records ({id, title, text}) as sources; the path keeps the record id."""
    for record in records:
        text = record["text"]
        if record.get("title") and not text.startswith(record["title"]):
            text = f"{record['title']}\n\n{text}"
        yield SourceDocument(path=f"{namespace}/{record['id']}", title=record.get("title") or record["id"],
                             text=text, sha256=sha256_text(text))
