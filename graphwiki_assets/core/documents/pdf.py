"""PDF files read with pypdf (pure Python, maintained, no model weights): the text layer of
each page, as the page's lines with the size of their type.

A page is the PDF's own unit of reference, so every passage carries its page (``p. 2``) as
the innermost part of its section, under the headings found above it. A line set in type
clearly larger than the body's is a heading. What every page repeats at its top or bottom
(a running header or footer) and a page number alone on its line are layout, not text, and
are dropped, and so is a table of contents (a page most of whose lines end in a page
number: references to headings, not statements); a word broken by a hyphen at a line's end
is joined again. The date is the
document's own (its modification, else creation date); the title its metadata title, else
its first heading.
"""

from __future__ import annotations

import io
import re
import statistics
from collections import Counter
from dataclasses import dataclass
from typing import Any

from graphwiki_assets.core.documents.model import Document, Passage, tidy
from graphwiki_assets.core.documents.unreadable import DocumentUnreadable

HEADING_SCALE = 1.15  # a line's type this much larger than the body's makes it a heading
_PAGE_NUMBER = re.compile(r"^(page\s+)?\d{1,4}(\s*(of|/)\s*\d{1,4})?$", re.IGNORECASE)
_EDGE_LINES = 2  # how many lines at a page's top and bottom may be a running header or footer
_CONTENTS_ENTRY = re.compile(r"\S.*\s\.*\s*\d{1,4}$")  # "Deployment checks ..... 18", "Purpose   4"
_CONTENTS_LINES = 5  # a page needs this many such entries to be a table of contents


@dataclass
class Line:
    text: str
    size: float


def read_pdf(raw: bytes) -> Document:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(io.BytesIO(raw))
        if reader.is_encrypted and not reader.decrypt(""):
            raise DocumentUnreadable("the PDF is encrypted with a password: save an unprotected copy")
        pages = [_lines(page) for page in reader.pages]
        info = dict(reader.metadata or {})
    except DocumentUnreadable:
        raise
    except (PdfReadError, ValueError, KeyError, TypeError, AttributeError, OSError) as exc:
        raise DocumentUnreadable(f"the PDF cannot be read ({type(exc).__name__}: {exc})") from exc
    if not any(line.text for page in pages for line in page):
        raise DocumentUnreadable("the PDF has no text layer (a scanned document?): run OCR on it first")
    pages = [[] if _contents_page(page) else page for page in _without_running_lines(pages)]
    passages, headings = _passages(pages)
    title = str(info.get("/Title") or "").strip() or (headings[0] if headings else "")
    return Document(title=title, passages=tuple(passages), metadata=_dates(reader))


def _lines(page: Any) -> list[Line]:
    """The page's lines in reading order, each with the largest type set on it. A line ends
    where the text says so (a newline) or where the next run moves to another height."""
    lines: list[Line] = []
    parts: list[str] = []
    size, last_y = 0.0, None

    def visit(text: str, cm: list, tm: list, font: Any, font_size: float) -> None:
        nonlocal size, last_y
        if not text:
            return
        y = tm[5] * cm[3] + cm[5]
        if parts and last_y is not None and abs(y - last_y) > 1.0:
            end_line()
        run_size = font_size * (abs(tm[3] * cm[3]) or 1.0)
        pieces = text.split("\n")
        for n, piece in enumerate(pieces):
            if piece.strip():
                parts.append(piece)
                size = max(size, run_size)
            if n < len(pieces) - 1:
                end_line()
        last_y = y

    def end_line() -> None:
        nonlocal size
        text = " ".join("".join(parts).split())
        if text:
            lines.append(Line(text, size))
        parts.clear()
        size = 0.0

    page.extract_text(visitor_text=visit)
    end_line()
    return lines


def _without_running_lines(pages: list[list[Line]]) -> list[list[Line]]:
    """Each page without its page number and without the lines at its top or bottom that
    most pages repeat (digits counted alike: "Report 2023 - page 3" repeats as a form)."""
    form = lambda text: re.sub(r"\d+", "#", text.lower())  # noqa: E731
    edges: Counter[str] = Counter()
    for page in pages:
        seen = {form(line.text) for line in page[:_EDGE_LINES] + page[-_EDGE_LINES:]}
        edges.update(seen)
    running = {text for text, n in edges.items() if len(pages) >= 2 and n >= max(2, (len(pages) + 1) // 2)}
    kept = []
    for page in pages:
        body = []
        for i, line in enumerate(page):
            at_edge = i < _EDGE_LINES or i >= len(page) - _EDGE_LINES
            if _PAGE_NUMBER.match(line.text) or (at_edge and form(line.text) in running):
                continue
            body.append(line)
        kept.append(body)
    return kept


def _contents_page(page: list[Line]) -> bool:
    """A table of contents: most of the page's lines are entries ending in a page number."""
    entries = sum(1 for line in page if _CONTENTS_ENTRY.match(line.text))
    return entries >= _CONTENTS_LINES and 2 * entries > len(page)


def _passages(pages: list[list[Line]]) -> tuple[list[Passage], list[str]]:
    """Paragraphs under the nearest heading above them and their page; the headings found."""
    sizes = [line.size for page in pages for line in page for _ in line.text]
    body = statistics.median(sizes) if sizes else 0.0
    headings: list[str] = []
    passages: list[Passage] = []
    for number, page in enumerate(pages, start=1):
        full = statistics.median([len(line.text) for line in page]) if page else 0
        paragraphs: list[tuple[tuple[str, ...], list[str]]] = []
        open_paragraph = False
        for line in page:
            if body and line.size >= HEADING_SCALE * body and len(line.text) <= 120:
                headings.append(line.text)
                open_paragraph = False
                continue
            if not open_paragraph:
                paragraphs.append(((*headings[-1:], f"p. {number}"), []))
            paragraphs[-1][1].append(line.text)
            open_paragraph = not _ends_paragraph(line.text, full)
        passages += [Passage(text=tidy(_joined(lines)), section=section) for section, lines in paragraphs]
    return passages, headings


def _ends_paragraph(text: str, full: float) -> bool:
    """A line that ends a sentence and stops short of the page's usual line ends its paragraph."""
    return text.endswith((".", "!", "?", ":")) and len(text) < 0.8 * full


def _joined(lines: list[str]) -> str:
    """Lines as one text; a word hyphenated across a line break is one word again."""
    out = ""
    for line in lines:
        if out.endswith("-") and len(out) > 1 and out[-2].isalpha() and line[:1].islower():
            out = out[:-1] + line
        else:
            out = f"{out} {line}" if out else line
    return out


def _dates(reader: Any) -> dict[str, Any]:
    """The document's own dates, under the keys documents/dates.py reads."""
    found: dict[str, Any] = {}
    for key, attribute in (("modified", "modification_date"), ("created", "creation_date")):
        try:
            value = getattr(reader.metadata, attribute, None) if reader.metadata else None
        except (ValueError, TypeError):  # a date the file writes in no format pypdf knows
            value = None
        if value is not None:
            found[key] = value.date().isoformat()
    return found
