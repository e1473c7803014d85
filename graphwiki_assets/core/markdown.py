"""Markdown tables for reports (the overview, the CLI): one way to render a table, cells cut
short for reading. Dagster shows its tables as table metadata (``defs/metadata.py``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

CELL = 120  # characters per table cell


def escape(text: str) -> str:
    """One line, and a pipe in the text does not end the cell."""
    return text.replace("|", "\\|").replace("\n", " ")


def cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        value = ", ".join(str(v) for v in value)
    if isinstance(value, float):
        value = f"{value:.4g}"
    text = escape(str(value))
    return text if len(text) <= CELL else text[: CELL - 1] + "…"


def table(header: Sequence[str], rows: Sequence[Sequence[Any]], render: Callable[[Any], str] = cell) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(render(v) for v in row) + " |" for row in rows]
    return lines


def markdown_table(rows: Sequence[dict], columns: Sequence[str], empty: str = "_none_") -> str:
    """Dicts as a table with the given columns; ``empty`` when there are no rows."""
    if not rows:
        return empty
    return "\n".join(table(columns, [[row.get(c) for c in columns] for row in rows]))
