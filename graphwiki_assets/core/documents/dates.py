"""The date a source gives itself: what its front matter says, else a date in its file name
or folders (``2019-03-05-post.md``, ``release-notes-2021-03-05.md``, ``2019/03/05/post.md``,
as blog engines name posts), else the file's modification time. ``date_source`` says which,
so a reader knows how far to trust it: "front_matter" is the document's own metadata
(markdown front matter, an HTML page's ``<meta>`` or ``<time>``), "file_name" its name or
folders, "file_time" the file system's.
"""

from __future__ import annotations

import datetime as dt
import email.utils
import re
from collections.abc import Callable, Mapping
from pathlib import PurePath
from typing import Any

FRONT_MATTER = "front_matter"
PROPERTIES = "properties"  # a PDF's or Word file's own document properties
OPENING_LINES = "opening_lines"  # "Published 14 March 2023" in the first lines of the text
FILE_NAME = "file_name"
FILE_TIME = "file_time"
OPENING_PASSAGES = 5  # how far into a document its own dateline may stand
# A dateline: a label that says the date is the document's, then the date as written.
_DATELINE = re.compile(
    r"\b(?:published|updated|last\s+updated|revised|issued|dated|date)\s*(?:on|:)?\s*"
    r"(\d{4}-\d{1,2}-\d{1,2}|\d{1,2}\s+[A-Za-z]{3,9}\.?\s+\d{4}|[A-Za-z]{3,9}\.?\s+\d{1,2},?\s+\d{4})",
    re.IGNORECASE,
)


def date_key(name: object) -> str:
    """A metadata key with case, separators and camelCase folded away, so one table covers
    every spelling: ``publishDate``, ``publish_date`` and ``Publish-Date`` are ``publishdate``."""
    return "".join(ch for ch in str(name).lower() if ch.isalnum())


# The date keys of site generators (Hugo, Jekyll, Docusaurus, Gatsby, Eleventy, Astro, Pelican,
# MkDocs blog, Next.js/Contentlayer), of Ghost and WordPress exports and of an HTML page's
# <meta> and JSON-LD (Open Graph, Dublin Core, schema.org), as ``date_key`` spells them, in
# the order they are read. A revision date comes first: a page revised in 2024 states its
# facts as of 2024, whatever year it was first published. Then the publication date, the text
# as readers first saw it; a bare ``date`` after the named ones, because where a generator
# has both (Hugo's ``publishDate``) ``date`` is the day the page was written. The creation
# date, often a draft's, comes last.
REVISION_KEYS = (
    "lastmod",
    "lastmodified",
    "lastmodifiedat",
    "lastupdate",
    "lastupdated",
    "updated",
    "updatedat",
    "updateddate",
    "updatedon",
    "dateupdated",
    "modified",
    "modifiedat",
    "modifieddate",
    "datemodified",
    "postmodified",
    "postmodifiedgmt",
    "articlemodifiedtime",
    "ogupdatedtime",
    "dctermsmodified",
    "dcdatemodified",
)
PUBLICATION_KEYS = (
    "publishdate",
    "publisheddate",
    "published",
    "publishedat",
    "publishedon",
    "pubdate",
    "datepublished",
    "publicationdate",
    "postdate",
    "postdategmt",
    "articlepublishedtime",
    "dctermsissued",
    "dcdateissued",
    "citationpublicationdate",
    "date",
    "dcdate",
    "dctermsdate",
)
CREATION_KEYS = (
    "created",
    "createdat",
    "createddate",
    "createdon",
    "creationdate",
    "datecreated",
    "dctermscreated",
    "dcdatecreated",
)
DATE_KEYS = REVISION_KEYS + PUBLICATION_KEYS + CREATION_KEYS

_ISO_DAY = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})(?!\d)")
_WRITTEN = ("%B %d, %Y", "%b %d, %Y", "%B %d %Y", "%b %d %Y", "%d %B %Y", "%d %b %Y", "%Y/%m/%d")
# A day in a file or folder name: one separator throughout ("-", "_" or none) and no digit on
# either side, so a longer number is no date. A "v" before it makes it a version ("v20190305").
_NAMED_DAY = re.compile(r"(?<![\dvV])(\d{4})([-_]?)(\d{2})\2(\d{2})(?!\d)")


