"""Page names: a concept's name made safe as a file name and an Obsidian link target, one
per concept, kept from one export to the next.

A page is linked as ``[[stem]]``, so a stem may hold none of the characters Obsidian
refuses in a note's name or reads as link syntax (``[ ] | # ^``), nor the ones Windows,
macOS or a shell refuse in a file name. Stems are compared case-folded: the file systems of
macOS and Windows do not tell ``Go.md`` from ``GO.md``."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

UNSAFE = set('\\/:*?"<>|[]#^') | {"\u00a0"}
MAX_STEM = 80  # characters of the name kept; room for a type and a short id after it
SHORT_ID = 8
# Names the wiki folder's own files take (index.md, log.md): a page of that name would make
# ``[[Index]]`` ambiguous in Obsidian.
RESERVED = frozenset({"index", "log"})


@dataclass(frozen=True)
class Named:
    """What a page name is made from."""

    id: str
    name: str
    type: str | None = None
    weight: int = 0  # independent sources: the best-supported concept keeps the plain name


def safe_stem(text: str) -> str:
    """``text`` as a file name: unsafe and control characters become spaces, runs of
    whitespace one space, no leading dot or trailing dot or space (Windows drops them)."""
    text = unicodedata.normalize("NFC", text)
    cleaned = "".join(" " if ch in UNSAFE or unicodedata.category(ch)[0] == "C" else ch for ch in text)
    stem = " ".join(cleaned.split())[:MAX_STEM].strip().lstrip(".").rstrip(". ")
    return stem or "untitled"


def shown_as(name: str, stem: str) -> str:
    """How a link to a page reads: the concept's name, or the page name when that tells two
    concepts of one name apart ("Mercury (Planet)")."""
    return name if stem == safe_stem(name) else stem


def candidates(concept: Named) -> list[str]:
    """The names a concept's page may take, most readable first; the last is unique because
    concept ids are."""
    base = safe_stem(concept.name)
    kind = safe_stem(concept.type) if concept.type else ""
    short = safe_stem(concept.id)[-SHORT_ID:]
    names = [base, f"{base} ({kind})"] if kind else [base]
    names.append(f"{base} ({kind}, {short})" if kind else f"{base} ({short})")
    names.append(f"{base} ({safe_stem(concept.id)})")
    return list(dict.fromkeys(names))


def assign_stems(concepts: Iterable[Named], previous: Mapping[str, str], taken: Iterable[str] = ()) -> dict[str, str]:
    """A stem per concept id, unique case-folded and never one of ``taken`` (files the
    export does not own) or a reserved name.

    A concept keeps the stem it had (``previous``) while that is still one of its
    candidates, so a second concept of the same name never renames the first one's page;
    the others take their first free candidate, best-supported first."""
    used = {t.casefold() for t in taken} | RESERVED
    ordered = sorted(concepts, key=lambda c: (-c.weight, c.name.casefold(), c.id))
    stems: dict[str, str] = {}
    for concept in ordered:
        kept = previous.get(concept.id)
        if kept and kept in candidates(concept) and kept.casefold() not in used:
            stems[concept.id] = kept
            used.add(kept.casefold())
    for concept in ordered:
        if concept.id in stems:
            continue
        stem = next(n for n in _numbered(candidates(concept)) if n.casefold() not in used)
        stems[concept.id] = stem
        used.add(stem.casefold())
    return stems


def _numbered(names: list[str]) -> Iterator[str]:
    """The candidates, then the last one numbered (only when foreign files hold them all)."""
    yield from names
    n = 2
    while True:
        yield f"{names[-1]} {n}"
        n += 1
