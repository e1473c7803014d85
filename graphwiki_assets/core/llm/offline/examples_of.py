"""Kinds a text states by giving examples: "inference engines like vLLM", "databases such as
MySQL and PostgreSQL", "registries including Harbor", "MinIO and other object stores".

These are Hearst's lexico-syntactic patterns (1992), the classic evidence that a name is an
instance of a kind: the noun phrase before "such as", "like" or "including", or after "and
other", names the kind of everything the pattern lists. The kind is the phrase's head noun,
which the taxonomy maps like any stated kind ("engine" is a product under the general
preset, "function" a concept). The parser often attaches "like X" to the verb ("covers
engines like X"), so the kind is the noun written just before the marker, as the pattern
defines it.
"""

from __future__ import annotations

from typing import Any

from graphwiki_assets.core.llm.offline.parsed_names import Candidate, Names

_MARKERS = frozenset({"like", "including"})


def _listed(first: Any) -> list[Any]:
    """The token and every one coordinated with it ("MySQL, PostgreSQL and MariaDB")."""
    out, todo = [], [first]
    while todo:
        t = todo.pop()
        out.append(t)
        todo.extend(c for c in t.children if c.dep_ == "conj")
    return out


def _kind_word(token: Any) -> str | None:
    """A common noun that can name a kind: a word, not a name, a number or a pronoun."""
    lower = token.is_lower or (token.is_sent_start and token.text[1:].islower())  # "Databases such as"
    if token.pos_ != "NOUN" or not token.is_alpha or token.is_stop or not lower:
        return None
    return token.lemma_.lower()


def _examples(sentence: Any) -> list[tuple[str, Any]]:
    """(kind word, an example's token) for each pattern in a sentence."""
    found: list[tuple[str, Any]] = []
    doc = sentence.doc
    for t in sentence:
        kind, examples = None, []
        if t.lower_ in _MARKERS and t.dep_ == "prep" and t.i > sentence.start:
            kind = _kind_word(doc[t.i - 1])  # "engines like vLLM"
            examples = [c for c in t.children if c.dep_ == "pobj"]
        elif t.lower_ == "as" and t.dep_ == "prep":
            before = doc[t.i - 1] if t.i > sentence.start else None
            if before is not None and before.lower_ == "such" and t.i - 1 > sentence.start:
                kind = _kind_word(doc[t.i - 2])  # "databases such as MySQL"
            elif t.head.pos_ == "NOUN" and any(c.lower_ == "such" for c in t.head.children):
                kind = _kind_word(t.head)  # "such databases as MySQL"
            examples = [c for c in t.children if c.dep_ == "pobj"]
        elif t.dep_ == "conj" and any(c.dep_ == "amod" and c.lower_ == "other" for c in t.children):
            kind = _kind_word(t)  # "MinIO and other object stores"
            first = t.head
            while first.dep_ == "conj" and first.head.i < first.i:
                first = first.head  # "MySQL, PostgreSQL and other databases": from the first
            examples = [first] if first.i < t.i else []
        if kind:
            found += [(kind, e) for first in examples for e in _listed(first) if e.i != t.i]
    return found


def state_kinds_by_example(sentences: list[Any], names: Names) -> None:
    """Give each name a pattern lists as an example its kind, unless a sentence already
    stated one ("X is a Y" outranks an example). Only a name is an instance of the kind: a
    common noun listed so ("files and other locations") is a narrower kind, not a thing of it."""
    spans = [(c, first.i, last.i) for c, first, last in names.spans if c.proper]
    for sentence in sentences:
        for kind, token in _examples(sentence):
            owner: Candidate | None = next((c for c, a, b in spans if a <= token.i <= b), None)
            if owner is not None and not owner.stated_type and owner.key != kind:
                owner.stated_type = kind
