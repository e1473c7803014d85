"""The document's own entity: its title, or the markdown heading it was titled from.

An article title ("Hello Love", "Canon law", "Saving Private Ryan") names what its
paragraph is about, so it is always kept. A markdown heading is often a section title
("Querying Neo4j", "Graph algorithms", "Overview"), so it is kept only when it names an
entity.
"""

from __future__ import annotations

import re

from graphwiki_assets.core.llm.offline.candidates import has_name_mark

_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)
_FILE_NAME = re.compile(r"(?i:.*\.(?:md|markdown|txt|rst|html?))|[a-z0-9]+(?:[-_][a-z0-9]+)*")
_CONNECTORS = frozenset("of the and & for on in at to a an de du la le von van der".split())
# Words that open a section title as a question or an instruction, not a name.
_QUESTION = frozenset("how what why when where which who whose can should does do is are".split())
_VERBS = frozenset(
    """add build check choose compare configure connect create debug define delete deploy enable
    export find get import install learn load manage migrate monitor query read remove run set
    start stop test tune understand update upgrade use write""".split()
)


def parse_title(title: str, text: str = "") -> tuple[str, str | None]:
    """'Brand (play)' -> ('Brand', 'Play'); 'Galicia (Spain)' -> ('Galicia', None);
    'Meehan, Wisconsin' -> ('Meehan', None) when the text calls it just Meehan."""
    title = title.strip()
    place = re.match(r"^(.+?),((?:\s+[A-Z][\w.'\-]*){1,3})$", title)
    if place and title.lower() not in text.lower() and place.group(1).lower() in text.lower():
        return place.group(1), None
    m = re.match(r"^(.+?)\s*\(([^()]+)\)\s*$", title)
    if not m:
        return title, None
    qualifier = m.group(2).split()
    last = qualifier[-1] if qualifier else ""
    kind = last.capitalize() if last.isalpha() and last.islower() else None
    return m.group(1), kind


def document_title(raw: str, text: str) -> tuple[str | None, str | None]:
    """(name, type) of the document's own entity, or (None, None). A file name
    ("harborline-cloud.md") counts only when the text uses it, spelled as the text
    spells it; a leading markdown heading that names an entity wins over it."""
    raw = raw.strip()
    body = _HEADING.sub("", text)
    if _FILE_NAME.fullmatch(raw):
        heading = re.match(r"\s*#+\s+(.+)", text)
        if heading and names_entity(parse_title(heading.group(1).strip(), text)[0], body):
            return parse_title(heading.group(1).strip(), text)
        stem = re.sub(r"[-_]+", " ", re.sub(r"\.\w+$", "", raw))
        # the stem as a word of its own, not a piece of a hyphenated one ("post" in "post-render")
        found = re.search(rf"(?<![\w-]){re.escape(stem)}(?![\w-])", body, re.IGNORECASE)
        return (found.group(), None) if found else (None, None)
    name, kind = parse_title(raw, text)
    if _HEADING.search(text) and not names_entity(name, body):
        return None, None  # a markdown document is titled by its heading
    return name, kind


def names_entity(heading: str, body: str) -> bool:
    """Whether a heading is a proper name rather than a section title. The body's own
    spelling decides where it can: a heading's first capital proves nothing, and Title
    Case is a heading convention, so "Graph Algorithms" is not a name when the body writes
    "graph algorithms"."""
    words = heading.split()
    if not words:
        return False
    as_written = re.search(rf"(?<!\w){re.escape(heading)}(?!\w)", body) is not None
    first = words[0].lower()
    if first in _QUESTION or first in _VERBS or (len(first) > 4 and first.endswith("ing") and len(words) > 1):
        return as_written  # "Querying Neo4j" is a task; "Saving Private Ryan" is written as a name
    later = [w for w in words[1:] if w.lower() not in _CONNECTORS]
    if not later:
        return as_written or has_name_mark(words[0])  # "Cypher" used in the text, "Neo4j"; not "Overview"
    if any(w[:1].islower() for w in later):
        return False  # a lowercase generic phrase; if the text defines it, the definition makes it a concept
    lowered = re.search(rf"(?<!\w){re.escape(heading)}(?!\w)", body, re.IGNORECASE) is not None
    return as_written or not lowered
