"""The lint report: every check, the headline metrics against the targets, and markdown.

The same report backs the ``lint_report`` asset and ``graphwiki lint``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from graphwiki_assets.core.audit import Entry, append
from graphwiki_assets.core.config import Thresholds
from graphwiki_assets.core.lint import checks, cypher
from graphwiki_assets.core.lint.catalog import gds_catalog
from graphwiki_assets.core.lint.checks import SEVERITY_RANK, CheckResult, Severity
from graphwiki_assets.core.lint.judgments import SAMPLE_SEED, SAMPLE_SIZE
from graphwiki_assets.core.lint.markdown import render
from graphwiki_assets.core.lint.targets import TARGETS
from graphwiki_assets.core.store.driver import GraphStore


@dataclass(frozen=True)
class LintConfig:
    stale_days: int = 90  # sources/concepts not touched by a re-ingest for this long are stale
    review_days: int = 30  # needs_review older than this is overdue
    hub_limit: int = 200  # more relationships than this make an oversized hub
    sample_size: int = SAMPLE_SIZE  # unreviewed judgments to spot-check, all verdicts together
    sample_seed: int = SAMPLE_SEED  # the same seed draws the same sample from the same graph
    max_orphan_rate: float = 0.05
    cap: int = checks.CAP
    sources_dir: Path | None = None  # where relative Source paths live on disk

    @classmethod
    def with_thresholds(
        cls, thresholds: Thresholds, stale_days: int | None = None, hub_limit: int | None = None, **rest: Any
    ) -> LintConfig:
        """The staleness window and hub size from the schema config's thresholds unless given."""
        return cls(
            stale_days=thresholds.staleness_days if stale_days is None else stale_days,
            hub_limit=thresholds.hub_size if hub_limit is None else hub_limit,
            **rest,
        )


@dataclass
class LintReport:
    checks: list[CheckResult]
    metrics: dict[str, float]
    generated_at: datetime
    config: LintConfig = field(default_factory=LintConfig)

    def check(self, name: str) -> CheckResult:
        return next(c for c in self.checks if c.name == name)

    @property
    def severity(self) -> Severity:
        return max((c.severity for c in self.checks), key=SEVERITY_RANK.__getitem__, default="info")

    def as_dict(self) -> dict[str, Any]:
        config = {k: (str(v) if isinstance(v, Path) else v) for k, v in asdict(self.config).items()}
        return {
            "generated_at": self.generated_at.isoformat(),
            "severity": self.severity,
            "config": config,
            "metrics": self.metrics,
            "targets": {k: f"{op} {v}" for k, (op, v) in TARGETS.items()},
            "checks": [c.as_dict() for c in self.checks],
        }

    def markdown(self) -> str:
        return render(self)


def run_lint(
    store: GraphStore, now: datetime | None = None, config: LintConfig | None = None, actor: str = "graphwiki lint"
) -> LintReport:
    """Every check, then one audit-log entry for the run (the checks themselves only read)."""
    now = now or datetime.now(UTC)
    cfg = config or LintConfig()
    cap = cfg.cap
    results = [
        checks.provenance_complete(store, cap),
        checks.no_dangling_references(store, cap),
        checks.disputed_iff_contradicted(store, cap),
        checks.source_text_unchanged(store, cap),
        checks.source_files_unchanged(store, cfg.sources_dir, cap),
        checks.orphan_concepts(store, cap, cfg.max_orphan_rate),
        checks.missing_properties(store, cap),
        checks.stale_needs_review(store, now, cfg.review_days, cap),
        checks.stale_sources(store, now, cfg.stale_days, cap),
        checks.stale_concepts(store, now, cfg.stale_days, cap),
        checks.possibly_outdated(store, now, cfg.stale_days, cfg.sample_size),
        checks.oversized_hubs(store, cfg.hub_limit, cap),
        gds_catalog(store, cap),
        checks.open_disputes(store, now, cap),
        checks.judgment_sample(store, cfg.sample_size, cfg.sample_seed, cap),
    ]
    report = LintReport(checks=results, metrics=metrics_of(store, results), generated_at=now, config=cfg)
    failing = [c.name for c in results if not c.passed]
    append(
        store,
        Entry(
            action="lint",
            actor=actor,
            at=now.isoformat(),
            summary=f"{report.severity}: {len(failing)} of {len(results)} check(s) flagged",
            inputs={"config": report.as_dict()["config"]},
            outputs={"severity": report.severity, "flagged": failing, "counts": {c.name: c.count for c in results}},
        ),
    )
    return report


def metrics_of(store: GraphStore, results: list[CheckResult]) -> dict[str, float]:
    by = {c.name: c for c in results}
    metrics: dict[str, float] = {
        "orphan_rate": round(by["orphan_concepts"].ratio, 4),
        "provenance_completeness": round(1.0 - by["provenance_complete"].ratio, 4),
        "dangling_references": by["no_dangling_references"].count,
        "contested_flag_accuracy": round(1.0 - by["disputed_iff_contradicted"].ratio, 4),
    }
    metrics.update({f"{c.name}_count": c.count for c in results})
    metrics.update(store.query(cypher.GRAPH_COUNTS)[0])
    return metrics
