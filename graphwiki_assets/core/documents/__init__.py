"""Reading documents as documents: passages of prose under their headings, tables as rows,
links as evidence, and the date a source gives itself. One module per format."""

from __future__ import annotations

from graphwiki_assets.core.documents.html import read_html
from graphwiki_assets.core.documents.markdown import read_markdown
from graphwiki_assets.core.documents.model import Document
from graphwiki_assets.core.documents.plain import read_plain

MARKDOWN = "markdown"
MDX = "mdx"
HTML = "html"
TEXT = "text"
_FORMATS = {".md": MARKDOWN, ".markdown": MARKDOWN, ".mdx": MDX, ".html": HTML, ".htm": HTML}


def format_of(suffix: str) -> str:
    """The reader for a file suffix; every other accepted suffix is read as plain text."""
    return _FORMATS.get(suffix.lower(), TEXT)


def read_document(text: str, fmt: str) -> Document:
    if fmt in (MARKDOWN, MDX):
        return read_markdown(text, mdx=fmt == MDX)
    if fmt == HTML:
        return read_html(text)
    return read_plain(text)
