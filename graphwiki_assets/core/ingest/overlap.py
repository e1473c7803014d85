"""Lexical evidence that two mentions of one source may name one thing: a shared word of
their normalised names, or one name being the other's initials ("ibm" / "international
business machines").

A long document has thousands of mentions, and comparing each with every earlier one is
quadratic in Python; ``SourceIndex`` answers "which earlier mentions overlap this one"
from inverted indexes instead, with exactly the answers ``names_overlap`` gives pairwise.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from graphwiki_assets.core.ingest.models import Mention


def _initials(key: str) -> str:
    return "".join(word[0] for word in key.split() if word)


@dataclass(frozen=True)
class NameForms:
    words: frozenset[str]  # every word of every key
    compact: frozenset[str]  # each key without spaces
    initials: frozenset[str]  # each key's initials

    @classmethod
    def of(cls, mention: Mention) -> NameForms:
        return cls(
            words=frozenset(w for k in mention.keys for w in k.split()),
            compact=frozenset(k.replace(" ", "") for k in mention.keys),
            initials=frozenset(_initials(k) for k in mention.keys),
        )


def forms_overlap(a: NameForms, b: NameForms) -> bool:
    return bool(a.words & b.words or a.compact & b.initials or b.compact & a.initials)


def names_overlap(a: Mention, b: Mention) -> bool:
    """Lexical evidence that two names may denote one thing: a shared word, or initials."""
    return forms_overlap(NameForms.of(a), NameForms.of(b))


class SourceIndex:
    """The mentions of one source seen so far, indexed by word, compact key and initials."""

    def __init__(self) -> None:
        self.forms: dict[int, NameForms] = {}
        self._by_word: dict[str, list[int]] = defaultdict(list)
        self._by_compact: dict[str, list[int]] = defaultdict(list)
        self._by_initials: dict[str, list[int]] = defaultdict(list)

    def add(self, mention: Mention) -> None:
        forms = self.forms[mention.index] = NameForms.of(mention)
        for word in forms.words:
            self._by_word[word].append(mention.index)
        for key in forms.compact:
            self._by_compact[key].append(mention.index)
        for key in forms.initials:
            self._by_initials[key].append(mention.index)

    def overlapping(self, mention: Mention) -> set[int]:
        """Indices of the added mentions whose names overlap ``mention``'s."""
        forms = self.forms.get(mention.index) or NameForms.of(mention)
        found: set[int] = set()
        for word in forms.words:
            found.update(self._by_word.get(word, ()))
        for key in forms.compact:  # mention's name is their initials
            found.update(self._by_initials.get(key, ()))
        for key in forms.initials:  # their name is the mention's initials
            found.update(self._by_compact.get(key, ()))
        found.discard(mention.index)
        return found


def earlier_overlaps(mentions: list[Mention]) -> dict[int, set[int]]:
    """For each mention, the earlier mentions of its own source whose names overlap it."""
    indexes: dict[int, SourceIndex] = defaultdict(SourceIndex)
    result: dict[int, set[int]] = {}
    for m in mentions:
        index = indexes[m.doc]
        result[m.index] = index.overlapping(m)
        index.add(m)
    return result
