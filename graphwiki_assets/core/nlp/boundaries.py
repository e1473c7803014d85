"""Sentence starts the parser may miss, set before it runs (it keeps what is set):

- a paragraph break: the reader separates passages and list items with blank lines, and a
  lead-in ("The sample code is now:") must not run on into the next paragraph;
- a full stop the tokenizer split off, before a capitalised word: the tokenizer keeps an
  abbreviation's dot on its word ("Inc.", "e.g."), so a lone "." ends a sentence, and the
  parser alone sometimes reads two short sentences as one.
"""

from __future__ import annotations

from typing import Any

from spacy.language import Language

NAME = "paragraph_boundaries"
_ENDS = frozenset({".", "!", "?"})


@Language.component(NAME)
def paragraph_boundaries(doc: Any) -> Any:
    for token in doc[1:]:
        previous = doc[token.i - 1]
        if "\n" in previous.whitespace_ or (previous.is_space and "\n" in previous.text):
            token.is_sent_start = True
        elif previous.text in _ENDS and previous.whitespace_ and token.text[:1].isupper():
            token.is_sent_start = True
    return doc
