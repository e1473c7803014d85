"""Whether two claims can contradict at all: they must say something about the same subject.

Two structural reasons two claims that share a concept are still about different things,
checked before any model is asked (they cost nothing and spare its calls):

- **Different releases.** "Helm 3 adds features" and "for Helm 2 no features are added"
  name one product at two versions: a version number is part of what a claim is about,
  not a value it states. Claims naming the same name at disjoint versions are not opposed.
- **A source speaking of itself.** "This is part 4 of 7 of our series" is about the post
  that says it; another post's "This is part 2 of 7" is about another post. A claim whose
  subject is a demonstrative ("This is ...", "These are ...", "Here ...") is compared
  only with claims of the same file.

The text is plain prose (claims are sentences, not markup).
"""

from __future__ import annotations

import re

# A capitalised name followed by a release number: "Helm 3", "Prometheus 2.0", "Python v3.11".
_RELEASE = re.compile(r"\b([A-Z][A-Za-z0-9_-]*)\s+[vV]?(\d+(?:\.\d+)*)\b")
_SELF = re.compile(r"^\W*(?:this|these|here)\b", re.IGNORECASE)
# a number after a name is a count, not a release, when a unit or a noun of counting follows
_COUNTED = re.compile(r"^\s*(?:%|percent|per|times|of\b|years?|months?|days?|hours?|minutes?|seconds?)", re.IGNORECASE)


def releases(text: str) -> dict[str, set[str]]:
    """Release numbers by the name they follow ("Helm 3" -> {"helm": {"3"}})."""
    found: dict[str, set[str]] = {}
    for m in _RELEASE.finditer(text):
        if _COUNTED.match(text[m.end() :]):
            continue  # "Kubernetes 5 times", "Python 3 of them"
        found.setdefault(m.group(1).lower(), set()).add(m.group(2))
    return found


def other_releases(a: str, b: str) -> str | None:
    """The name both claims give at different, non-overlapping release numbers, if any."""
    ra, rb = releases(a), releases(b)
    for name in ra.keys() & rb.keys():
        if ra[name].isdisjoint(rb[name]):
            return name
    return None


def speaks_of_itself(text: str) -> bool:
    return bool(_SELF.match(text))


def comparable(a: str, b: str, same_file: bool) -> bool:
    """Whether claims ``a`` and ``b`` (which share a concept) may oppose each other."""
    if other_releases(a, b) is not None:
        return False
    if not same_file and (speaks_of_itself(a) or speaks_of_itself(b)):
        return False
    return True
