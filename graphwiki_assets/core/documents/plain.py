"""Plain text (and the markup formats read as text: reStructuredText, Org, AsciiDoc): the
paragraphs, blank-line separated, as passages with no section, exactly as the text was read
before documents had readers. The title is found as before (``sources.title_of``)."""

from __future__ import annotations

from graphwiki_assets.core.documents.model import Document, Passage


def read_plain(text: str) -> Document:
    paragraphs = [p.strip() for p in text.replace("\r\n", "\n").split("\n\n")]
    return Document(title="", passages=tuple(Passage(text=p) for p in paragraphs if p))
