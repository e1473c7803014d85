"""The date a source gives itself: front matter, else a dated file name, else the file time."""

from __future__ import annotations

import datetime as dt

import pytest

from graphwiki_assets.core.documents.dates import file_name_date, front_matter_date, parse_date, source_date
from graphwiki_assets.core.documents.markdown import read_markdown

D = dt.date


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (D(2019, 3, 5), D(2019, 3, 5)),
        (dt.datetime(2019, 3, 5, 23, 0, tzinfo=dt.UTC), D(2019, 3, 5)),
        ("2019-03-05", D(2019, 3, 5)),
        ("2019-03-05 10:00:00 +0100", D(2019, 3, 5)),  # Jekyll's form
        ("2019-03-05T10:00:00Z", D(2019, 3, 5)),
        ("March 5, 2019", D(2019, 3, 5)),
        ("5 Mar 2019", D(2019, 3, 5)),
        ("2019-13-40", None),
        ("soon", None),
        (2019, None),
        (None, None),
    ],
)
def test_front_matter_values_read_as_dates(value, expected):
    assert parse_date(value) == expected


def test_a_revision_date_wins_over_the_publication_date():
    assert front_matter_date({"date": "2015-01-02", "lastmod": "2023-06-07"}) == D(2023, 6, 7)
    assert front_matter_date({"title": "x", "publishDate": "2016-02-03"}) == D(2016, 2, 3)
    assert front_matter_date({"title": "x", "tags": ["2019-01-01"]}) is None


def front_matter(text: str) -> dict:
    return read_markdown(text).metadata


def test_front_matter_is_read_by_the_markdown_parser_not_from_any_dashes():
    text = "---\ntitle: Hello\ndate: 2019-03-05\n---\n# Hello\n\nText.\n"
    assert front_matter(text) == {"title": "Hello", "date": D(2019, 3, 5)}
    # a thematic break later in the file is not front matter, nor a block that is not YAML
    assert front_matter("# Title\n\n---\ndate: 2019-03-05\n---\n") == {}
    assert front_matter("---\n: : [unclosed\n---\nText\n") == {}


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("posts/2019-03-05-some-post.md", D(2019, 3, 5)),
        ("blog/2021/07/14/storage.md", D(2021, 7, 14)),
        ("docs/v3.5/install.md", None),
        ("docs/2019-99-99-bad.md", None),
        ("notes/12345678.md", None),
    ],
)
def test_dates_in_file_names_and_folders(path, expected):
    assert file_name_date(path) == expected


def test_the_order_front_matter_then_file_name_then_file_time():
    mtime = dt.datetime(2022, 1, 2, 12, tzinfo=dt.UTC).timestamp()
    assert source_date({"date": "2019-03-05"}, "2020-01-01-post.md", mtime) == (D(2019, 3, 5), "front_matter")
    assert source_date({}, "2020-01-01-post.md", mtime) == (D(2020, 1, 1), "file_name")
    assert source_date({}, "post.md", mtime) == (D(2022, 1, 2), "file_time")
    assert source_date({}, "post.md", None) == (None, "")
