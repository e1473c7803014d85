"""The date a source gives itself: what its front matter says, else a date in its file name
or folders (``2019-03-05-post.md``, ``2019/03/05/post.md``, as blog engines name posts), else
the file's modification time. ``date_from`` says which, so a reader knows how far to trust it.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import PurePath
from typing import Any

FRONT_MATTER = "front_matter"
FILE_NAME = "file_name"
FILE_TIME = "file_time"

# The keys static-site generators (Hugo, Jekyll, Docusaurus, Pelican, MkDocs blog) use. A
# revision date comes first: a page revised in 2024 states its facts as of 2024, whatever
# year it was first published; the publication date is the fallback.
DATE_KEYS = (
    "lastmod",
    "last_modified",
    "lastmodified",
    "last_update",
    "updated",
    "modified",
    "date",
    "publishdate",
    "published",
    "pubdate",
    "created",
)
_ISO_DAY = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_WRITTEN = ("%B %d, %Y", "%b %d, %Y", "%d %B %Y", "%d %b %Y", "%Y/%m/%d")


def parse_date(value: Any) -> dt.date | None:
    """A front-matter value as a date: YAML's own dates and datetimes, ISO strings with or
    without a time ("2019-03-05 10:00:00 +0100"), and a few written forms ("March 5, 2019")."""
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
            return dt.datetime.strptime(text, form).date()
        except ValueError:
            continue
    return None


def _day(year: str, month: str, day: str) -> dt.date | None:
    try:
        found = dt.date(int(year), int(month), int(day))
    except ValueError:
        return None
    return found if 1900 <= found.year <= 2200 else None


def front_matter_date(metadata: dict[str, Any]) -> dt.date | None:
    lowered = {str(k).lower().replace("-", "_"): v for k, v in metadata.items()}
    for key in DATE_KEYS:
        found = parse_date(lowered.get(key))
        if found is not None:
            return found
    return None


def file_name_date(path: str) -> dt.date | None:
    """A date that leads the file's name, or three folders ``YYYY/MM/DD`` on its path."""
    parts = PurePath(path).parts
    lead = _ISO_DAY.match(PurePath(path).name)
    if lead:
        found = _day(*lead.groups())
        if found is not None:
            return found
    for i in range(len(parts) - 3):
        year, month, day = parts[i : i + 3]
        if len(year) == 4 and len(month) == 2 and len(day) == 2 and (year + month + day).isdigit():
            found = _day(year, month, day)
            if found is not None:
                return found
    return None


def source_date(metadata: dict[str, Any], path: str, modified: float | None) -> tuple[dt.date | None, str]:
    """(date, date_from): the front matter's, else the file name's, else the file time's."""
    found = front_matter_date(metadata)
    if found is not None:
        return found, FRONT_MATTER
    found = file_name_date(path)
    if found is not None:
        return found, FILE_NAME
    if modified is not None:
        return dt.datetime.fromtimestamp(modified, dt.UTC).date(), FILE_TIME
    return None, ""
