"""HTML pages read with BeautifulSoup over lxml's parser: lxml is fast and repairs the broken
markup real pages have, and BeautifulSoup's tree (drop an element, walk the rest in document
order) keeps the reader short.

Only the main content is read: ``<main>`` or ``<article>`` when the page has one, else the
body; without what every page of a site repeats (navigation, asides, the site's header and
footer, not an article's own) and without what is not text (scripts, styles, forms, code). Headings make the section path,
paragraphs and list items are prose, tables are rows. The title is the first ``<h1>``, else
``<title>``; the date is a ``<meta>`` or JSON-LD date (Open Graph, Dublin Core, schema.org,
read with the keys and order of documents/dates.py), else the first ``<time datetime>`` of
the content.
"""

from __future__ import annotations

import json
from typing import Any

from bs4 import BeautifulSoup, NavigableString, Tag

from graphwiki_assets.core.documents.dates import DATE_KEYS, date_key, front_matter_date
from graphwiki_assets.core.documents.model import Document, Link, Passage, TableRow, tidy

_NOT_CONTENT = ("script", "style", "noscript", "template", "nav", "aside", "form", "svg", "iframe")
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
_PROSE = ("p", "li", "dd", "dt", "blockquote", "figcaption")


def read_html(text: str) -> Document:
    soup = BeautifulSoup(text, "lxml")
    linked = _linked_data_dates(soup)  # before the scripts go: JSON-LD is a <script>
    for element in soup.find_all(_NOT_CONTENT):
        element.decompose()
    for element in soup.find_all(["header", "footer"]):
        if element.find_parent(["main", "article"]) is None:
            element.decompose()  # the site's; an article's own header holds its title and date
    metadata = _metadata(soup, linked)  # after the site's parts are gone: a <time> in a footer dates nothing
    root = soup.find("main") or soup.find("article") or soup.body or soup
    for element in root.find_all("pre"):
        element.decompose()
    for element in root.find_all("br"):
        element.replace_with("\n")
    walker = _Walker()
    walker.walk(root)
    page_title = soup.title.get_text(" ", strip=True) if soup.title else ""
    return Document(
        title=walker.first_h1 or page_title,
        passages=tuple(walker.passages),
        rows=tuple(walker.rows),
        metadata=metadata,
    )


def _metadata(soup: BeautifulSoup, linked: dict[str, Any]) -> dict[str, Any]:
    """The page's ``<meta>`` by name (``name``, ``property``, ``itemprop`` or ``http-equiv``),
    then its JSON-LD dates; ``date`` the first ``<time datetime>`` when neither dates it."""
    found: dict[str, Any] = {}
    for meta in soup.find_all("meta"):
        key = meta.get("name") or meta.get("property") or meta.get("itemprop") or meta.get("http-equiv") or ""
        if key and meta.get("content"):
            found.setdefault(str(key).lower(), str(meta["content"]))
    for key, value in linked.items():
        found.setdefault(key, value)
    if front_matter_date(found) is None:
        time = soup.find("time", attrs={"datetime": True})
        if time is not None:
            found["date"] = str(time["datetime"])  # the key documents/dates.py reads
    return found


def _linked_data_dates(soup: BeautifulSoup) -> dict[str, Any]:
    """The date keys of the page's schema.org JSON-LD items, top-level or in an ``@graph`` (its
    Article, its WebPage). An item nested deeper (an article's comment) is not the page."""
    found: dict[str, Any] = {}
    for script in soup.find_all("script", attrs={"type": "application/ld+json"}):
        try:
            data = json.loads(script.get_text())
        except ValueError:
            continue  # broken JSON-LD is common and dates nothing
        items = data if isinstance(data, list) else [data]
        graphs = [item.get("@graph") for item in items if isinstance(item, dict)]
        items += [node for graph in graphs if isinstance(graph, list) for node in graph]
        for item in items:
            if isinstance(item, dict):
                for key, value in item.items():
                    if date_key(key) in DATE_KEYS:
                        found.setdefault(str(key), value)
    return found


class _Walker:
    def __init__(self) -> None:
        self.passages: list[Passage] = []
        self.rows: list[TableRow] = []
        self.headings: list[tuple[int, str]] = []
        self.first_h1 = ""

    def walk(self, root: Tag) -> None:
        for element in root.find_all([*_HEADINGS, *_PROSE, "table"]):
            if element.find_parent("table") is not None:
                continue  # a table's cells are its rows, read once with the table
            if element.name in _HEADINGS:
                self._heading(element)
            elif element.name == "table":
                self._table(element)
            else:
                self._prose(element)

    def _heading(self, element: Tag) -> None:
        level, text = int(element.name[1]), _text(element)
        while self.headings and self.headings[-1][0] >= level:
            self.headings.pop()
        if text:
            self.headings.append((level, text))
            if level == 1 and not self.first_h1:
                self.first_h1 = text

    def _prose(self, element: Tag) -> None:
        """The block's own words: a nested block (a sublist's item, a quote's paragraph) is a
        passage of its own, so a list item with a sublist is not read twice."""
        own = [s for s in element.find_all(string=True) if type(s) is NavigableString and _block_of(s) is element]
        text = tidy("".join(own))
        if not any(ch.isalnum() for ch in text):
            return
        anchors = [a for a in element.find_all("a", href=True) if _block_of(a) is element and _text(a)]
        links = tuple(Link(text=_text(a), target=str(a.get("href", ""))) for a in anchors)
        section = tuple(t for _, t in self.headings)
        self.passages.append(Passage(text=text, section=section, links=links))

    def _table(self, element: Tag) -> None:
        headers = [_text(th) for th in element.find_all("th")]
        section = tuple(t for _, t in self.headings)
        for tr in element.find_all("tr"):
            cells = [_text(td) for td in tr.find_all("td")]
            if any(cells):
                names = headers[: len(cells)] + [f"column {n + 1}" for n in range(len(headers), len(cells))]
                self.rows.append(TableRow(cells=tuple(zip(names, cells)), section=section))


def _block_of(node: Any) -> Tag | None:
    """The nearest block (prose, heading or table) that holds a node."""
    found = node.find_parent([*_PROSE, *_HEADINGS, "table"])
    return found if isinstance(found, Tag) else None


def _text(element: Tag) -> str:
    return tidy(element.get_text())
