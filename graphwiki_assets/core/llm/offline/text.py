"""Text utilities shared by the offline rules: normalising, sentences, words (the forms
names are compared in are core/normal_forms.py's).

Pure standard-library regex work; everything here is cheap enough to run on every
paragraph of a corpus.
"""

from __future__ import annotations

import re
import unicodedata

from graphwiki_assets.core.normal_forms import singular

STOPWORDS = frozenset(
    """a about above after again against all also although am an and any are as at be been
    before being below between both but by can could did do does doing down during each either
    else ever every few for from further had has have having he her here hers herself him himself
    his how however i if in into is it its itself just me might more most much must my myself
    neither no nor not now of off on once one only or other otherwise our ours ourselves out over
    own per same shall she should so some such than that the their theirs them themselves then
    there these they this those though through thus to too under until up upon us very via was we
    were what whatever when where whether which while who whom whose why will with within without
    would yet you your yours also its it's""".split()
)

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

_ABBREVIATIONS = frozenset(
    """mr mrs ms dr prof sr jr st mt ft no vs etc inc ltd co corp dept est fig gen gov lt col
    sgt rev hon approx ca cf al vol pp ed eds jan feb mar apr jun jul aug sep sept oct nov dec
    e.g i.e u.s u.k u.n a.k.a ph.d b.c a.d""".split()
)


def normalize_source(text: str) -> str:
    """Undo common tokenisation artefacts and markdown decoration, keep the words."""
    text = unicodedata.normalize("NFC", text)
    text = re.sub(r"``\s*", '"', text)
    text = re.sub(r"\s*''", '"', text)
    text = text.replace("\u201c", '"').replace("\u201d", '"')
    text = text.replace("\u2019", "'").replace("\u2018", "'")
    text = re.sub(r"(?<=\w) - (?=\w)", "-", text)  # "Person - centered" -> "Person-centered"
    text = re.sub(r"\s+([,;:.!?)])", r"\1", text)
    text = re.sub(r"\(\s+", "(", text)
    text = re.sub(r"\s+'s\b", "'s", text)
    text = re.sub(r"(\*\*|__)(.+?)\1", r"\2", text)  # markdown bold
    text = re.sub(r"`([^`\n]+)`", r'"\1"', text)  # inline code reads like a quoted term
    text = re.sub(r"[ \t]+", " ", text)
    return text.strip()


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


_WORD = re.compile(r"[^\W_](?:[\w'\-./&+]*[^\W_])?")


def words(text: str) -> list[str]:
    return _WORD.findall(text)


def stem(word: str) -> str:
    """A light suffix stripper: enough to match supports/support, increased/increases."""
    w = word.lower().replace("'s", "").strip("'")
    if len(w) <= 3:
        return w
    w = singular(w)
    for suffix in ("ing", "ed"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            w = w[: -len(suffix)]
            break
    if w.endswith("e") and len(w) > 3:
        w = w[:-1]
    return w


def content_words(text: str) -> list[str]:
    """Stemmed words that carry meaning (no stopwords), in order."""
    return [stem(w) for w in words(text) if w.lower() not in STOPWORDS]


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
