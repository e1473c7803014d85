"""Which of a document's concepts a sentence mentions: one regex over every name, alias and
short form (longest first, acronyms case-sensitive, a plural "s"/"es" allowed)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from graphwiki_assets.core.llm.offline.names import acronym_letters


class Named(Protocol):
    name: str
    key: str
    aliases: list[str]
    short_forms: list[str]


class Mentions:
    """Finds which of a fixed set of concepts a sentence mentions."""

    def __init__(self, concepts: Sequence[Named]) -> None:
        self.table: dict[str, Named] = {}
        parts: list[tuple[int, str]] = []
        for c in concepts:
            for form in [c.name, *c.aliases, *c.short_forms]:
                exact = bool(acronym_letters(form)) and " " not in form
                self.table.setdefault(form if exact else form.casefold(), c)
                pat = re.escape(form)
                if not exact and form[-1:].isalpha():
                    pat += "(?:e?s)?"
                parts.append((len(form), pat if exact else f"(?i:{pat})"))
        parts.sort(key=lambda p: -p[0])
        body = "|".join(p for _, p in parts)
        self.pattern = re.compile(rf"(?<!\w)(?:{body})(?!\w)") if parts else None

    def __call__(self, sentence: str) -> list[Named]:
        found: list[Named] = []
        if self.pattern is None:
            return found
        for m in self.pattern.finditer(sentence):
            text = m.group()
            c = self.table.get(text) or self.table.get(text.casefold())
            if c is None:
                low = text.casefold()
                c = self.table.get(low[:-1]) or self.table.get(low[:-2])
            if c is not None and c not in found:
                found.append(c)
        return found
