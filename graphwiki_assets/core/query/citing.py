"""How an answer names the place a cited claim comes from: the file, and where in it (a
PDF's page, a Word file's or a page's heading), as a reader would cite it."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import PurePath

from graphwiki_assets.core.documents.model import SECTION_JOINER
from graphwiki_assets.core.query.models import ClaimRow


def cited_sections(claims: Iterable[ClaimRow]) -> dict[str, list[str]]:
    """Source id -> the sections the cited claims were read from, in first-cited order."""
    found: dict[str, list[str]] = {}
    for claim in claims:
        for place in claim.places:
            sections = found.setdefault(place["source"], [])
            if place["section"] not in sections:
                sections.append(place["section"])
    return found


def page_of(section: str) -> str:
    """The page part of a section ("p. 2" of "Gauges > p. 2"), or ""."""
    last = section.rsplit(SECTION_JOINER, 1)[-1]
    return last if last.startswith("p. ") else ""


def cited_as(path: str | None, sections: list[str]) -> str:
    """ "report.pdf, p. 2", "report.pdf, pp. 2, 5", "memo.docx, Schedule > Contacts", or the
    file name alone when no section is known."""
    name = PurePath(path).name if path else ""
    pages = [page for page in map(page_of, sections) if page]
    if pages:
        numbers = list(dict.fromkeys(p.removeprefix("p. ") for p in pages))
        return f"{name}, p. {numbers[0]}" if len(numbers) == 1 else f"{name}, pp. {', '.join(numbers)}"
    if sections:
        return f"{name}, {sections[0]}" if len(sections) == 1 else f"{name}, {'; '.join(sections[:3])}"
    return name
