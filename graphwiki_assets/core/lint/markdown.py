"""Markdown for the lint report: a summary, the metrics against targets, a table per check."""

from __future__ import annotations

from graphwiki_assets.core.lint.checks import CheckResult
from graphwiki_assets.core.lint.targets import TARGETS, meets_target
from graphwiki_assets.core.markdown import table

ICON = {"info": "ok", "warn": "WARN", "error": "ERROR"}


def columns(rows: tuple[dict, ...]) -> list[str]:
    names: list[str] = ["id"]  # Cypher maps do not keep their key order; the id leads
    for row in rows:
        names += [k for k in row if k not in names]
    return names


def check_section(result: CheckResult) -> list[str]:
    lines = [f"### {result.name} — {ICON[result.severity]}", "", result.description + ".", ""]
    if not result.rows:
        return lines + ["Nothing found.", ""]
    names = columns(result.rows)
    lines += table(names, [[row.get(n) for n in names] for row in result.rows])
    if result.name == "judgment_sample":
        lines.append(
            f"\n{result.count} sampled of {result.total} unreviewed; another sample: `graphwiki lint --seed N`."
        )
    elif result.count > len(result.rows):
        lines.append(f"\n… and {result.count - len(result.rows)} more ({result.count} in total).")
    return lines + [""]


def render(report) -> str:
    """``report`` is a ``LintReport``, untyped here because ``report.py`` imports this module."""
    lines = [
        f"# Graph lint — {report.generated_at:%Y-%m-%d %H:%M} UTC",
        "",
        f"Overall: **{ICON[report.severity]}**",
        "",
        "## Checks",
        "",
    ]
    # "listed": the rows shown below; a sample (judgment_sample) lists a few of its count
    lines += table(
        ["check", "result", "count", "of", "ratio", "listed"],
        [[c.name, ICON[c.severity], c.count, c.total, f"{c.ratio:.2%}", len(c.rows)] for c in report.checks],
    )
    lines += ["", "## Targets", ""]
    lines += table(
        ["metric", "value", "target", "met"],
        [
            [name, report.metrics[name], f"{op} {target}", "yes" if meets_target(name, report.metrics[name]) else "no"]
            for name, (op, target) in TARGETS.items()
        ],
    )
    lines += ["", "## Details", ""]
    for result in report.checks:
        lines += check_section(result)
    return "\n".join(lines)
