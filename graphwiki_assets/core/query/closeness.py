"""Whether what the graph holds is close to a question: by the question's own words, not by
a cosine cut.

A cosine says two texts are about neighbouring things ("France" and "United States",
"Docker Swarm" and "docker run"); it cannot say that the graph holds what was asked. So every
rung of the ladder asks for the question's words instead:

- a near match (the fuzzy rung) is the mention in another form: one name's words include the
  other's ("Neo4j GDS" / "GDS"), or the two are spellings of one name ("Kuberntes" /
  "Kubernetes"). A name that only shares a word with the mention names something else;
- a raw source is quoted when its text holds most content words of a missing mention;
- an answer about a linked entity must cover the rest of the question: of the question's
  content words that are not the entity's name, at least half occur in the facts it cites.
  "Who is the president of the United States?" over a graph that knows the United States only
  from round-trip times has facts on the entity and none on what was asked.

Words are compared stemmed (``stem``), so "leases" covers "lease" and "compacted" covers
"compaction" only where the stems agree.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from graphwiki_assets.core.normal_forms import compact, name_tokens
from graphwiki_assets.core.text.words import STOPWORDS, stem, words

# Words that frame a question rather than name what it asks about.
FRAMING = frozenset(
    """what which who whom whose where when why how else find show list tell give explain describe
    define compare versus vs between connect connects connected relate relates related like similar
    known know something anything thing things work works working happen happens mean means meaning
    use used using need needs get make made way ways kind kinds type types purpose role exactly
    really actually someone somebody do does did can could should would will please""".split()
)
_CLITIC = re.compile(r"['\u2019](?:s|re|ve|ll|d|m)$", re.IGNORECASE)
SPELLING = 0.85  # SequenceMatcher ratio of two spellings of one word or name
MIN_SPELLED = 5  # shorter words must match exactly: 'zab' and 'zap' are different words
COVERAGE = 0.5  # share of the question's remaining words the cited facts must hold


def _terms(text: str) -> dict[str, str]:
    """Stem -> the word as written, for the content words of ``text``, in order."""
    out: dict[str, str] = {}
    for w in words(text):
        # a contraction frames like its stem: "What's X" asks what "What is X" asks
        w = _CLITIC.sub("", w)
        if w.lower() not in STOPWORDS | FRAMING and any(ch.isalnum() for ch in w):
            out.setdefault(stem(w), w)
    return out


def terms(text: str) -> list[str]:
    """The stemmed content words of ``text``, in order, each once."""
    return list(_terms(text))


def _same_word(a: str, b: str) -> bool:
    if a == b:
        return True
    return min(len(a), len(b)) >= MIN_SPELLED and SequenceMatcher(None, a, b).ratio() >= SPELLING


def _within(part: list[str], whole: list[str]) -> bool:
    return bool(part) and all(any(_same_word(p, w) for w in whole) for p in part)


def _said(mention: str) -> list[str]:
    """The stemmed words of a mention, without those that frame the question rather than name
    ("relabeling work" of "How does relabeling work?"): a router may leave them in."""
    tokens = name_tokens(mention)
    return [stem(t) for t in tokens if t not in STOPWORDS | FRAMING] or [stem(t) for t in tokens]


def name_form_of(mention: str, names: list[str]) -> bool:
    """True when one of ``names`` is ``mention`` in another form (see the module's docstring)."""
    said = _said(mention)
    for name in names:
        other = [stem(t) for t in name_tokens(name)]
        if _within(said, other) or _within(other, said):
            return True
        a, b = compact(mention), compact(name)
        if min(len(a), len(b)) >= MIN_SPELLED and SequenceMatcher(None, a, b).ratio() >= SPELLING:
            return True
    return False


def stands_for(mention: str, names: list[str]) -> bool:
    """True when a concept's ``names`` (its name and aliases) hold every word of ``mention``,
    in some spelling: the concept is the mention, or a more specific thing that carries its
    name ("GDS" for "Neo4j Graph Data Science"). Not a broader one: "Docker" does not stand
    for "Docker Swarm", whose answer it does not hold. A word that frames the question need
    not be carried."""
    said = _said(mention)
    held = [stem(t) for name in names for t in name_tokens(name)]
    if _within(said, held):
        return True
    a = compact(mention)
    return len(a) >= MIN_SPELLED and any(SequenceMatcher(None, a, compact(n)).ratio() >= SPELLING for n in names)


def holds(text: str, mention: str) -> bool:
    """True when ``text`` has most content words of ``mention`` (more than half: a router's
    mention may carry a word of the question's phrasing, "etcd handle leader failure")."""
    wanted = terms(mention)
    present = set(terms(text))
    return 2 * sum(w in present for w in wanted) > len(wanted)


def uncovered(question: str, names: list[str], facts: list[str]) -> tuple[list[str], list[str]]:
    """(the question's words beyond ``names``, those of them no fact holds), as written."""
    named = {t for n in names for t in terms(n)}
    rest = {t: w for t, w in _terms(question).items() if t not in named}
    present = {t for f in facts for t in terms(f)}
    return list(rest.values()), [w for t, w in rest.items() if t not in present]


def enough(rest: list[str], missing: list[str]) -> bool:
    """At least ``COVERAGE`` of the question's words beyond the names are held by the facts (a
    question that is only a name, "What is X?", is covered by any fact on X)."""
    return not rest or len(rest) - len(missing) >= COVERAGE * len(rest)


def covers(question: str, names: list[str], facts: list[str]) -> bool:
    return enough(*uncovered(question, names, facts))
