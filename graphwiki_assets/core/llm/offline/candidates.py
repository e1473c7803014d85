"""Concept candidates in one sentence: capitalised names ("University of Notre Dame",
"G. Stanley Hall"), acronyms and quoted terms."""

from __future__ import annotations

import re
from dataclasses import dataclass

from graphwiki_assets.core.llm.offline.names import acronym_letters, is_adjectival
from graphwiki_assets.core.llm.offline.surface import MONTHS, SENTENCE_STARTERS, is_date_or_number
from graphwiki_assets.core.text.type_names import PERSON_ROLES
from graphwiki_assets.core.text.words import STOPWORDS

_TOKEN = re.compile(r"(?:[A-Za-z]\.){2,}|[A-Z]\.(?=\s)|\d+(?:\.\d+)+|[^\W_](?:[\w'\-&+]*[^\W_])?")
_NUMBER = re.compile(r"\d+(?:\.\d+)*")
_UNITS = frozenset("hz khz mhz ghz kw mw gw kwh mwh kb mb gb tb km kg mg mm cm mph kmh ms ns rpm db".split())
_PARTICLES = frozenset("de da di du des del della la le van von der den ten ter al bin ibn y".split())
_INSTITUTIONS = frozenset(
    """society center centre institute council committee association foundation office agency
    department ministry commission organization organisation union fund league party school
    college museum academy alliance coalition movement campaign network federation board bureau
    service trust university""".split()
)


@dataclass
class Span:
    start: int
    end: int
    text: str
    kind: str = "name"  # name | acronym | quoted | known
    at_start: bool = False  # first word of the sentence, so its capital proves nothing


def has_name_mark(tok: str) -> bool:
    """A capital inside a word or a digit after its letters ("PageRank", "iPhone", "Neo4j",
    "K8s"): a name wherever it stands, even first in a sentence."""
    return bool(re.search(r"[a-z][A-Z]", tok) or re.match(r"[A-Za-z]+\d\w*$", tok))


def _capish(tok: str) -> bool:
    return tok[:1].isupper() or bool(re.search(r"[a-z][A-Z]|[A-Za-z]\d|\d[A-Za-z]", tok))


def _tokens(sentence: str, masked: list[Span]) -> list[tuple[str, int, int]]:
    """Word tokens; a masked span (a known name) is one token that counts as capitalised."""
    toks: list[tuple[str, int, int]] = [(s.text, s.start, s.end) for s in masked]
    for m in _TOKEN.finditer(sentence):
        if not any(s.start <= m.start() < s.end for s in masked):
            toks.append((m.group(), m.start(), m.end()))
    return sorted(toks, key=lambda t: t[1])


def capitalised_runs(sentence: str, masked: list[Span]) -> list[Span]:
    """Maximal runs of capitalised tokens, joined by name connectors ("of", "de", "&")."""
    toks = _tokens(sentence, masked)
    known = {(s.start, s.end) for s in masked}
    runs: list[Span] = []
    i, n = 0, len(toks)

    def joined(a: int, b: int) -> bool:
        gap = sentence[toks[a][2] : toks[b][1]]
        return gap.isspace() or (gap[:1] == "'" and gap[1:].isspace() and toks[a][0][-1:] in "nsNS")  # "Dunkin' Brands"

    def capish(k: int) -> bool:
        return (toks[k][1], toks[k][2]) in known or _capish(toks[k][0])

    while i < n:
        tok = toks[i][0]
        leading_number = (
            bool(_NUMBER.fullmatch(tok)) and i + 1 < n and capish(i + 1) and i > 0 and toks[i - 1][0].lower() == "the"
        )
        if not (capish(i) or leading_number):
            i += 1
            continue
        j = i
        while j + 1 < n and joined(j, j + 1):
            nxt = toks[j + 1][0]
            if capish(j + 1):
                j += 1
                continue
            if _NUMBER.fullmatch(nxt) and len(nxt) <= 6 and (j + 2 >= n or toks[j + 2][0].lower() not in MONTHS):
                j += 1  # "Paris 2024", "Route 17"
                break
            k = j + 1  # up to two connectors, then a capitalised token
            while (
                k < n and k - j <= 2 and joined(k - 1, k) and _connector(toks[k][0], toks[k - 1][0], toks[i][0].lower())
            ):
                k += 1
            if k > j + 1 and k < n and joined(k - 1, k) and capish(k):
                j = k
                continue
            break
        if i == j and (toks[i][1], toks[i][2]) in known:
            runs.append(Span(toks[i][1], toks[i][2], toks[i][0], "known", _starts_sentence(sentence, toks, i)))
        else:
            runs.extend(_clean_run(sentence, toks, i, j))
        i = j + 1
    return runs


