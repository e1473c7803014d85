"""The lint report as Dagster metadata: markdown, one table per check, one number per metric."""

from __future__ import annotations

import json

import dagster as dg

from graphwiki_assets.core.lint.checks import CheckResult
from graphwiki_assets.core.lint.markdown import columns
from graphwiki_assets.core.lint.report import LintReport

_TYPES = {bool: "bool", int: "int", float: "float"}


def _text(value) -> str | None:
    if value is None or isinstance(value, str):
        return value
    return ", ".join(map(str, value)) if isinstance(value, (list, tuple)) else json.dumps(value, default=str)


def check_table(result: CheckResult) -> dg.TableMetadataValue | dg.TextMetadataValue:
    if not result.rows:  # a table of no rows shows a lone header in the UI
        return dg.MetadataValue.text("none found")
    names = columns(result.rows)
    types = {}
    for name in names:
        seen = {type(r.get(name)) for r in result.rows if r.get(name) is not None}
        types[name] = _TYPES.get(seen.pop(), "string") if len(seen) == 1 else "string"
    records = [
        dg.TableRecord({n: _text(r.get(n)) if types[n] == "string" else r.get(n) for n in names}) for r in result.rows
    ]
    return dg.MetadataValue.table(
        records=records, schema=dg.TableSchema(columns=[dg.TableColumn(n, types[n]) for n in names])
    )


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
