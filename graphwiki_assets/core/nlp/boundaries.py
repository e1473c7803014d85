"""Sentence starts the parser may miss, set before it runs (it keeps what is set):

- a paragraph break: the reader separates passages and list items with blank lines, and a
  lead-in ("The sample code is now:") must not run on into the next paragraph;
- a full stop the tokenizer split off, before a capitalised word: the tokenizer keeps an
  abbreviation's dot on its word ("Inc.", "e.g."), so a lone "." ends a sentence, and the
  parser alone sometimes reads two short sentences as one;

and where none can start: inside a line, after a word that ends nothing, the parser would
otherwise cut a list entry "Bram Oster" into two sentences.
"""

from __future__ import annotations

from typing import Any

from spacy.language import Language

NAME = "paragraph_boundaries"
_ENDS = frozenset({".", "!", "?"})
_CLOSERS = frozenset({'"', "'", ")", "]", "”", "’"})


@Language.component(NAME)
def paragraph_boundaries(doc: Any) -> Any:
    for token in doc[1:]:
        previous = doc[token.i - 1]
        if "\n" in previous.whitespace_ or (previous.is_space and "\n" in previous.text):
            token.is_sent_start = True
        elif previous.text in _ENDS and previous.whitespace_ and token.text[:1].isupper():
            token.is_sent_start = True
        elif not _may_end(doc, token.i - 1):
            token.is_sent_start = False
    return doc


def _may_end(doc: Any, i: int) -> bool:
    """Whether a sentence may end at token ``i``: terminal punctuation, maybe closed by a
    quote or bracket, or a line break."""
    while i >= 0 and doc[i].text in _CLOSERS:
        i -= 1
    return i < 0 or doc[i].text in _ENDS or doc[i].text.endswith((".", "!", "?")) or doc[i].is_space
