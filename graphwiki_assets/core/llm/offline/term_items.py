"""The items of a definition list: "--wait: Waits until every pod is ready", "Server-side
apply — the default for new releases". The reader found each term set apart at its item's
start (``core/documents/defined_terms.py``); here the item's first sentence becomes the
term's definition and a claim about it, whatever the parser makes the sentence's subject.
"""

from __future__ import annotations

from typing import Any

from graphwiki_assets.core.llm.offline.parsed_names import Candidate, Names
from graphwiki_assets.core.text.sentences import clip

_MAX_DESCRIPTION = 240


def defined_terms(terms: list[str], sentences: list[Any], names: Names) -> dict[int, Candidate]:
    """Sentence index -> the term its item defines, for every term whose item opens a
    sentence of the text; each such term is a name of the text, defined by that sentence."""
    found: dict[int, Candidate] = {}
    for term in terms:
        n = next((i for i, s in enumerate(sentences) if i not in found and s.text.lstrip().startswith(term)), None)
        if n is None:
            continue
        c = names.find(term) or names.add(term, n)
        if c is None:
            continue
        c.name = term  # as the item sets it apart ("--wait", not the "Waits" its text repeats)
        said = clip(sentences[n].text.strip(), _MAX_DESCRIPTION)
        c.description = c.description or said
        c.definition = c.definition or said
        c.sentences.add(n)
        found[n] = c
    return found
