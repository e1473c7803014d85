"""Aliases a sentence states: "X, also known as Y", "X (Y)" with Y an acronym of X,
"X (French: Y)", "X (born Y)"."""

from __future__ import annotations

import re

from graphwiki_assets.core.llm.offline.candidates import Span
from graphwiki_assets.core.llm.offline.names import acronym_letters, is_acronym_of
from graphwiki_assets.core.llm.offline.surface import is_date_or_number, strip_article
from graphwiki_assets.core.text.words import STOPWORDS

_ALIAS_MARKER = re.compile(
    r"\b(?:(?:also|officially|commonly|better|otherwise|formerly|popularly|sometimes|often|usually|simply|previously)\s+)?"
    r"(?:known\s+as|called|referred\s+to\s+as|nicknamed|abbreviated(?:\s+as)?|a\.k\.a\.?|aka|dubbed)\s+",
    re.IGNORECASE,
)
_LIST_END = re.compile(
    r"\s+(?:is|was|are|were|has|had|will|which|who|that)\s|[;:()]|,\s*(?:and|or)?\s*(?=\w+\s+known\s+as)|$"
)
# "(French: Y)" names Y in a language; "(Default: 100)" or "(Note: ...)" names nothing, so
# the word before the colon must read as a language's name.
_PAREN_LEAD = re.compile(
    r"^(?:or\s+|formerly\s+|née\s+|born\s+|short\s+for\s+|abbreviated\s+(?:as\s+)?|a\.k\.a\.?\s+|aka\s+|"
    r"(?-i:[A-Z][a-z]+(?:sh|ese|an|ic|in|ek|ch|i)):\s*)",
    re.IGNORECASE,
)
# "MVCC stands for Multi-Version Concurrency Control", "MVCC: Multi-Version Concurrency
# Control, the ...": a term and the expansion the text states for it.
_STANDS_FOR = re.compile(
    r"(?P<short>[A-Za-z][\w&.\-]{1,12})\s+(?:stands\s+for|is\s+short\s+for|is\s+an?\s+(?:abbreviation|acronym)\s+"
    r"(?:of|for))\s+[\"']?(?P<long>[^.;:()\"]{3,100})"
)
_GLOSSARY = re.compile(r"^(?P<short>[A-Za-z][\w&.\-]{1,12})\s*(?::|\s[-–—])\s+[\"']?(?P<long>[^.;:()\"]{3,100})")


def split_alias_list(text: str) -> list[str]:
    items = re.split(r",\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+", text.strip().rstrip(",."))
    out = []
    for item in items:
        item = item.replace('"', "").strip()
        item = strip_article(item)
        first = item.split()[0].lower() if item else ""
        if item and len(item.split()) <= 6 and not is_date_or_number(item) and first not in STOPWORDS:
            out.append(item)
    return out


def stated_aliases(sentence: str, names: list[Span]) -> list[tuple[str | None, list[str], tuple[int, int]]]:
    """(owner, aliases, span of the alias list) for each "X, also known as Y" and
    "X (Y)" in the sentence. The owner is the name right before the marker; ``None``
    when there is none, in which case the aliases are concepts in their own right."""
    found: list[tuple[str | None, list[str], tuple[int, int]]] = []
    last_owner: str | None = None
    last_end = -1
    for m in _ALIAS_MARKER.finditer(sentence):
        tail = sentence[m.end() :]
        end = _LIST_END.search(tail)
        items = split_alias_list(tail[: end.start() if end else len(tail)])
        gap_from_last = sentence[last_end : m.start()] if last_end >= 0 else None
        if gap_from_last is not None and re.fullmatch(r"[\s,]*(?:and|or)?[\s,]*", gap_from_last):
            owner = last_owner
        else:
            owner = _name_before(sentence, m.start(), names)
        if owner is None and re.search(r"called|dubbed|nicknamed", m.group(), re.IGNORECASE):
            items = [it for it in items if it[:1].isupper()]  # "he called the police" names nothing
        span_end = m.end() + (end.start() if end else len(tail))
        found.append((owner, items, (m.start(), span_end)))
        last_owner, last_end = owner, span_end
    found.extend(stated_expansions(sentence))
    for m in re.finditer(r"\(([^()]{1,80})\)", sentence):
        inner = m.group(1).strip()
        if _ALIAS_MARKER.match(inner):
            continue  # "(also known as Y)": the marker pass above has it
        lead = _PAREN_LEAD.match(inner)
        owner = _name_before(sentence, m.start(), names)
        body = inner[lead.end() :] if lead else inner
        body = re.split(r";|,\s*translit", body)[0]
        if lead and owner:
            # a name in another language is one name, commas and all
            names_given = [body.strip()] if re.match(r"[A-Z][a-z]+:", inner) else split_alias_list(body)
            found.append((owner, [n for n in names_given if n], (m.start(), m.end())))
        elif acronym_letters(inner):
            long = _acronym_owner(sentence, m.start(), inner, owner)
            if long:
                found.append((long, [inner], (m.start(), m.end())))
        elif owner and acronym_letters(owner) and is_acronym_of(owner, inner):
            found.append((inner, [owner], (m.start(), m.end())))
    return found


def stated_expansions(sentence: str) -> list[tuple[str | None, list[str], tuple[int, int]]]:
    """(expansion, [term], span) for "TERM stands for ..." and a glossary line "TERM: ...",
    when the words after it spell the term (the expansion is the shortest such run)."""
    out: list[tuple[str | None, list[str], tuple[int, int]]] = []
    matches = [m for m in (_GLOSSARY.match(sentence), *_STANDS_FOR.finditer(sentence)) if m]
    for m in matches:
        short = m.group("short")
        if not acronym_letters(short):
            continue
        words = m.group("long").split()
        for k in range(2, min(len(words), 12) + 1):
            long = " ".join(words[:k]).rstrip(",")
            if is_acronym_of(short, long):
                out.append((long, [short], (m.start(), m.start("long") + len(long))))
                break
    return out


def _name_before(sentence: str, pos: int, names: list[Span]) -> str | None:
    best = None
    for span in names:
        if span.end <= pos:
            gap = re.sub(r"\([^()]*\)", "", sentence[span.end : pos])
            if re.fullmatch(r"[\s,\"(]*", gap):
                best = span.text
    return best


def _acronym_owner(sentence: str, pos: int, acronym: str, name: str | None) -> str | None:
    """What "(GDS)" abbreviates: the whole name right before the parenthesis when the
    acronym spells it or its tail ("Neo4j Graph Data Science (GDS)" defines GDS as the
    whole name as written), else the words before it that it spells ("entity
    resolution (ER)"). A tail joined to the rest by "of the" or a possessive is a name
    of its own ("Minnesota Wild of the National Hockey League (NHL)")."""
    if name and is_acronym_of(acronym, name):
        return name
    long = _long_form_before(sentence, pos, acronym)
    if name and long and f" {name}".endswith(f" {long}"):
        rest = name[: len(name) - len(long)].split()
        if rest and rest[-1][:1].isupper() and not re.search(r"'s?$", rest[-1]):
            return name
    return long


def _long_form_before(sentence: str, pos: int, acronym: str) -> str | None:
    """'entity resolution (ER)': the shortest run of words before the parenthesis that
    the acronym abbreviates."""
    before = re.findall(r"[\w'\-]+", sentence[:pos])
    letters = acronym_letters(acronym) or ""
    for k in range(2, min(len(before), len(letters) + 3) + 1):
        cand = " ".join(before[-k:])
        if cand.split()[0].lower() in STOPWORDS:
            continue
        if is_acronym_of(acronym, cand):
            return cand
    return None
