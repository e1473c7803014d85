"""Text from the graph made inert in a page: a claim, a name or a title is shown as written,
never read as markup by CommonMark or by Obsidian's extensions (tags, math, comments,
highlights, wiki-links)."""

from __future__ import annotations

from urllib.parse import quote

# CommonMark inline syntax, plus Obsidian's: #tag, $math$, %%comment%%, ==highlight==, ^block.
ESCAPED = set("\\`*_[]<>|~#$&%=^!")
# Characters that open a block (heading, list, quote, table, thematic break) at a line's start.
BLOCK_STARTS = set("#>+-=:")


def inline(text: str | None) -> str:
    """``text`` on one line with every markup character escaped by a backslash (CommonMark
    defines a backslash before any ASCII punctuation as that character, literally)."""
    flat = " ".join((text or "").split())
    out = "".join(f"\\{ch}" if ch in ESCAPED else ch for ch in flat)
    return _no_block_start(out)


def _no_block_start(text: str) -> str:
    """A leading "1." or "1)" would start an ordered list, "+" or "-" a bullet."""
    if text[:1] in BLOCK_STARTS:
        return "\\" + text
    digits = len(text) - len(text.lstrip("0123456789"))
    if digits and text[digits : digits + 1] in (".", ")"):
        return f"{text[:digits]}\\{text[digits:]}"
    return text


def wiki_link(stem: str, label: str | None = None) -> str:
    """An Obsidian link to the page ``stem``; shown as ``label`` when that differs. A stem
    holds no link syntax (core/wiki/names.py); a label's ``|`` and brackets are dropped, as
    Obsidian reads no escapes inside a link."""
    if not label or label == stem:
        return f"[[{stem}]]"
    shown = " ".join("".join(" " if ch in "[]|" else ch for ch in label).split())
    return f"[[{stem}|{shown}]]"


def image(path: str, alt: str) -> str:
    """A markdown image of a relative path, percent-encoded so spaces and parentheses in a
    page name keep the link whole in every viewer."""
    return f"![{inline(alt)}]({quote(path)})"
