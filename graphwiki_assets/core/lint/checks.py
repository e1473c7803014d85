"""The lint checks: one function per check, each returning a typed ``CheckResult``.

A result's ``severity`` is the outcome: 'info' when there is nothing to act on (or the
finding is informational, like the judgment sample), else the check's own level. Checks
read the graph only; ``now`` is always a parameter so staleness is testable without waiting.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Literal

from graphwiki_assets.core.lint import cypher
from graphwiki_assets.core.lint.drift import file_drift, text_drift
from graphwiki_assets.core.lint.judgments import SAMPLE_SEED, SAMPLE_SIZE, sample_judgments
from graphwiki_assets.core.store.driver import GraphStore
from graphwiki_assets.core.store.schema import AWAITING_CORROBORATION, STATUSES

Severity = Literal["info", "warn", "error"]
SEVERITY_RANK = {"info": 0, "warn": 1, "error": 2}
CAP = 50  # offenders listed per check; the count is always the full total

# Name -> (level when it finds something, what it means). The order is the report's order.
CHECKS: dict[str, tuple[Severity, str]] = {
    "provenance_complete": ("error", "every Concept and Claim has a DERIVED_FROM to a Source"),
    "no_dangling_references": (
        "error",
        "no judgment, merge, supersession or relationship points at a missing "
        "or wrong node, and every claim is about a concept",
    ),
    "disputed_iff_contradicted": (
        "error",
        "a claim is 'disputed' exactly when it has an open CONTRADICTS (with a claim that is not superseded)",
    ),
    "source_text_unchanged": ("error", "every Source's stored text still hashes to its sha256"),
    "source_files_unchanged": (
        "warn",
        "the file on disk still hashes to its latest Source (else re-ingest; the old version's dependents need review)",
    ),
    "orphan_concepts": ("warn", "live concepts with no ABOUT, RELATED_TO, PART_OF or DERIVED_FROM"),
    "missing_properties": ("warn", "required properties present and enumerations valid (status, verdict, kind)"),
    "stale_needs_review": ("warn", "nodes flagged needs_review longer than the review window"),
    "stale_sources": ("warn", "current sources not seen by a re-ingest within the staleness window"),
    "stale_concepts": ("warn", "live concepts neither updated nor re-seen through a source within the window"),
    "oversized_hubs": ("warn", "concepts with more relationships than the hub limit (split into sub-topics)"),
    "possibly_outdated": (
        "info",
        "live claims whose newest source is dated before the staleness window: possibly outdated "
        "(a random sample; a claim with no dated source is not dated and never counted)",
    ),
    "gds_catalog": (
        "warn",
        "the query projection in the GDS catalog holds what the graph holds, and no older build is left behind",
    ),
    "open_disputes": ("info", "unresolved CONTRADICTS pairs, kept on purpose until settled (with their age)"),
    "judgment_sample": (
        "info",
        "a random sample of unreviewed stage-2 judgments, stratified by verdict, to spot-check with `graphwiki review`",
    ),
}

REQUIRED = {
    "Source": ["id", "sha256", "path", "title", "text", "status", "ingested_at", "last_seen_at"],
    "Concept": ["id", "name", "type", "aliases", "status", "needs_review", "created_at", "updated_at"],
    "Claim": ["id", "text", "status", "created_at"],
    "Judgment": [
        "id",
        "mention",
        "candidate_id",
        "candidate_name",
        "verdict",
        "backend",
        "reviewed",
        "source_id",
        "concept_id",
        "created_at",
    ],
}
ALLOWED = {
    "Source": {"status": ["current", "superseded"]},
    "Concept": {"status": list(STATUSES)},
    "Claim": {"status": list(STATUSES)},
    "Judgment": {"verdict": ["SAME", "RELATED", "DIFFERENT", "NOT_SAME"]},  # NOT_SAME: earlier versions
}


@dataclass(frozen=True)
class CheckResult:
    name: str
    severity: Severity
    count: int  # offenders in total
    total: int  # what was examined
    ratio: float  # count / total (0.0 when nothing was examined)
    offending: tuple[str, ...]  # ids, capped
    description: str
    rows: tuple[dict[str, Any], ...] = field(default=(), repr=False)  # one per listed offender

    @property
    def passed(self) -> bool:
        return self.severity == "info"

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data.update(offending=list(self.offending), rows=list(self.rows), passed=self.passed)
        return data


def make_result(
    name: str,
    count: int,
    total: int,
    rows: Sequence[dict],
    detail: str = "",
    severity: Severity | None = None,
    cap: int = CAP,
) -> CheckResult:
    level, text = CHECKS[name]
    rows = tuple(rows)[:cap]
    return CheckResult(
        name=name,
        severity=severity or (level if count else "info"),
        count=count,
        total=total,
        ratio=count / total if total else 0.0,
        offending=tuple(str(r["id"]) for r in rows),
        description=f"{text}{'; ' + detail if detail else ''}",
        rows=rows,
    )


def _query_check(
    store: GraphStore, name: str, statement: str, detail: str = "", cap: int = CAP, **params: Any
) -> CheckResult:
    row = store.query(statement, cap=cap, **params)[0]
    return make_result(name, row["count"], row["total"], row["rows"], detail, cap=cap)


def orphan_concepts(store: GraphStore, cap: int = CAP, max_rate: float = 0.05) -> CheckResult:
    """Warns only at or above the target orphan rate; below it the orphans are still listed."""
    row = store.query(cypher.ORPHAN_CONCEPTS, cap=cap)[0]
    rate = row["count"] / row["total"] if row["total"] else 0.0
    return make_result(
        "orphan_concepts",
        row["count"],
        row["total"],
        row["rows"],
        f"target rate < {max_rate:.0%}",
        severity="warn" if row["count"] and rate >= max_rate else "info",
        cap=cap,
    )


def open_disputes(store: GraphStore, now: datetime, cap: int = CAP) -> CheckResult:
    return _query_check(store, "open_disputes", cypher.OPEN_DISPUTES, cap=cap, now=now)


def judgment_sample(store: GraphStore, size: int = SAMPLE_SIZE, seed: int = SAMPLE_SEED, cap: int = CAP) -> CheckResult:
    """The count is what a person is asked to check (the sample), of all unreviewed ones."""
    sample = sample_judgments(store, size, seed)
    rows = [j.as_row() for j in sample.judgments]
    return make_result("judgment_sample", len(rows), sample.total, rows, sample.describe(), cap=max(cap, len(rows)))


def stale_sources(store: GraphStore, now: datetime, days: int = 90, cap: int = CAP) -> CheckResult:
    return _query_check(
        store,
        "stale_sources",
        cypher.STALE_SOURCES,
        f"window {days} days",
        cap,
        now=now,
        cutoff=now - timedelta(days=days),
    )


def stale_concepts(store: GraphStore, now: datetime, days: int = 90, cap: int = CAP) -> CheckResult:
    return _query_check(
        store,
        "stale_concepts",
        cypher.STALE_CONCEPTS,
        f"window {days} days",
        cap,
        now=now,
        cutoff=now - timedelta(days=days),
    )


def possibly_outdated(store: GraphStore, now: datetime, days: int = 90, size: int = 10) -> CheckResult:
    """Informational: old statements are not errors, but a person may want to re-check a few."""
    today = now.date()
    row = store.query(cypher.POSSIBLY_OUTDATED, cutoff=today - timedelta(days=days), today=today, size=size)[0]
    return make_result(
        "possibly_outdated",
        row["count"],
        row["total"],
        row["rows"],
        f"window {days} days; {row['dated']} of {row['total']} claims dated; {len(row['rows'])} of {row['count']} shown",
        severity="info",
        cap=size,
    )


def stale_needs_review(store: GraphStore, now: datetime, days: int = 30, cap: int = CAP) -> CheckResult:
    return _query_check(
        store,
        "stale_needs_review",
        cypher.STALE_NEEDS_REVIEW,
        f"window {days} days",
        cap,
        now=now,
        cutoff=now - timedelta(days=days),
        awaiting=AWAITING_CORROBORATION,
    )


def no_dangling_references(store: GraphStore, cap: int = CAP) -> CheckResult:
    return _query_check(store, "no_dangling_references", cypher.DANGLING_REFERENCES, cap=cap)


def provenance_complete(store: GraphStore, cap: int = CAP) -> CheckResult:
    return _query_check(store, "provenance_complete", cypher.PROVENANCE, cap=cap)


def disputed_iff_contradicted(store: GraphStore, cap: int = CAP) -> CheckResult:
    return _query_check(
        store,
        "disputed_iff_contradicted",
        cypher.DISPUTED_IFF_CONTRADICTED,
        "total = claims that are disputed or contradicted",
        cap,
    )


def oversized_hubs(store: GraphStore, limit: int = 200, cap: int = CAP) -> CheckResult:
    return _query_check(store, "oversized_hubs", cypher.OVERSIZED_HUBS, f"limit {limit}", cap, limit=limit)


def missing_properties(store: GraphStore, cap: int = CAP) -> CheckResult:
    return _query_check(
        store, "missing_properties", cypher.MISSING_PROPERTIES, cap=cap, required=REQUIRED, allowed=ALLOWED
    )


def source_text_unchanged(store: GraphStore, cap: int = CAP, source_ids: Sequence[str] | None = None) -> CheckResult:
    checked, drifted = text_drift(store, source_ids)
    return make_result("source_text_unchanged", len(drifted), checked, [d.as_row() for d in drifted], cap=cap)


def source_files_unchanged(store: GraphStore, sources_dir: Path | None = None, cap: int = CAP) -> CheckResult:
    scan = file_drift(store, sources_dir)
    detail = f"{len(scan.missing)} path(s) not found on disk, not counted" if scan.missing else ""
    return make_result(
        "source_files_unchanged", len(scan.drifted), scan.checked, [d.as_row() for d in scan.drifted], detail, cap=cap
    )
