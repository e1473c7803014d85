"""Kinds of things and the everyday words for them: which configured type a word means.

A taxonomy lists a type's name, its ``includes`` and a one-line definition. The extractor
(a model or the rules) answers in its own words ("key-value store", "utility", "maintainer")
and a question asks in the reader's ("which people", "list the orgs"): this table brings such
words to the taxonomy's types. Each kind is a set of common English words for one broad
kind of thing (the kinds of the preset types); a configured type takes a kind when its
name or one of its ``includes`` is among the kind's words, and a word reaches the type
through its kind only when exactly one type took that kind.
"""

from __future__ import annotations

import re

from graphwiki_assets.core.config.model import EntityType, Taxonomy
from graphwiki_assets.core.text.type_names import type_key

_KINDS: dict[str, str] = {
    "person": """person people persons human humans individual individuals who whom someone
        maintainer contributor committer reviewer approver author speaker developer engineer
        founder researcher scientist writer editor employee character""",
    "organization": """organization organisation org orgs company companies corporation firm business
        enterprise agency institution vendor startup foundation nonprofit government ministry
        university college school consortium association society community sig""",
    "place": """place places location locations city town village country region province state
        county territory continent island river lake mountain where""",
    "product": """product products software tool tools utility utilities program application app
        service platform system database datastore store engine library framework package sdk
        client server daemon binary cli command plugin extension operator runtime kernel
        distribution device hardware browser editor compiler proxy gateway dashboard""",
    "work": """work works creativework book books article articles post posts blog paper papers
        publication video talk talks film song album report documentation guide tutorial""",
    "event": """event events conference conferences summit meetup webinar workshop festival election
        war battle tournament competition ceremony outage incident""",
    "concept": """concept concepts idea ideas term terms notion method technique algorithm protocol
        standard specification format principle theory pattern approach field discipline""",
}
KIND_WORDS: dict[str, frozenset[str]] = {
    kind: frozenset(type_key(w) for w in words.split()) for kind, words in _KINDS.items()
}
_STOP = frozenset(
    """a an the and or of to in on as at by for from with such any other else anything that which
    is are be being named real made including like fits no above worth page one part thing
    something time type together kind sort built done""".split()
)
# Adjectives and participles in a definition ("geographic", "offered") name no kind of thing.
_NOT_NOUN = re.compile(r"(?:ed|ing|al|ic|ly|ful|ous|ive|able)$")


def kinds_of(word: str) -> list[str]:
    key = type_key(word)
    return [kind for kind, words in KIND_WORDS.items() if key in words]


def _type_words(t: EntityType) -> set[str]:
    return {type_key(t.name), *(type_key(w) for w in t.includes)}


def definition_words(t: EntityType) -> set[str]:
    """The nouns a type's one-line definition lists ("a company, institution, group ...")."""
    words = re.findall(r"[A-Za-z][A-Za-z\-]+", t.definition)
    return {type_key(w) for w in words if w.lower() not in _STOP and not _NOT_NOUN.search(w.lower())}


class KindIndex:
    """Word -> configured type, through the type's definition and the kinds above; a word two
    types could claim reaches neither (the fallback decides)."""

    def __init__(self, taxonomy: Taxonomy) -> None:
        claimed = {w: t.name for t in taxonomy.types for w in _type_words(t)}
        owners: dict[str, set[str]] = {}
        for t in taxonomy.types:
            for kind, words in KIND_WORDS.items():
                if _type_words(t) & words:
                    owners.setdefault(kind, set()).add(t.name)
        self.by_kind = {kind: next(iter(names)) for kind, names in owners.items() if len(names) == 1}
        self.by_definition: dict[str, str] = {}
        seen: dict[str, set[str]] = {}
        for t in taxonomy.types:
            for w in definition_words(t) - set(claimed):
                seen.setdefault(w, set()).add(t.name)
        self.by_definition = {w: next(iter(names)) for w, names in seen.items() if len(names) == 1}

    def type_for(self, word: str) -> str | None:
        """The type a word (or a phrase's last word: "key-value store") means, if one."""
        word = (word.split() or [""])[-1].split("-")[-1]
        key = type_key(word)
        if not key:
            return None
        if key in self.by_definition:
            return self.by_definition[key]
        found = {self.by_kind[k] for k in kinds_of(word) if k in self.by_kind}
        return next(iter(found)) if len(found) == 1 else None

    def words_for(self, type_name: str) -> set[str]:
        """Every word that means ``type_name`` here: for a question's "list the people"."""
        out = {w for w, t in self.by_definition.items() if t == type_name}
        for kind, owner in self.by_kind.items():
            if owner == type_name:
                out |= KIND_WORDS[kind]
        return out


def type_words(type_name: str) -> set[str]:
    """The words a question may ask for a type by: its name's key and every word of the
    kinds its name belongs to ("Person": people, persons, who, maintainers; "Organization":
    companies, orgs). A multi-word name ("Creative Work") is also asked for by its last word."""
    keys = {type_key(type_name), type_key(type_name.split()[-1]) if type_name.split() else ""} - {""}
    out = set(keys)
    for words in KIND_WORDS.values():
        if keys & words:
            out |= words
    return out
