"""The items of a definition list: "--wait: Waits until every pod is ready", "Server-side
apply — the default for new releases". The reader found each term set apart at its item's
start (``core/documents/defined_terms.py``); here the item's first sentence becomes the
term's definition and a claim about it, whatever the parser makes the sentence's subject.
"""

from __future__ import annotations

import re
from typing import Any

from graphwiki_assets.core.llm.offline.parsed_names import Candidate, Names, inner_keys

# "Supply chain Levels for Software Artifacts (SLSA)": the name, and its short form in brackets
_SHORT_FORM = re.compile(r"^(?P<name>.+?)\s*\((?P<short>[^()\s]+)\)$")


def defined_terms(terms: list[str], sentences: list[Any], names: Names) -> dict[int, Candidate]:
    """Sentence index -> the term its item defines, for every term whose item opens a
    sentence of the text; each such term is a name of the text, defined by that sentence."""
    found: dict[int, Candidate] = {}
    for term in terms:
        n = next((i for i, s in enumerate(sentences) if i not in found and s.text.lstrip().startswith(term)), None)
        if n is None:
            continue
        bracketed = _SHORT_FORM.match(term)
        name = bracketed["name"] if bracketed else term
        c = names.find(name) or names.add(name, n)
        if c is None:
            continue
        c.name = name  # as the item sets it apart ("--wait", not the "Waits" its text repeats)
        if bracketed:
            names.alias(c, bracketed["short"])
        _drop_pieces(names, c, n)
        c.define(sentences[n].text, n)
        found[n] = c
    return found


def _drop_pieces(names: Names, term: Candidate, n: int) -> None:
    """A name found inside the term, and only in its item ("Levels for Software Artifacts"
    in "Supply chain Levels for Software Artifacts"), is a piece of it, not a name of its own."""
    inner = inner_keys(term.key)
    for key in [k for k, c in names.by_key.items() if k in inner and c is not term and c.sentences <= {n}]:
        del names.by_key[key]
