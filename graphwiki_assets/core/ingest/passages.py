"""What extraction reads of a source: the reader's prose (core/documents), one piece per
section, a long section split into chunks, each piece carrying its heading path and the
anchor texts of its links.

Tables stay out: a row ("1m | default") is not a sentence, and a claim made of it would
have to invent the relation between its cells; the reader keeps them as rows, and the
source text (``Source.text``) keeps them for retrieval. Code, raw HTML, front matter and
template tags never reach here (the readers drop them).
"""

from __future__ import annotations

from dataclasses import dataclass

from graphwiki_assets.core.documents import read_document
from graphwiki_assets.core.documents.model import Passage
from graphwiki_assets.core.llm.chunking import chunk_text
from graphwiki_assets.core.llm.injection import strip_injections
from graphwiki_assets.core.sources import SourceDocument


@dataclass(frozen=True)
class SectionText:
    section: str  # the heading path, " > " joined
    text: str  # the section's prose, passages blank-line separated, cleaned of injections
    links: tuple[str, ...]  # anchor texts of the section's links, first seen first


@dataclass(frozen=True)
class Prose:
    sections: list[SectionText]
    removed_injections: list[str]


def prose_of(doc: SourceDocument) -> Prose:
    """A document's prose per section; sentences that address the model are removed first
    (source text is data)."""
    sections: list[SectionText] = []
    removed: list[str] = []
    for section, passages in read_document(doc.text, doc.format).sections():
        clean, dropped = strip_injections("\n\n".join(p.text for p in passages))
        removed += dropped
        if clean.strip():
            sections.append(SectionText(section=section, text=clean.strip(), links=_anchors(passages)))
    return Prose(sections=sections, removed_injections=removed)


def _anchors(passages: list[Passage]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(link.text for p in passages for link in p.links))


def chunks_of(section: SectionText, max_chars: int) -> list[tuple[str, tuple[str, ...]]]:
    """(text, links) per chunk of a section: a link goes with the chunks that say its text."""
    chunks = [c for c in chunk_text(section.text, max_chars=max_chars) if c.strip()]
    return [(chunk, tuple(a for a in section.links if a in chunk)) for chunk in chunks]
