"""Sentences: where they start and end, the first of a text, and texts clipped or joined
to a length.

A full stop after an initial, a known abbreviation or inside a number ends no sentence.
"""

from __future__ import annotations

import re

from graphwiki_assets.core.text.words import content_words

_ABBREVIATIONS = frozenset(
    """mr mrs ms dr prof sr jr st mt ft no vs etc inc ltd co corp dept est fig gen gov lt col
    sgt rev hon approx ca cf al vol pp ed eds jan feb mar apr jun jul aug sep sept oct nov dec
    e.g i.e u.s u.k u.n a.k.a ph.d b.c a.d""".split()
)


_SENT_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])")
_LIST_MARK = re.compile(r"^\s*(?:[-*+•]|\d+[.)])\s+")


def split_sentences(text: str) -> list[str]:
    """Sentences, with line breaks in lists and headings treated as boundaries.

    A full stop does not end a sentence after an initial ("G. Stanley Hall"), a known
    abbreviation ("Dr.", "U.S."), or inside a number.
    """
    out: list[str] = []
    for block in re.split(r"\n\s*\n|\n(?=\s*(?:[-*+•#]|\d+[.)])\s)", text):
        for line in _join_soft_breaks(block):
            out.extend(_split_line(line))
    return [s for s in out if s]


def _join_soft_breaks(block: str) -> list[str]:
    lines = [ln.strip() for ln in block.split("\n") if ln.strip()]
    joined: list[str] = []
    for ln in lines:
        if joined and not ln.startswith("#") and not joined[-1].startswith("#") and not _LIST_MARK.match(ln):
            joined[-1] += " " + ln
        else:
            joined.append(ln)
    return [_LIST_MARK.sub("", ln) for ln in joined]


def _split_line(line: str) -> list[str]:
    return [line[a:b].strip() for a, b in _line_spans(line)]


def _line_spans(line: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _SENT_END.finditer(line):
        before = line[start : m.start()].rstrip("\"')]")
        last = before.rsplit(None, 1)[-1] if before.split() else ""
        word = last.rstrip(".!?").lower()
        if last.endswith(".") and (
            word in _ABBREVIATIONS or re.fullmatch(r"[a-z]", word) or re.fullmatch(r"(?:[a-z]\.)+[a-z]", word)
        ):
            continue
        spans.append((start, m.start()))
        start = m.end()
    spans.append((start, len(line)))
    return [(a, b) for a, b in spans if line[a:b].strip()]


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) offsets of sentences, each line on its own: for editing text in place."""
    out: list[tuple[int, int]] = []
    offset = 0
    for line in text.splitlines(keepends=True):
        out.extend((offset + a, offset + b) for a, b in _line_spans(line.rstrip("\r\n")))
        offset += len(line)
    return out


def first_sentence(text: str, limit: int = 240) -> str:
    sents = split_sentences(text)
    return clip(sents[0] if sents else text, limit)


def clip(text: str, limit: int) -> str:
    text = text.strip()
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0]
    return cut + "…"


def distinct_sentences(texts: list[str], contained: bool = False) -> list[str]:
    """Each text once by its content words (and, with ``contained``, not when its words are
    inside an earlier one's), whitespace tidied and ending with a full stop."""
    seen: set[str] = set()
    out = []
    for text in texts:
        text = " ".join(text.split())
        key = " ".join(content_words(text))
        if not text or key in seen or (contained and any(key and key in s for s in seen)):
            continue
        seen.add(key)
        out.append(text if text[-1] in ".!?" else text + ".")
    return out


def join_within(pieces: list[str], limit: int) -> str:
    """Whole pieces, in order, while they fit in ``limit`` characters; the first one clipped
    when even it does not fit."""
    out = ""
    for piece in pieces:
        longer = f"{out} {piece}".strip()
        if len(longer) > limit:
            break
        out = longer
    return out or (clip(pieces[0], limit) if pieces else "")
