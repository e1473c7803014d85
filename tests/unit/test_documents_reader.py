"""The document readers: prose passages under their section path, tables as rows, links
kept, and code, raw HTML, front matter, template tags and images never read as prose."""

from __future__ import annotations

import datetime as dt

from graphwiki_assets.core.documents import format_of, read_document
from graphwiki_assets.core.documents.dates import front_matter_date
from graphwiki_assets.core.documents.model import Link
from graphwiki_assets.core.documents.templates import read_tag
from tests.support.paths import REPO_ROOT

DOCUMENTS = REPO_ROOT / "tests" / "support" / "documents"
# Words that occur in the fixtures only inside markup that is not prose.
GUIDE_MARKUP = ["Brinemark", "Ventrix", "quillfin", "Zorbex", "Gorvane", "Snarkwell", "Plinthor", "Wumbleton", "Build"]
PAGE_MARKUP = ["Quorrax", "Fennimore", "Glimmerdock", "Sprocketine", "Morbingale", "Trellisar", "Footwhistle"]


def _guide():
    return read_document((DOCUMENTS / "kelpstore-guide.md").read_text(encoding="utf-8"), "markdown")


def _page():
    return read_document((DOCUMENTS / "tidewater-team.html").read_text(encoding="utf-8"), "html")


def test_markdown_prose_sits_under_its_heading_path():
    passages = [(p.section_path, p.text) for p in _guide().passages]
    assert passages == [
        (
            "Kelpstore guide",
            "Kelpstore is a log-structured storage engine built by the Tidewater team. "
            "Kelpstore keeps every write in an append-only journal.",
        ),
        ("Kelpstore guide", "Kelpstore compacts its journal every night."),  # a shortcode's body is prose
        ("Kelpstore guide > Install > Linux", "Kelpstore runs on Linux with the kelpd daemon."),
        ("Kelpstore guide > Install > Linux", "The Kelpstore daemon listens on port 7400 by default."),  # nested item
        ("Kelpstore guide > Install > Linux", "Kelpstore packages are signed by Harborline Security."),
        (
            "Kelpstore guide > Operations",
            "Compaction merges old segments. Kelpstore replicates its segments to Riverbank.",
        ),
    ]


def test_no_markup_code_or_metadata_is_read_as_prose():
    text = " ".join(p.text for p in _guide().passages)
    for word in GUIDE_MARKUP + ["{{", "{%", "<div", "```", "|", "ci.example.org"]:
        assert word not in text


def test_markdown_tables_are_rows_and_links_are_kept_per_passage():
    guide = _guide()
    [row] = guide.rows
    assert row.cells == (("Flag", "--quillfin-size"), ("Default", "64"), ("Meaning", "Zorbex segment size"))
    assert row.section == ("Kelpstore guide", "Install", "Linux")
    links = [link for p in guide.passages for link in p.links]
    # the badge is an image inside a link: no text, so no link either
    assert links == [
        Link("Harborline Security", "https://example.org/harborline"),
        Link("Riverbank", "riverbank.md"),
    ]


def test_front_matter_titles_and_dates_the_document_and_is_never_prose():
    guide = _guide()
    assert guide.title == "Kelpstore guide"
    assert guide.metadata["weight"] == 20 and guide.metadata["description"] == "Operating Brinemark clusters"
    assert front_matter_date(guide.metadata) == dt.date(2020, 4, 17)
    untitled = read_document("Intro line.\n\n## Setup\n\nText.\n", "markdown")
    assert untitled.title == "Setup" and untitled.metadata == {}


def test_template_tags_are_tokens_wherever_they_stand():
    doc = read_document(
        'Read {{< ref "install.md" >}} first, then {{ .Site.Title }} and {% include note.html %} go.\n\n'
        "{% highlight ruby %}\nputs 1\n{% endhighlight %}\n\nRun version `{{< param version >}}` or `v{{ .V }}.1`.\n",
        "markdown",
    )
    # a site generator expands tags inside code spans too
    assert [p.text for p in doc.passages] == ["Read first, then and go.", "Run version or v.1."]


