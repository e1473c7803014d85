"""Word files (.docx) read with python-docx (maintained, no model weights): the body in
document order. A paragraph styled as a heading (or the title) opens a section; other
paragraphs and list items are prose under it; tables are rows, with the first row as the
header. The date is the document's own (its properties' modified, else created date), the
title its properties' title, else its first title or heading.
"""

from __future__ import annotations

import io
import zipfile
from typing import Any

from graphwiki_assets.core.documents.model import Document, Passage, TableRow, tidy
from graphwiki_assets.core.documents.unreadable import DocumentUnreadable


def read_docx(raw: bytes) -> Document:
    import docx
    from docx.opc.exceptions import PackageNotFoundError

    try:
        document = docx.Document(io.BytesIO(raw))
    except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError) as exc:
        if raw[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1":  # an OLE container: encrypted, or a .doc renamed
            raise DocumentUnreadable("the Word file is encrypted or in the old .doc format: save it as .docx") from exc
        raise DocumentUnreadable(f"the Word file cannot be read ({type(exc).__name__}: {exc})") from exc
    headings: list[tuple[int, str]] = []  # the open sections: (level, heading)
    passages: list[Passage] = []
    rows: list[TableRow] = []
    first_heading = ""
    for block in document.iter_inner_content():
        section = tuple(text for _, text in headings)
        if isinstance(block, docx.table.Table):
            rows += _rows(block, section)
            continue
        text = tidy(block.text)
        if not text:
            continue
        level = _heading_level(block)
        if level is not None:
            headings = [(lvl, t) for lvl, t in headings if lvl < level] + [(level, text)]
            first_heading = first_heading or text
        else:
            passages.append(Passage(text=text, section=section))
    properties = document.core_properties
    if not passages and not rows:
        raise DocumentUnreadable("the Word file holds no text")
    return Document(
        title=(properties.title or "").strip() or first_heading,
        passages=tuple(passages),
        rows=tuple(rows),
        metadata=_dates(properties),
    )


def _heading_level(paragraph: Any) -> int | None:
    """0 for the title, 1-9 for "Heading N" (the built-in styles and any style based on them)."""
    style = paragraph.style
    while style is not None:
        name = (style.name or "").lower()
        if name == "title":
            return 0
        if name.startswith("heading"):
            digits = name.removeprefix("heading").strip()
            return int(digits) if digits.isdigit() else 1
        style = style.base_style
    return None


def _rows(table: Any, section: tuple[str, ...]) -> list[TableRow]:
    cells = [[tidy(cell.text) for cell in row.cells] for row in table.rows]
    if len(cells) < 2:
        return []
    header = cells[0]
    return [TableRow(cells=tuple(zip(header, row, strict=False)), section=section) for row in cells[1:]]


def _dates(properties: Any) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key in ("modified", "created"):
        value = getattr(properties, key, None)
        if value is not None:
            found[key] = value.date().isoformat()
    return found
