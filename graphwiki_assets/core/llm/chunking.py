"""Splitting long text for extraction: on paragraph, then sentence, then word
boundaries, with a sentence-aligned overlap so a fact cut by a boundary is whole in one
of the two chunks."""

from __future__ import annotations

import re

from graphwiki_assets.core.text.sentences import sentence_spans


def _pieces(text: str, limit: int) -> list[tuple[str, str]]:
    """(separator, piece) pairs, each piece at most ``limit`` characters."""
    out: list[tuple[str, str]] = []
    for para in re.split(r"\n\s*\n", text):
        para = para.strip()
        if not para:
            continue
        sep = "\n\n"
        if len(para) <= limit:
            out.append((sep, para))
            continue
        for start, end in sentence_spans(para):
            sentence = para[start:end].strip()
            while len(sentence) > limit:
                cut = sentence.rfind(" ", 0, limit)
                cut = cut if cut > 0 else limit
                out.append((sep, sentence[:cut].strip()))
                sep, sentence = " ", sentence[cut:].strip()
            if sentence:
                out.append((sep, sentence))
            sep = " "
    return out


def _tail(chunk: str, overlap: int) -> str:
    """The last whole sentences of a chunk that fit in ``overlap`` characters."""
    if overlap <= 0:
        return ""
    tail = ""
    for start, end in reversed(sentence_spans(chunk)):
        sentence = chunk[start:end].strip()
        candidate = f"{sentence} {tail}".strip()
        if len(candidate) > overlap:
            break
        tail = candidate
    return tail


def chunk_text(text: str, max_chars: int = 6000, overlap: int = 300) -> list[str]:
    """Chunks of at most ``max_chars`` characters; each after the first repeats up to
    ``overlap`` characters of whole sentences from the end of the previous one."""
    if max_chars <= 0 or overlap < 0 or overlap * 2 >= max_chars:
        raise ValueError("need max_chars > 0 and 0 <= overlap < max_chars / 2")
    text = text.strip()
    if not text:
        return []
    if len(text) <= max_chars:
        return [text]
    chunks: list[str] = []
    current = ""
    has_new = False  # whether current holds more than the carried-over overlap
    for sep, piece in _pieces(text, max_chars - overlap - 2):
        candidate = f"{current}{sep}{piece}" if current else piece
        if len(candidate) <= max_chars:
            current, has_new = candidate, True
            continue
        chunks.append(current)
        tail = _tail(current, overlap)
        current = f"{tail}{sep}{piece}" if tail else piece
        has_new = True
    if current and has_new:
        chunks.append(current)
    return chunks
