"""What a reader makes of a document: passages of prose under their section path, table
rows kept as structured rows, and the links each passage makes."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

SECTION_JOINER = " > "
_SPACE_BEFORE_MARK = re.compile(r"\s+([.,;:!?)])")


def tidy(words: str) -> str:
    """Words on one line, without the space a dropped image or tag left before punctuation."""
    return _SPACE_BEFORE_MARK.sub(r"\1", " ".join(words.split()))


@dataclass(frozen=True)
class Link:
    """A link's anchor text and target: evidence that the passage refers to what it names."""

    text: str
    target: str


@dataclass(frozen=True)
class Passage:
    """A paragraph or list item of prose; ``section`` is the path of headings above it."""

    text: str
    section: tuple[str, ...] = ()
    links: tuple[Link, ...] = ()
    # The term a definition-list item defines ("**Server-side apply** — the default for new
    # releases", "`--wait`: waits until ..."): the item's text opens with it.
    term: str = ""

    @property
    def section_path(self) -> str:
        return SECTION_JOINER.join(self.section)


@dataclass(frozen=True)
class TableRow:
    """One body row of a table, as (header, cell) pairs in column order."""

    cells: tuple[tuple[str, str], ...]
    section: tuple[str, ...] = ()


@dataclass(frozen=True)
class Document:
    title: str  # "" when the document names none; the caller falls back to the file name
    passages: tuple[Passage, ...] = ()
    rows: tuple[TableRow, ...] = ()
    metadata: dict[str, Any] = field(default_factory=dict)  # front matter, <meta>: never prose

    def sections(self) -> list[tuple[str, list[Passage]]]:
        """The passages grouped by section path, in document order: a section that comes
        back after another (never in markdown, possible in a page) is a new group."""
        groups: list[tuple[str, list[Passage]]] = []
        for passage in self.passages:
            path = passage.section_path
            if groups and groups[-1][0] == path:
                groups[-1][1].append(passage)
            else:
                groups.append((path, [passage]))
        return groups
