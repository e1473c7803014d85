"""A list item that defines a term: "**Server-side apply** — the default for new releases",
"`--wait`: waits until every pod is ready", "**Bug fixes:** until September".

Glossaries, option lists and feature lists are written this way in markdown: the term set
apart by emphasis or as code at the item's start, then a separator and what it is. The
emphasis is markup, gone from the passage's text, so the reader records the term beside the
text; the extractor makes it a concept defined by its item.
"""

from __future__ import annotations

from markdown_it.token import Token

from graphwiki_assets.core.documents.model import tidy

_OPEN = {"strong_open": "strong_close", "em_open": "em_close"}
_SEPARATORS = (":", "\u2014", "\u2013", "-")  # colon, em dash, en dash, hyphen
_MAX_TERM_WORDS = 8


def _words(token: Token) -> str:
    return token.content if token.type in ("text", "code_inline") else " " if token.type.endswith("break") else ""


def defined_term(inline: Token) -> str:
    """The term an inline run opens with, set apart and followed by a separator and words;
    "" when it does not."""
    children = [c for c in inline.children or [] if not (c.type == "text" and not c.content.strip())]
    if not children:
        return ""
    first = children[0]
    if first.type == "code_inline":
        term, rest = first.content, children[1:]
    elif first.type in _OPEN:
        close = next((i for i, c in enumerate(children) if c.type == _OPEN[first.type]), None)
        if close is None:
            return ""
        term, rest = "".join(_words(c) for c in children[1:close]), children[close + 1 :]
    else:
        return ""
    term, after = tidy(term), tidy("".join(_words(c) for c in rest))
    if term.endswith(":"):  # "**Bug fixes:** until ..."
        term, after = term[:-1].rstrip(), ": " + after
    if not after.startswith(_SEPARATORS) or after.startswith("->"):
        return ""
    description = after.lstrip("".join(_SEPARATORS)).strip()
    if not term or term.endswith(".") or len(term.split()) > _MAX_TERM_WORDS or len(description.split()) < 2:
        return ""
    return term
