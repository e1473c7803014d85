"""Markdown read as markdown: a CommonMark token stream (markdown-it-py, with tables, the
front-matter plugin and the template-tag rule), walked once.

- Headings make the section path of what follows them.
- Paragraphs and list items (nested ones too) are prose passages; a blockquote's paragraphs
  are prose as well.
- Tables become ``TableRow``s (header -> cell), never prose.
- Fenced and indented code, raw HTML blocks and inline HTML are never read; inline code in
  a sentence stays as its text.
- Links are kept per passage (anchor text, target); images and badges are dropped.
- Front matter is metadata (its ``title`` names the document); template tags are dropped,
  and the body of a code-bearing pair (``highlight``) with them.
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.front_matter import front_matter_plugin

from graphwiki_assets.core.documents.front_matter import metadata_of
from graphwiki_assets.core.documents.model import Document, Link, Passage, TableRow, tidy
from graphwiki_assets.core.documents.templates import CODE_BODIES, TEMPLATE_TAG, read_tag, template_plugin


def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark").enable(["table", "strikethrough"]).use(front_matter_plugin).use(template_plugin)


def read_markdown(text: str) -> Document:
    tokens = _parser().parse(text)
    metadata = metadata_of(tokens)
    walker = _Walker()
    walker.walk(tokens)
    title = metadata.get("title")
    if not isinstance(title, str) or not title.strip():
        title = walker.first_heading
    return Document(
        title=" ".join(title.split()),
        passages=tuple(walker.passages),
        rows=tuple(walker.rows),
        metadata=metadata,
    )


class _Walker:
    def __init__(self) -> None:
        self.passages: list[Passage] = []
        self.rows: list[TableRow] = []
        self.headings: list[tuple[int, str]] = []  # (level, text) of the open sections
        self.first_heading = ""
        self.in_code_template = False  # inside {{< highlight >}} ... {{< /highlight >}}

    @property
    def section(self) -> tuple[str, ...]:
        return tuple(text for _, text in self.headings)

    def walk(self, tokens: list[Token]) -> None:
        i = 0
        while i < len(tokens):
            token = tokens[i]
            if token.type == "heading_open":
                self._heading(int(token.tag[1:]), tokens[i + 1])
            elif token.type == "table_open":
                close = next(j for j in range(i, len(tokens)) if tokens[j].type == "table_close")
                self._table(tokens[i:close])
                i = close
            elif token.type == "inline" and tokens[i - 1].type == "paragraph_open":
                self._paragraph(token)
            # fence, code_block, html_block and front_matter carry no prose: nothing to do
            i += 1

    def _heading(self, level: int, inline: Token) -> None:
        text, _ = self._inline(inline)
        while self.headings and self.headings[-1][0] >= level:
            self.headings.pop()
        if text:
            self.headings.append((level, text))
            self.first_heading = self.first_heading or text

    def _paragraph(self, inline: Token) -> None:
        text, links = self._inline(inline)
        if any(ch.isalnum() for ch in text):
            self.passages.append(Passage(text=text, section=self.section, links=tuple(links)))

    def _table(self, tokens: list[Token]) -> None:
        headers: list[str] = []
        row: list[str] = []
        in_head = False
        for token in tokens:
            if token.type in ("thead_open", "thead_close"):
                in_head = token.type == "thead_open"
            elif token.type == "inline":
                row.append(self._inline(token)[0])
            elif token.type == "tr_close":
                if in_head:
                    headers = row
                elif any(row):
                    names = headers + [f"column {n + 1}" for n in range(len(headers), len(row))]
                    self.rows.append(TableRow(cells=tuple(zip(names, row)), section=self.section))
                row = []

    def _inline(self, inline: Token) -> tuple[str, list[Link]]:
        """The words of an inline run and the links in it; markup, images and template tags dropped."""
        words: list[str] = []
        links: list[Link] = []
        anchor: list[str] | None = None
        target = ""
        for child in inline.children or []:
            if child.type == TEMPLATE_TAG:
                tag = read_tag(child.content)
                if tag.name in CODE_BODIES:
                    self.in_code_template = not tag.closing
                continue
            if self.in_code_template:
                continue
            if child.type == "link_open":
                anchor, target = [], str(child.attrs.get("href", ""))
            elif child.type == "link_close" and anchor is not None:
                name = tidy("".join(anchor))
                if name:
                    links.append(Link(text=name, target=target))
                anchor = None
            piece = _words_of(child)
            words.append(piece)
            if anchor is not None:
                anchor.append(piece)
        return tidy("".join(words)), links


def _words_of(token: Token) -> str:
    if token.type in ("text", "code_inline"):
        return token.content
    if token.type in ("softbreak", "hardbreak"):
        return " "
    return ""  # images, inline HTML, emphasis markers
