"""Reading documents as documents: passages of prose under their headings, tables as rows,
links as evidence, and the date a source gives itself. One module per format; the list of
formats and their suffixes is ``formats.py``."""

from __future__ import annotations

from graphwiki_assets.core.documents.formats import (
    DOCX,
    HTML,
    MARKDOWN,
    MDX,
    PDF,
    SOURCE_SUFFIXES,
    TEXT,
    format_for,
    is_binary,
)
from graphwiki_assets.core.documents.html import read_html
from graphwiki_assets.core.documents.markdown import read_markdown
from graphwiki_assets.core.documents.model import Document
from graphwiki_assets.core.documents.plain import read_plain
from graphwiki_assets.core.documents.unreadable import DocumentUnreadable

__all__ = [
    "DOCX",
    "HTML",
    "MARKDOWN",
    "MDX",
    "PDF",
    "SOURCE_SUFFIXES",
    "TEXT",
    "DocumentUnreadable",
    "document_text",
    "format_of",
    "is_binary",
    "read_binary",
    "read_document",
]


def format_of(suffix: str) -> str:
    """The reader for a file suffix; a suffix no format lists is read as plain text."""
    found = format_for(suffix)
    return found.name if found else TEXT


def read_document(text: str, fmt: str) -> Document:
    """A text format's document. A binary format's text is what its reader made of the
    file (``document_text``), read back here as plain paragraphs."""
    if fmt in (MARKDOWN, MDX):
        return read_markdown(text, mdx=fmt == MDX)
    if fmt == HTML:
        return read_html(text)
    return read_plain(text)


def read_binary(raw: bytes, fmt: str) -> Document:
    """A PDF's or Word file's document, or DocumentUnreadable with the reason."""
    if fmt == PDF:
        from graphwiki_assets.core.documents.pdf import read_pdf

        return read_pdf(raw)
    if fmt == DOCX:
        from graphwiki_assets.core.documents.docx import read_docx

        return read_docx(raw)
    raise ValueError(f"{fmt!r} is not a binary format")


def document_text(document: Document) -> str:
    """A document as plain text: its passages in order, each section's heading path before
    its first passage; what the graph keeps as the source's text for retrieval and quotes."""
    lines: list[str] = []
    for path, passages in document.sections():
        if path:
            lines.append(path)
        lines += [p.text for p in passages]
    return "\n\n".join(lines)