def test_a_paragraph_of_nothing_but_inline_code_is_a_code_sample():
    doc = read_document(
        '> `{"level":"info","msg":"Kelpstore started"}`\n\n- `kelpctl put a 1`\n- Run `kelpctl`.\n', "markdown"
    )
    assert [p.text for p in doc.passages] == ["Run kelpctl."]
    assert read_tag("< /note >") == read_tag("% endnote %") and read_tag("< /note >").closing
    assert read_tag(" .Site.Title ").name == ""


def test_html_reads_the_main_content_only():
    page = _page()
    assert page.title == "Tidewater team"
    assert [(p.section_path, p.text) for p in page.passages] == [
        ("Tidewater team", "The Tidewater team maintains Kelpstore and the Riverbank replication service."),
        ("Tidewater team > Members", "Ada Lindqvist leads the Tidewater team."),
        ("Tidewater team > Members", "Ada Lindqvist joined Harborline in 2012."),
    ]
    assert page.passages[0].links == (Link("Kelpstore", "kelpstore-guide.html"),)
    text = " ".join(p.text for p in page.passages)
    assert not any(word in text for word in PAGE_MARKUP)
    assert [row.cells for row in page.rows] == [(("Name", "Morbingale Quist"), ("Role", "Oncall"))]
    assert front_matter_date(page.metadata) == dt.date(2017, 6, 30)


def test_an_html_page_without_main_or_h1_falls_back_to_its_body_and_title():
    page = read_document(
        "<html><head><title>Notes</title></head><body><div><p>First <b>bold</b>line.<br>Second.</p></div>"
        "<p><time datetime='2018-02-01'>Feb 1</time> Posted.</p></body></html>",
        "html",
    )
    assert page.title == "Notes"
    assert [p.text for p in page.passages] == ["First boldline. Second.", "Feb 1 Posted."]
    assert front_matter_date(page.metadata) == dt.date(2018, 2, 1)


def test_an_articles_own_header_is_content_the_sites_is_not():
    page = read_document(
        "<body><header><p>Glimmerdock site, built <time datetime='2030-01-01'>today</time></p></header>"
        "<article><header><h1>Kelpstore 3.0</h1>"
        "<time datetime='2021-05-06'>May 6</time></header><p>Kelpstore 3.0 is out.</p>"
        "<footer><p>Filed under storage.</p></footer></article><footer><p>Copyright Glimmerdock</p></footer></body>",
        "html",
    )
    assert page.title == "Kelpstore 3.0"
    assert [p.text for p in page.passages] == ["Kelpstore 3.0 is out.", "Filed under storage."]
    assert front_matter_date(page.metadata) == dt.date(2021, 5, 6)  # not the site header's build time


def test_plain_text_is_its_paragraphs():
    doc = read_document((DOCUMENTS / "notes.txt").read_text(encoding="utf-8"), "text")
    assert [p.text for p in doc.passages] == [
        "Plain notes",
        "Harborline Cloud runs on three regions. The Tidewater team owns the Kelpstore engine.",
    ]
    assert all(p.section == () for p in doc.passages)
    assert format_of(".MD") == "markdown" and format_of(".htm") == "html" and format_of(".rst") == "text"


MDX = """---
title: Tarn cranes
---
import Tabs from '@theme/Tabs';
import { Crane } from '../components';

# Tarn cranes

Import your crane plans before the harbour opens.

<Tabs>
  <Crane name="north" />
</Tabs>

A Tarn crane lifts containers off the ferries at Orrin.

export const meta = { draft: true };
"""


def test_mdx_is_markdown_whose_module_statements_and_jsx_are_never_prose():
    assert format_of(".mdx") == "mdx"
    doc = read_document(MDX, format_of(".mdx"))
    assert doc.title == "Tarn cranes"
    assert [p.text for p in doc.passages] == [
        "Import your crane plans before the harbour opens.",  # a sentence, not an import
        "A Tarn crane lifts containers off the ferries at Orrin.",
    ]
    assert all(p.section == ("Tarn cranes",) for p in doc.passages)
