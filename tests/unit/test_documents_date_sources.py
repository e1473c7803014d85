"""A source is dated by what it says about itself: every date key site generators and blog
exports write, in any spelling, a revision before a publication before a creation; else a
date anywhere in its file name; else its file time, and ``date_source`` says which."""

from __future__ import annotations

import datetime as dt

import pytest

from graphwiki_assets.core.documents import read_document
from graphwiki_assets.core.documents.dates import file_name_date, front_matter_date, parse_date, source_date
from graphwiki_assets.core.documents.markdown import read_markdown

D = dt.date
DAY = "2020-05-06"
MTIME = dt.datetime(2022, 1, 2, 12, tzinfo=dt.UTC).timestamp()


@pytest.mark.parametrize(
    "key",
    [
        "date",
        "created_at",
        "createdAt",
        "created",
        "creation_date",
        "date_created",
        "published",
        "published_at",
        "publishedAt",
        "publish_date",
        "publishDate",
        "pubDate",
        "pub_date",
        "lastmod",
        "last_modified",
        "lastModified",
        "last_modified_at",  # Jekyll's plugin
        "updated",
        "updated_at",
        "updatedAt",
        "updatedDate",  # Astro's blog template
        "modified",
        "dateModified",
        "datePublished",
        "dateCreated",
        "post_date",  # WordPress exports
        "post_modified",
        "Last-Modified",
        "PUBLISH_DATE",
        "Created-At",
    ],
)
def test_every_common_date_key_in_any_spelling_dates_the_source(key):
    assert front_matter_date({"title": "A post", key: DAY}) == D(2020, 5, 6)


def test_a_blog_post_dated_by_created_at_is_dated_by_its_front_matter_not_its_ingest():
    post = read_markdown("---\ntitle: Moving to Kelpstore\ncreated_at: 2019-04-22T08:15:00+02:00\n---\n\nWe moved.\n")
    assert source_date(post.metadata, "blog/moving-to-kelpstore.md", MTIME) == (D(2019, 4, 22), "front_matter")


def test_a_revision_date_wins_over_a_publication_date_which_wins_over_a_creation_date():
    created, published, updated = "2018-01-01", "2019-02-02", "2023-03-03"
    both = {"created_at": created, "published_at": published}
    assert front_matter_date({**both, "updated_at": updated}) == D(2023, 3, 3)
    assert front_matter_date(both) == D(2019, 2, 2)
    assert front_matter_date({"createdAt": created}) == D(2018, 1, 1)
    # a named publication date before a bare "date" (Hugo: date is when it was written)
    assert front_matter_date({"date": created, "publishDate": published}) == D(2019, 2, 2)
    assert front_matter_date({"date": published, "created": created}) == D(2019, 2, 2)


def test_a_key_whose_value_is_no_date_gives_way_to_the_next():
    assert front_matter_date({"updated": "Last Modified", "date": "2019-03-05"}) == D(2019, 3, 5)  # Eleventy's word
    assert front_matter_date({"published": False, "date": "2019-03-05"}) == D(2019, 3, 5)  # Jekyll's draft flag
    assert front_matter_date({"updated": "", "expiryDate": "2030-01-01", "tags": ["2019-01-01"]}) is None


