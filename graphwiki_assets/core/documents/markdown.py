"""Markdown read as markdown: a CommonMark token stream (markdown-it-py, with tables, the
front-matter plugin and the template-tag rule), walked once.

- Headings make the section path of what follows them.
- Paragraphs and list items (nested ones too) are prose passages; a blockquote's paragraphs
  are prose as well.
- Tables become ``TableRow``s (header -> cell), never prose.
- Fenced and indented code, raw HTML blocks and inline HTML are never read; inline code in
  a sentence stays as its text, a paragraph of nothing but inline code is a code sample.
- Links are kept per passage (anchor text, target); images and badges are dropped.
- Front matter is metadata (its ``title`` names the document); template tags are dropped,
  and the body of a code-bearing pair (``highlight``) with them.
- MDX (markdown with JSX, as documentation sites write it) is read the same way: a JSX
  element on its own lines is an HTML block to CommonMark and so never read, and a
  paragraph that is an ES module statement (``import X from '...'``, ``export ...``) is code.
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.front_matter import front_matter_plugin

from graphwiki_assets.core.documents.defined_terms import defined_term
from graphwiki_assets.core.documents.front_matter import metadata_of, toml_front_matter_plugin
from graphwiki_assets.core.documents.model import Document, Link, Passage, TableRow, tidy
from graphwiki_assets.core.documents.templates import CODE_BODIES, TEMPLATE_TAG, read_tag, template_plugin, without_tags


def _parser() -> MarkdownIt:
    return (
        MarkdownIt("commonmark")
        .enable(["table", "strikethrough"])
        .use(front_matter_plugin)
        .use(toml_front_matter_plugin)
        .use(template_plugin)
    )


def read_markdown(text: str, mdx: bool = False) -> Document:
    tokens = _parser().parse(text)
    metadata = metadata_of(tokens)
    walker = _Walker(mdx)
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


_ESM_KEYWORDS = ("import", "export")


def is_module_statement(inline: Token) -> bool:
    """An MDX paragraph that is an ES module statement: it opens with ``import``/``export``
    and reads like code (a ``from`` clause, braces or a closing semicolon), not a sentence
    that happens to start with the word ("Import your charts first.")."""
    text = inline.content.strip()
    first = text.split(maxsplit=1)[0] if text else ""
    if first not in _ESM_KEYWORDS:
        return False
    return " from " in text or text.endswith(";") or "{" in text or text.startswith(("export default", "export const"))


class _Walker:
    def __init__(self, mdx: bool = False) -> None:
        self.mdx = mdx
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
                self._paragraph(token, listed=i >= 2 and tokens[i - 2].type == "list_item_open")
            # fence, code_block, html_block and front_matter carry no prose: nothing to do
            i += 1

    def _heading(self, level: int, inline: Token) -> None:
        text, _ = self._inline(inline)
        while self.headings and self.headings[-1][0] >= level:
            self.headings.pop()
        if text:
            self.headings.append((level, text))
            self.first_heading = self.first_heading or text

    def _paragraph(self, inline: Token, listed: bool = False) -> None:
        if self.mdx and is_module_statement(inline):
            return
        text, links = self._inline(inline)
        # a paragraph that is nothing but code spans (a log line, a command) is a code sample
        words = any(c.type == "text" and any(ch.isalnum() for ch in c.content) for c in inline.children or [])
        if words and any(ch.isalnum() for ch in text):
            # only a list item defines a term: a paragraph's "**Note:**" is a label
            term = defined_term(inline) if listed else ""
            self.passages.append(Passage(text=text, section=self.section, links=tuple(links), term=term))

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
    if token.type == "text":
        return token.content
    if token.type == "code_inline":
        return without_tags(token.content)
    if token.type in ("softbreak", "hardbreak"):
        return " "
    return ""  # images, inline HTML, emphasis markers
