"""Markdown tables for reports and Dagster metadata: one way to render a cell and a table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

CELL = 120  # characters per table cell


def cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        value = ", ".join(str(v) for v in value)
    if isinstance(value, float):
        value = f"{value:.4g}"
    text = str(value).replace("|", "\\|").replace("\n", " ")
    return text if len(text) <= CELL else text[:CELL - 1] + "…"


def table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return lines


def markdown_table(rows: Sequence[dict], columns: Sequence[str], empty: str = "_none_") -> str:
    """Dicts as a table with the given columns; ``empty`` when there are no rows."""
    if not rows:
        return empty
    return "\n".join(table(columns, [[row.get(c) for c in columns] for row in rows]))
