"""The lint report as Dagster metadata: markdown, one table per check, one number per metric."""

from __future__ import annotations

import dagster as dg

from graphwiki_assets.core.lint.checks import CheckResult
from graphwiki_assets.core.lint.markdown import columns
from graphwiki_assets.core.lint.report import LintReport
from graphwiki_assets.defs.metadata import rows_table


def check_table(result: CheckResult) -> dg.TableMetadataValue | dg.TextMetadataValue:
    # a table of no rows shows a lone header in the UI
    return rows_table(result.rows, columns(result.rows), empty="none found")


def report_metadata(report: LintReport) -> dict:
    meta: dict = {"report": dg.MetadataValue.md(report.markdown()), "severity": report.severity}
    for name, value in report.metrics.items():
        meta[name] = (
            dg.MetadataValue.float(float(value)) if isinstance(value, float) else dg.MetadataValue.int(int(value))
        )
    for result in report.checks:
        meta[f"check_{result.name}"] = check_table(result)
    return meta


def check_result(result: CheckResult) -> dg.AssetCheckResult:
    """info passes; warn and error fail with that severity (a warn does not block anything)."""
    severity = dg.AssetCheckSeverity.ERROR if result.severity == "error" else dg.AssetCheckSeverity.WARN
    return dg.AssetCheckResult(
        check_name=result.name,
        passed=result.passed,
        severity=severity,
        metadata={
            "count": result.count,
            "total": result.total,
            "ratio": float(result.ratio),
            "offending": dg.MetadataValue.json(list(result.offending)),
            "description": result.description,
        },
    )