def _connector(tok: str, prev: str, first_word: str) -> bool:
    low = tok.lower()
    if tok != low:
        return False
    if low in ("of", "&") or low in _PARTICLES:
        return True
    if low == "the":
        return prev.lower() == "of"
    # "University of Science and Technology", "Society for Neuroscience"
    return low in ("for", "on", "and") and first_word in _INSTITUTIONS


def _starts_sentence(sentence: str, toks: list[tuple[str, int, int]], i: int) -> bool:
    """At the start of the sentence or of a bracket, quotation or clause after a colon,
    where a capital letter proves nothing."""
    return i == 0 or sentence[: toks[i][1]].rstrip()[-1:] in ('"', "'", "(", ":", ";")


def _clean_run(sentence: str, toks: list[tuple[str, int, int]], i: int, j: int) -> list[Span]:
    at_start = _starts_sentence(sentence, toks, i)
    while i <= j and (
        toks[i][0].lower() in ("the", "a", "an", "of", "&") or (at_start and toks[i][0].lower() in SENTENCE_STARTERS)
    ):
        i += 1
        at_start = False
    while j >= i and (toks[j][0].lower() in STOPWORDS or toks[j][0].lower() in _PARTICLES):
        j -= 1
    if j < i:
        return []
    if j - i >= 8:  # too long for one name: split at "of the" / "and" ("Chairman of the Board of the ...")
        cuts = [k for k in range(i + 1, j) if toks[k][0] == "and" or (toks[k][0] == "of" and toks[k + 1][0] == "the")]
        if not cuts:
            return []
        bounds = [i - 1, *cuts, j + 1]
        return [span for a, b in zip(bounds, bounds[1:]) for span in _clean_run(sentence, toks, a + 1, b - 1)]
    words = [t[0] for t in toks[i : j + 1]]
    if len(words) > 8 or is_date_or_number(" ".join(words)):
        return []
    if words[0].lower() in MONTHS and all(w.isdigit() or w.lower() in MONTHS for w in words):
        return []
    nxt = toks[j + 1][0] if j + 1 < len(toks) else ""
    if is_adjectival(words) and nxt[:1].islower():
        return []  # "American author", "South Appalachian Mississippian culture"
    text = sentence[toks[i][1] : toks[j][2]]
    text = re.sub(r"'s$", "", text)
    lone = words[0].lower().removesuffix("'s")
    if len(words) == 1 and (
        re.fullmatch(r"[IVXLCDM]+", words[0])
        and len(words[0]) < 4
        or lone in SENTENCE_STARTERS
        or lone in PERSON_ROLES
        or lone in _UNITS
    ):
        return []  # a roman numeral, a common word ("First and ...") or a bare title ("President")
    kind = "acronym" if len(words) == 1 and acronym_letters(words[0]) else "name"
    if len(words) == 1 and len(text) < 2:
        return []
    return [Span(toks[i][1], toks[i][1] + len(text), text, kind, _starts_sentence(sentence, toks, i))]


_QUOTED = re.compile(r'"([^"\n]{2,60}?)\s*"')


def quoted_terms(sentence: str) -> list[Span]:
    out = []
    for m in _QUOTED.finditer(sentence):
        inner = m.group(1).strip().strip(",.;:")
        n_words = len(inner.split())
        if not inner or n_words > 6 or (inner[:1].islower() and n_words > 4) or is_date_or_number(inner):
            continue
        if re.search(r"[.!?]$", inner) or inner.lower() in STOPWORDS:
            continue
        out.append(Span(m.start(1), m.start(1) + len(inner), inner, "quoted"))
    return out