def parse_date(value: Any) -> dt.date | None:
    """A front-matter value as a date: YAML's and TOML's own dates and datetimes, ISO strings
    with or without a time and zone ("2019-03-05 10:00:00 +0100"), a few written forms
    ("March 5, 2019") and the RFC 2822 form of feeds ("Tue, 05 Mar 2019 10:00:00 +0000").
    A number is no date: an epoch count is as likely an id or a count of anything."""
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if not isinstance(value, str):
        return None
    text = value.strip()
    iso = _ISO_DAY.match(text)
    if iso:
        return _day(*iso.groups())
    for form in _WRITTEN:
        try:
            return _in_range(dt.datetime.strptime(text, form).date())
        except ValueError:
            continue
    try:
        return _in_range(email.utils.parsedate_to_datetime(text).date())
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


def _day(year: str, month: str, day: str) -> dt.date | None:
    try:
        return _in_range(dt.date(int(year), int(month), int(day)))
    except ValueError:
        return None


def _in_range(found: dt.date) -> dt.date | None:
    return found if 1900 <= found.year <= 2200 else None


def front_matter_date(metadata: Mapping[str, Any], *, nested: bool = False) -> dt.date | None:
    """The first of ``DATE_KEYS`` whose value reads as a date. A date key may hold its dates
    one level down (MkDocs blog's ``date: {created, updated}``, Docusaurus's
    ``last_update: {date}``); other mappings (``meta: {date}``) are not read."""
    keyed: dict[str, Any] = {}
    for name, value in metadata.items():
        keyed.setdefault(date_key(name), value)
    for key in DATE_KEYS:
        value = keyed.get(key)
        if isinstance(value, Mapping):
            found = None if nested else front_matter_date(value, nested=True)
        else:
            found = parse_date(value)
        if found is not None:
            return found
    return None


def file_name_date(path: str) -> dt.date | None:
    """A date anywhere in the file's name, else three folders ``YYYY/MM/DD`` on its path, else
    a date in the name of the folder that holds it (a page bundle, ``2019-03-05-post/index.md``)."""
    where = PurePath(path)
    found = _named_day(where.name)
    if found is not None:
        return found
    parts = where.parts
    for i in range(len(parts) - 3):
        year, month, day = parts[i : i + 3]
        if len(year) == 4 and len(month) == 2 and len(day) == 2 and (year + month + day).isdigit():
            found = _day(year, month, day)
            if found is not None:
                return found
    return _named_day(where.parent.name)


def _named_day(name: str) -> dt.date | None:
    for match in _NAMED_DAY.finditer(name):
        year, _, month, day = match.groups()
        found = _day(year, month, day)
        if found is not None:
            return found
    return None


def dateline_date(passages: list[str]) -> dt.date | None:
    """The date a document states for itself in its opening lines ("Published 14 March 2023",
    "Last updated: 2023-03-14"), as a report's or memo's first page does."""
    for text in passages[:OPENING_PASSAGES]:
        match = _DATELINE.search(text)
        if match and (found := parse_date(" ".join(match.group(1).replace(".", "").split()))) is not None:
            return found
    return None


def document_date(
    properties: Mapping[str, Any], passages: list[str], path: str, modified: float | None
) -> tuple[dt.date | None, str]:
    """(date, date_source) of a PDF or Word file: its properties', else its dateline's, else
    as for any file (the file name's, the file time's)."""
    return _first(
        (lambda: front_matter_date(properties), PROPERTIES),
        (lambda: dateline_date(passages), OPENING_LINES),
        (lambda: file_name_date(path), FILE_NAME),
        (lambda: file_time_date(modified), FILE_TIME),
    )


def source_date(metadata: Mapping[str, Any], path: str, modified: float | None) -> tuple[dt.date | None, str]:
    """(date, date_source): the front matter's, else the file name's, else the file time's."""
    return _first(
        (lambda: front_matter_date(metadata), FRONT_MATTER),
        (lambda: file_name_date(path), FILE_NAME),
        (lambda: file_time_date(modified), FILE_TIME),
    )


def file_time_date(modified: float | None) -> dt.date | None:
    return dt.datetime.fromtimestamp(modified, dt.UTC).date() if modified is not None else None


def _first(*rules: tuple[Callable[[], dt.date | None], str]) -> tuple[dt.date | None, str]:
    """The date of the first rule that finds one, and the rule's name."""
    for find, name in rules:
        if (found := find()) is not None:
            return found, name
    return None, ""
