"""The sentence that defines X, so that "what is X" can lead with it.

A sentence defines X by its form, whatever else it says: it opens with one of X's names (an
article before it allowed) and goes on with

- a copula and a determiner: "X is a/an/the ...", "X are one of ...", also with an adverb
  ("X is also a ...") or a parenthesis after the name ("X (Y) is a ...");
- a defining verb: "X refers to / means / stands for / is defined as / is short for ...";
- an apposition: "X, a/an/the ...";
- a glossary entry: "X: ..." or "X — ...".

"X is written in Go" opens with X but says what X does, not what it is; it is not a definition.
The form is read from the claim's text as a sentence, never from markup.
"""

from __future__ import annotations

import re

from graphwiki_assets.core.normal_forms import singular
from graphwiki_assets.core.query import cypher
from graphwiki_assets.core.store.driver import Graph

_DETERMINER = r"(?:an?|the|one\s+of(?:\s+the)?)\b"
_ADVERB = r"(?:(?:also|now|simply|essentially|basically|primarily)\s+)?"
_CONTINUATIONS = [
    re.compile(rf"^(?:is|are|was|were)\s+{_ADVERB}{_DETERMINER}", re.IGNORECASE),
    re.compile(
        r"^(?:refers?\s+to|means|denotes|stands\s+for|(?:is|are)\s+(?:defined\s+as|short\s+for|"
        r"known\s+as|called))\b",
        re.IGNORECASE,
    ),
    re.compile(rf"^,\s*{_DETERMINER}", re.IGNORECASE),
    re.compile(r"^(?::|\s*[—–]|\s+-\s)\s*\S"),
]
_ARTICLE = re.compile(r"^(?:the|an?)\s+", re.IGNORECASE)
_PARENTHESIS = re.compile(r"^\s*\([^()]{1,120}\)")
# Defining candidates read per concept: the sentences that open with one of its names.
CANDIDATES = 50
LEADING = 2  # definitions per concept that lead an answer: more would crowd out the other facts


def _forms(names: list[str]) -> set[str]:
    """Each name, and its singular: a section called "Library Charts" is defined by "A
    library chart is ..."."""
    out = set()
    for name in (n.strip() for n in names):
        if name:
            head, _, last = name.rpartition(" ")
            out |= {name, f"{head} {singular(last)}".strip()}
    return out


def _after_name(text: str, names: list[str]) -> str | None:
    """What follows the longest of ``names`` (or a name's singular) that opens ``text``, or None."""
    body = _ARTICLE.sub("", text.strip())
    lowered = body.lower()
    for name in sorted(_forms(names), key=len, reverse=True):
        if lowered.startswith(name.lower()):
            rest = body[len(name) :]
            if not rest or rest[0].isalnum():
                continue  # "Leases" is not "Lease" followed by "s"
            return rest
    return None


def defines(text: str, names: list[str]) -> bool:
    """True when ``text`` is a definition of the thing called ``names`` (see the module)."""
    rest = _after_name(text, names)
    if rest is None:
        return False
    rest = _PARENTHESIS.sub("", rest)
    if rest[:1] not in (",", ":"):
        rest = rest.lstrip() if not rest.lstrip().startswith(("—", "–", "- ")) else rest
    return any(p.match(rest) for p in _CONTINUATIONS)


def defining_claims(store: Graph, concept_ids: list[str]) -> list[str]:
    """Ids of the claims about ``concept_ids`` that define them, in the concepts' order."""
    if not concept_ids:
        return []
    rows = store.query(cypher.DEFINING_CANDIDATES, ids=concept_ids, limit=CANDIDATES)
    found: dict[str, list[str]] = {}
    for r in rows:
        kept = found.setdefault(r["concept"], [])
        if len(kept) < LEADING and (r["stated"] or defines(r["text"], [r["name"], *r["aliases"]])):
            kept.append(r["id"])
    return list(dict.fromkeys(i for ids in found.values() for i in ids))
