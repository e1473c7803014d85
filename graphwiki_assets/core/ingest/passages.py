"""What extraction reads of a source: the reader's prose (core/documents), one piece per
section, a long section split into chunks, each piece carrying its heading path, the
anchor texts of its links and the terms its list items define.

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
    terms: tuple[str, ...] = ()  # the terms its definition-list items define, in order


@dataclass(frozen=True)
class Prose:
    sections: list[SectionText]
    removed_injections: list[str]


def prose_of(doc: SourceDocument) -> Prose:
    """A document's prose per section; sentences that address the model are removed first
    (source text is data)."""
    sections: list[SectionText] = []
    removed: list[str] = []
    document = doc.document or read_document(doc.text, doc.format)
    for section, passages in document.sections():
        clean, dropped = strip_injections("\n\n".join(p.text for p in passages))
        removed += dropped
        if clean.strip():
            terms = tuple(dict.fromkeys(p.term for p in passages if p.term))
            sections.append(SectionText(section=section, text=clean.strip(), links=_anchors(passages), terms=terms))
    return Prose(sections=sections, removed_injections=removed)


def _anchors(passages: list[Passage]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(link.text for p in passages for link in p.links))


@dataclass(frozen=True)
class Chunk:
    text: str
    links: tuple[str, ...]  # a link goes with the chunks that say its text
    terms: tuple[str, ...]  # a defined term with the chunk that holds its item


def chunks_of(section: SectionText, max_chars: int) -> list[Chunk]:
    chunks = [c for c in chunk_text(section.text, max_chars=max_chars) if c.strip()]
    return [
        Chunk(chunk, tuple(a for a in section.links if a in chunk), tuple(t for t in section.terms if t in chunk))
        for chunk in chunks
    ]
