"""Claims: one per sentence that mentions a concept, about the concepts it mentions.

Mentions are found with one regex over every name, alias and short form (longest
first, acronyms case-sensitive, a plural "s"/"es" allowed). A sentence led by a pronoun
or by "The <noun>" also concerns the concept it refers back to: the one whose name or
type ends in that noun, else the document's subject.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from graphwiki_assets.core.llm.calls import ExtractedClaim
from graphwiki_assets.core.llm.offline.names import acronym_letters
from graphwiki_assets.core.normal_forms import norm_name
from graphwiki_assets.core.text.sentences import clip
from graphwiki_assets.core.text.words import STOPWORDS

_REFERS_BACK = re.compile(r"^(?:(?i:he|she|it|they|his|her|its|their|this|these)\b|[Tt]he((?:\s+[a-z][a-z\-]*){1,3}))")
_PRONOUN = re.compile(r"\b(?:he|she|it|its|his|her|they|their|them)\b", re.IGNORECASE)
MAX_ABOUT = 8


class Named(Protocol):
    name: str
    key: str
    type: str | None
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


def build_claims(sentences: list[str], chosen: Sequence[Named], title: Named | None) -> list[ExtractedClaim]:
    """Claims in sentence order. A sentence that names nothing is still about the
    document's title entity when it has a pronoun or the document has a title (a
    paragraph of an article is about the article's subject)."""
    mentions = Mentions(chosen)
    claims: list[ExtractedClaim] = []
    recent: list[Named] = []
    subject = title
    for sentence in sentences:
        if len(sentence.split()) < 3:
            continue
        about = mentions(sentence)
        referent = _referent(sentence, chosen, recent, subject)
        if referent is None and not about and (title is not None or _PRONOUN.search(sentence)):
            referent = subject
        if referent is not None and referent not in about:
            about.insert(0, referent)
        if about:
            claims.append(ExtractedClaim(text=sentence, about=[c.name for c in about[:MAX_ABOUT]]))
            subject = subject or about[0]
            recent = about + [c for c in recent if c not in about]
    return claims


def _referent(sentence: str, chosen: Sequence[Named], recent: list[Named], subject: Named | None) -> Named | None:
    lead = _REFERS_BACK.match(sentence)
    if not lead:
        return None
    if lead.group(1) is None:
        return subject
    # "The journal ...", "The default model ...": a concept whose name or type ends in one
    # of the next few words; nothing when none does.
    nouns = {norm_name(w) for w in lead.group(1).split() if w not in STOPWORDS}
    for c in recent + [c for c in chosen if c not in recent]:
        if c.key.split()[-1] in nouns or norm_name(c.type or "") in nouns:
            return c
    return None


def first_mention(sentences: list[str], c: Named, limit: int) -> str:
    found = Mentions([c])
    for s in sentences:
        if found(s):
            return clip(s, limit)
    return ""
