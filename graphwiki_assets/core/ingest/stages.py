"""The ingest's stage contract: the ordered stages of a batch, each a function from the typed
value the stage before it gives to the typed value it hands on.

    read          paths -> SourceDocument | SourceRejected                (read_paths, read_keys)
    triage        those -> Triaged: NewSource per new text, CommitReport for the rest
    extract       NewSource -> Extracted: Candidates (scope decided first), failure reports
    embed         Candidates -> Vectors (one encode call; no graph, no lease)
    resolve+commit  Candidates + Vectors -> CommitReport per source (under the ingest lease)
    upkeep        after each batch: signatures, and the projection when due
    summaries     after every batch: the concepts several sources now back, rewritten

``Ingestor`` (``pipeline.py``) holds the clients and walks these stages; the CLI, the worker
processes and the Dagster ingest assets all call them there or here, so a stage is written
once and every runner passes the same values between them. Dagster stores each stage's value
per partition (``by_path``): a partition key is the source's path.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from graphwiki_assets.core.config import SchemaConfig
from graphwiki_assets.core.config.model import Taxonomy
from graphwiki_assets.core.embeddings import Encoder
from graphwiki_assets.core.ingest import cypher
from graphwiki_assets.core.ingest.answered import Answered
from graphwiki_assets.core.ingest.extraction import ExtractConfig, extract_documents
from graphwiki_assets.core.ingest.models import Candidates, CommitReport
from graphwiki_assets.core.ingest.scope import Scope
from graphwiki_assets.core.ingest.timing import StageTimes
from graphwiki_assets.core.ingest.vectors import Vectors
from graphwiki_assets.core.llm.client import LLMClient
from graphwiki_assets.core.sources import DEFAULT_MAX_BYTES, SourceDocument, SourceRejected, parsed, read_source
from graphwiki_assets.core.store.driver import GraphStore

Read = SourceDocument | SourceRejected


@dataclass(frozen=True)
class NewSource:
    """A text the graph does not hold yet, parsed, with the other paths it was found under."""

    document: SourceDocument
    also_paths: list[str] = field(default_factory=list)

    # the status a triage report would give it, so both kinds of a triage value read alike
    status: Literal["new"] = "new"
    reason: str = ""

    @property
    def path(self) -> str:
        return self.document.path


@dataclass(frozen=True)
class Triaged:
    """What triage gives: the new texts (each once), and a report for every other item
    (refused files, texts already ingested, second copies of a text in the batch)."""

    new: list[NewSource]
    reports: list[CommitReport]

    def by_path(self) -> dict[str, NewSource | CommitReport]:
        return {**{r.path: r for r in self.reports}, **{n.path: n for n in self.new}}


@dataclass(frozen=True)
class Extracted:
    """What extraction gives: candidates (in scope or not), and reports of the sources whose
    extraction failed."""

    candidates: list[Candidates]
    failed: list[CommitReport]

    def by_path(self) -> dict[str, Candidates | CommitReport]:
        return {**{c.path: c for c in self.candidates}, **{r.path: r for r in self.failed}}


@dataclass
class Prepared:
    """A batch through every stage that needs no lease, ready to resolve and commit."""

    items: list[Read]
    candidates: list[Candidates]
    vectors: Vectors | None
    reports: list[CommitReport]
    answered: Answered | None = None  # the model's answers from the batch's draft


@dataclass(frozen=True)
class Committed:
    """What resolution and the commit give a run: a report per source, by path, and the
    totals over the sources written."""

    reports: dict[str, CommitReport]

    @property
    def written(self) -> list[CommitReport]:
        return [r for r in self.reports.values() if r.status == "new"]

    @property
    def failed(self) -> dict[str, CommitReport]:
        return {k: r for k, r in self.reports.items() if r.status == "failed"}

    @property
    def totals(self) -> CommitTotals:
        return CommitTotals.of(self.written)


@dataclass(frozen=True)
class CommitTotals:
    """The sums over commit reports that runs report (the CLI's summary, asset metadata)."""

    sources: int
    concepts_created: int
    concepts_merged: int
    judgments: int
    claims: int
    contradictions: int
    settled: int
    restatement_pairs: int
    flagged_for_review: int

    @classmethod
    def of(cls, reports: Iterable[CommitReport]) -> CommitTotals:
        rs = list(reports)
        return cls(
            sources=len(rs),
            concepts_created=sum(r.concepts_created for r in rs),
            concepts_merged=sum(r.concepts_merged for r in rs),
            judgments=sum(r.judgments for r in rs),
            claims=sum(r.claims for r in rs),
            contradictions=sum(r.contradictions for r in rs),
            settled=sum(r.settled for r in rs),
            restatement_pairs=sum(r.restatement_pairs for r in rs),
            flagged_for_review=sum(r.flagged_for_review for r in rs),
        )


# -- read ------------------------------------------------------------------------------


def read_paths(paths: Iterable[Path], max_bytes: int = DEFAULT_MAX_BYTES) -> Iterator[Read]:
    for path in paths:
        yield _read(Path(path), max_bytes)


def read_keys(folder: Path, keys: Iterable[str], max_bytes: int = DEFAULT_MAX_BYTES) -> list[Read]:
    """The files of a sources folder named by their paths in it (a Dagster partition key)."""
    return [_read(folder / key, max_bytes, display=key) for key in keys]


def _read(path: Path, max_bytes: int, display: str | None = None) -> Read:
    """The file checked, decoded and hashed, or why it was refused; parsed once it is new (triage)."""
    try:
        return read_source(path, max_bytes=max_bytes, display=display, parse=False)
    except SourceRejected as exc:
        return exc


# -- triage ----------------------------------------------------------------------------


def triage(store: GraphStore, items: list[Read], now: str, extraction_version: str) -> Triaged:
    """New documents (each text once, parsed), and reports for the rest: refused files, and
    texts the graph already holds under this purpose and taxonomy (touched, no LLM call)."""
    reports: list[CommitReport] = []
    first: dict[str, SourceDocument] = {}
    also: dict[str, list[str]] = {}
    for item in items:
        if isinstance(item, SourceRejected):
            reports.append(CommitReport(source_id="", path=item.path, status="skipped", reason=item.reason))
        elif item.sha256 in first:
            also.setdefault(item.source_id, []).append(item.path)
            reason = f"same text as {first[item.sha256].path}"
            reports.append(CommitReport(source_id=item.source_id, path=item.path, status="unchanged", reason=reason))
        else:
            first[item.sha256] = item
    found = (
        {
            r["sha256"]: r["id"]
            for r in store.query(cypher.SOURCES_BY_SHA, sha256s=list(first), extraction_version=extraction_version)
        }
        if first
        else {}
    )
    touches = []
    for sha, doc in first.items():
        if sha in found:
            touches += [{"id": found[sha], "path": p} for p in [doc.path, *also.pop(doc.source_id, [])]]
            reason = "same SHA256 as an ingested source"
            reports.append(CommitReport(source_id=found[sha], path=doc.path, status="unchanged", reason=reason))
    if touches:
        store.query(cypher.TOUCH_SOURCES, touches=touches, now=now)
    new = [d for sha, d in first.items() if sha not in found]
    return Triaged(new=[NewSource(parsed(d), also.get(d.source_id, [])) for d in new], reports=reports)


# -- extract ---------------------------------------------------------------------------


def scope_for(schema: SchemaConfig, embedder: Encoder) -> Scope:
    """The schema config's focus; its topics are encoded only when it has any."""
    return Scope(schema.purpose, embedder, schema.thresholds.scope_floor)


def extract_new(
    llm: LLMClient,
    new: list[NewSource],
    config: ExtractConfig,
    taxonomy: Taxonomy,
    scope: Scope,
    times: StageTimes | None = None,
    log: Callable[[str], None] | None = None,
) -> Extracted:
    """The extract stage over triage's new sources."""
    candidates, failed = extract_sources(
        llm,
        [n.document for n in new],
        config,
        also={n.document.source_id: n.also_paths for n in new},
        progress=log,
        taxonomy=taxonomy,
        scope=scope,
        times=times,
    )
    return Extracted(candidates=candidates, failed=failed)


def extract_sources(
    llm: LLMClient,
    docs: list[SourceDocument],
    config: ExtractConfig = ExtractConfig(),
    also: dict[str, list[str]] | None = None,
    progress: Callable[[str], None] | None = None,
    taxonomy: Taxonomy | None = None,
    scope: Scope | None = None,
    times: StageTimes | None = None,
) -> tuple[list[Candidates], list[CommitReport]]:
    """Candidates for the documents that extraction could read, failure reports for the rest.
    With a ``scope``, documents outside the focus are candidates that promote nothing and
    cost no extraction call."""
    times = times or StageTimes()
    outside: list[Candidates] = []
    why: dict[str, str] = {}
    if scope is not None:
        with times.stage("scope"):
            docs, outside, why = scope.split(docs)
    with times.stage("extract"):
        extracted = extract_documents(llm, docs, config, progress=progress, taxonomy=taxonomy)
    by_id = {d.source_id: d for d in docs}
    failed = [
        CommitReport(source_id=sid, path=by_id[sid].path, status="failed", reason=reason)
        for sid, reason in extracted.failed.items()
    ]
    candidates = [
        c.model_copy(
            update={
                "also_paths": (also or {}).get(c.source_id, []),
                "scope_reason": why.get(c.source_id, c.scope_reason),
            }
        )
        for c in extracted.candidates + outside
    ]
    return candidates, failed
