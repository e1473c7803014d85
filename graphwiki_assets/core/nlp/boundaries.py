"""Paragraph breaks are sentence breaks: the reader separates passages, list items and lines
of a table-free block with blank lines, and a lead-in ("The sample code is now:") must not
run on into the next paragraph's sentence."""

from __future__ import annotations

from typing import Any

from spacy.language import Language

NAME = "paragraph_boundaries"


@Language.component(NAME)
def paragraph_boundaries(doc: Any) -> Any:
    for token in doc[1:]:
        previous = doc[token.i - 1]
        if "\n" in previous.whitespace_ or (previous.is_space and "\n" in previous.text):
            token.is_sent_start = True
    return doc