def test_dates_one_level_down_in_a_date_key_are_read_but_not_in_other_mappings():
    assert front_matter_date({"date": {"created": "2022-01-31", "updated": "2022-02-02"}}) == D(2022, 2, 2)  # MkDocs
    assert front_matter_date({"last_update": {"date": "2021-07-01", "author": "ada"}}) == D(2021, 7, 1)  # Docusaurus
    assert front_matter_date({"meta": {"date": "2021-07-01"}}) is None


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2019-03-05T23:30:00-08:00", D(2019, 3, 5)),  # the day as written, not the day in UTC
        ("2019-03-05T10:00:00.000Z", D(2019, 3, 5)),
        ("2019-3-5", D(2019, 3, 5)),
        ("Tue, 05 Mar 2019 10:00:00 +0000", D(2019, 3, 5)),  # feeds' and WordPress's form
        ("Jul 08 2022", D(2022, 7, 8)),  # Astro's template
        (dt.datetime(2019, 3, 5, 10, tzinfo=dt.timezone(dt.timedelta(hours=2))), D(2019, 3, 5)),
        (1551744000, None),  # an epoch number is no date
        (1551744000.0, None),
        (True, None),
        ("1551744000", None),
        ("2019-02-30", None),
        ("0001-01-01", None),
        ("Last Modified", None),
    ],
)
def test_date_values(value, expected):
    assert parse_date(value) == expected


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("notes/release-notes-2021-03-05.md", D(2021, 3, 5)),
        ("blog/post_2019_04_22_intro.md", D(2019, 4, 22)),
        ("blog/2019-04-22.md", D(2019, 4, 22)),
        ("photos/IMG_20190305_1200.md", D(2019, 3, 5)),
        ("blog/notes-20190305.md", D(2019, 3, 5)),
        ("blog/2019-13-45-then-2020-01-02.md", D(2020, 1, 2)),  # the first real day
        ("blog/2019/04/22/intro.md", D(2019, 4, 22)),
        ("content/posts/2019-04-22-intro/index.md", D(2019, 4, 22)),  # a page bundle's folder
        ("blog/release-2019-13-45.md", None),  # no thirteenth month
        ("blog/2019_02_30.md", None),
        ("blog/2019-03_05.md", None),  # one separator throughout
        ("blog/ticket-120190305.md", None),  # part of a longer number
        ("blog/201903051.md", None),
        ("docs/v1.2.3/install.md", None),
        ("docs/release-v1.2.3.md", None),
        ("docs/tool-v20190305.md", None),
        ("docs/2019.03.05.md", None),  # dotted like a version
    ],
)
def test_a_date_anywhere_in_the_file_name(path, expected):
    assert file_name_date(path) == expected


def test_a_source_that_says_nothing_is_dated_by_its_file_time():
    assert source_date({"title": "Notes", "updated": "soon"}, "notes/v1.2.3.md", MTIME) == (D(2022, 1, 2), "file_time")
    assert source_date({}, "notes/release-notes-2021-03-05.md", MTIME) == (D(2021, 3, 5), "file_name")
    assert source_date({}, "notes/release-2019-13-45.md", MTIME) == (D(2022, 1, 2), "file_time")


def html(head: str, body: str = "<p>Text.</p>") -> dict:
    return read_document(f"<html><head>{head}</head><body>{body}</body></html>", "html").metadata


@pytest.mark.parametrize(
    "meta",
    [
        '<meta property="article:published_time" content="2020-05-06T09:00:00Z">',
        '<meta property="og:updated_time" content="2020-05-06T09:00:00+00:00">',
        '<meta itemprop="datePublished" content="2020-05-06">',
        '<meta itemprop="dateModified" content="2020-05-06">',
        '<meta name="date" content="2020-05-06">',
        '<meta name="DC.date" content="2020-05-06">',
        '<meta name="DC.date.issued" content="2020-05-06">',
        '<meta name="dcterms.created" content="2020-05-06">',
        '<meta http-equiv="Last-Modified" content="Wed, 06 May 2020 10:00:00 GMT">',
        '<script type="application/ld+json">{"@type": "BlogPosting", "datePublished": "2020-05-06"}</script>',
        '<script type="application/ld+json">{"@graph": [{"@type": "WebSite"}, '
        '{"@type": "Article", "dateModified": "2020-05-06"}]}</script>',
    ],
)
def test_an_html_page_is_dated_by_its_meta_and_json_ld(meta):
    assert front_matter_date(html(meta)) == D(2020, 5, 6)


def test_an_html_page_prefers_its_revision_date_and_its_meta_to_a_time_element():
    head = (
        '<meta itemprop="datePublished" content="2019-01-01">'
        '<meta property="article:modified_time" content="2021-02-02T10:00:00Z">'
    )
    assert front_matter_date(html(head, "<p><time datetime='2018-01-01'>then</time> Text.</p>")) == D(2021, 2, 2)
    assert front_matter_date(html("", "<p><time datetime='2018-01-01'>then</time> Text.</p>")) == D(2018, 1, 1)
    # a comment nested in the JSON-LD article is not the page; broken JSON-LD dates nothing
    nested = '{"@type": "Article", "comment": {"@type": "Comment", "dateCreated": "2024-01-01"}}'
    assert front_matter_date(html(f'<script type="application/ld+json">{nested}</script>')) is None
    assert front_matter_date(html('<script type="application/ld+json">{"datePublished": </script>')) is None
