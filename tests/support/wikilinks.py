"""Reading wiki pages as a markdown viewer does: markdown-it (CommonMark) with the YAML front
matter plugin and an inline rule for Obsidian's ``[[target|label]]`` links."""

from __future__ import annotations

import yaml
from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from mdit_py_plugins.front_matter import front_matter_plugin


def _wikilink(state: StateInline, silent: bool) -> bool:
    if not state.src.startswith("[[", state.pos):
        return False
    end = state.src.find("]]", state.pos + 2)
    if end < 0:
        return False
    if not silent:
        target, _, label = state.src[state.pos + 2 : end].partition("|")
        token = state.push("wikilink", "", 0)
        token.meta = {"target": target, "label": label or target}
        token.content = label or target
    state.pos = end + 2
    return True


def parser() -> MarkdownIt:
    md = MarkdownIt("commonmark").use(front_matter_plugin)
    md.inline.ruler.before("link", "wikilink", _wikilink)
    return md


def tokens(text: str) -> list[Token]:
    return parser().parse(text)


def inline_children(text: str) -> list[Token]:
    return [child for t in tokens(text) if t.type == "inline" for child in t.children or []]


def front_matter(text: str) -> dict:
    [block] = [t for t in tokens(text) if t.type == "front_matter"]
    return yaml.safe_load(block.content)


def wiki_links(text: str) -> list[str]:
    """The targets of the page's ``[[links]]``, in order."""
    return [t.meta["target"] for t in inline_children(text) if t.type == "wikilink"]


def headings(text: str, level: int = 2) -> list[str]:
    found, toks = [], tokens(text)
    for i, t in enumerate(toks):
        if t.type == "heading_open" and t.tag == f"h{level}":
            found.append(toks[i + 1].content)
    return found


def section_items(text: str, heading: str) -> list[str]:
    """The text of each list item under the level-2 ``heading`` (links shown by their label)."""
    toks, items, inside, depth = tokens(text), [], False, 0
    for i, t in enumerate(toks):
        if t.type == "heading_open" and t.tag == "h2":
            inside = toks[i + 1].content == heading
        elif inside and t.type == "list_item_open":
            depth += 1
        elif inside and t.type == "list_item_close":
            depth -= 1
        elif inside and depth == 1 and t.type == "inline" and toks[i - 1].type == "paragraph_open":
            items.append("".join(c.content for c in t.children or [] if c.type in ("text", "wikilink", "code_inline")))
    return items
