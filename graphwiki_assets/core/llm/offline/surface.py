"""The surface of a source text as the offline extractor reads it: tokenisation artefacts
and markdown decoration undone, words that start a sentence in capitals without naming
anything, dates and numbers, leading articles (the general word and sentence rules are in
core/text/)."""

from __future__ import annotations

import re
import unicodedata

from graphwiki_assets.core.text.words import STOPWORDS

# Words that often start a sentence in capitals without naming anything.
SENTENCE_STARTERS = STOPWORDS | frozenset(
    """according additionally afterwards again already another around because before besides
    born despite during each early eventually finally first following for furthermore hence
    here however in including instead later like many meanwhile moreover most much nevertheless
    next nonetheless often once overall perhaps previously recently since some sometimes soon
    still subsequently such then there therefore these this though throughout today together
    traditionally typically unlike until usually what when whereas whether while with yet
    currently generally initially originally notably similarly likewise consequently
    let note see use using given one two three four five six seven eight nine ten eleven twelve
    twenty hundred thousand million billion several both please""".split()
)

MONTHS = frozenset(
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec".split()
)
WEEKDAYS = frozenset("monday tuesday wednesday thursday friday saturday sunday".split())


def normalize_source(text: str) -> str:
    """Undo common tokenisation artefacts and markdown decoration, keep the words."""
    text = unicodedata.normalize("NFC", text)
    text = re.sub(r"``\s*", '"', text)
    text = re.sub(r"\s*''", '"', text)
    text = text.replace("\u201c", '"').replace("\u201d", '"')
    text = text.replace("\u2019", "'").replace("\u2018", "'")
    if is_tokenised(text):
        # a tokeniser's spaced hyphen ("Person - centered"); in written text " - " is a dash
        # between two things ("Porter Mixins - Sarah Christoff") and stays one
        text = re.sub(r"(?<=\w) - (?=\w)", "-", text)
    text = re.sub(r"\s+([,;:.!?)])", r"\1", text)
    text = re.sub(r"\(\s+", "(", text)
    text = re.sub(r"\s+'s\b", "'s", text)
    text = re.sub(r"(\*\*|__)(.+?)\1", r"\2", text)  # markdown bold
    text = re.sub(r"`([^`\n]+)`", r'"\1"', text)  # inline code reads like a quoted term
    text = re.sub(r"[ \t]+", " ", text)
    return text.strip()


def is_tokenised(text: str) -> bool:
    """A text written out by a tokeniser (a corpus's tokens joined by spaces): its commas, full
    stops and brackets stand apart from the words beside them, which written text never does twice."""
    return len(re.findall(r"\w [,.;:)](?:\s|$)|\( \w", text)) >= 2


def is_date_or_number(text: str) -> bool:
    toks = re.findall(r"[A-Za-z]+|\d+", text.lower())
    if not toks:
        return True
    return all(
        t.isdigit() or t in MONTHS or t in WEEKDAYS or t in {"bc", "ad", "bce", "ce", "th", "st", "nd", "rd", "s"}
        for t in toks
    )


def strip_article(text: str) -> str:
    for art in ("the ", "a ", "an "):
        if text.lower().startswith(art) and len(text) > len(art):
            return text[len(art) :]
    return text
