"""Names as a person types them: a misspelt or inflected mention and the concept it means.

Between the exact keys and the vector search, linking asks the ``concept_keys`` index for the
concepts whose keys lie a few edits from the mention's words or begin with their root
(``lucene_query``), a bounded number per mention, and decides here by spelling whether one
of them is the mention (``decide``). The graph only blocks; rapidfuzz decides.

A candidate scores the best of its name and aliases against the mention (``similarity``, 0-100):

- spelled: rapidfuzz's ``fuzz.ratio`` (Indel similarity) of the two names written without
  spaces or punctuation, so "Alertmanger" scores 95.7 against "Alertmanager" and against
  "Alert Manager" alike;
- stemmed: the same over the words' stems, so "relabelling" meets "relabel" (93);
- inflected: the same words up to their endings ("relabeling" / "relabel", "retries" / "retry",
  "configured" / "configuration") score 100;
- a name with a whole word more or less is another thing ("Alertmanager UI"), whatever its
  letters say: it scores 0 here and is the vector pass's to judge, with its scope rule.

``fuzz.WRatio`` is not used for the same reason: it scores a name inside a longer one almost
as high as the name itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rapidfuzz import fuzz, utils

from graphwiki_assets.core.normal_forms import strip_accents
from graphwiki_assets.core.text.words import stem

# One letter dropped, doubled or added scores 88.9 or more in a name of four letters or more;
# one letter swapped or mistyped only in a name of nine or more. A mistyped letter in a
# shorter name is as likely another name ("Redis" / "Regis": 80), so it does not link.
BAR = 88.0
# A question's words were not chosen as names by anyone: only one letter dropped or added in
# six letters or more (92.3), or one swapped in thirteen or more.
QUESTION_BAR = 92.0
# One letter's difference between two candidates of about ten letters is five points: a lead
# smaller than that is a coin toss between two concepts, which the vector pass settles.
MARGIN = 5.0
SPELLED_WORD = 85.0  # two spellings of one word (as closeness.SPELLING), in words of MIN_SPELLED letters or more
MIN_SPELLED = 5
MIN_LETTERS = 4  # shorter mentions match exactly or not at all: "k8s" and "k9s" are two tools
LONG_WORD = 8  # a plain word of the question this long may be a misspelt name; shorter ones
# ("handle" / "Handler", "work" / "Worker") are everyday words and link only as an inflection
MAX_WORDS = 4  # longer mentions are left to the vector pass (and Lucene's clause limit)
PREFIX_BOOST = 0.1  # a root's prefix matches many keys at a constant score: rank them below spellings

_ARTICLES = {"the", "a", "an"}
_POSSESSIVE = re.compile(r"['\u2019]s\b")
_LUCENE_SPECIAL = re.compile(r'([+\-&|!(){}\[\]^"~*?:\\/])')
_NAME_MARK = re.compile(r"\d|\w[_\-./+]\w|[a-z][A-Z]")


@dataclass(frozen=True)
class Rule:
    """What a candidate must score to be the mention, and by how much it must lead the next."""

    bar: float
    margin: float = MARGIN


NAMED = Rule(BAR)  # a mention the router named
QUESTION = Rule(QUESTION_BAR)  # a span of the question that looks like a name, or a long word
INFLECTED = Rule(100.0)  # a short plain word of the question: the same word with another ending


@dataclass(frozen=True)
class Candidate:
    id: str
    name: str
    aliases: tuple[str, ...] = ()
    type: str = ""


@dataclass(frozen=True)
class Scored:
    candidate: Candidate
    score: float
    name: str  # the name or alias that scored it
    spelled_alike: bool  # the same letters as the mention: an exact key the index could not be asked for


@dataclass(frozen=True)
class Decision:
    best: Scored | None  # the concept the mention means, when one is clearly it
    ranked: list[Scored]  # every candidate, best first
    ambiguous: bool = False  # two or more cleared the bar without one leading by the margin


def words(name: str) -> list[str]:
    """The name's words as compared: accents, case, punctuation, a possessive and a leading
    article gone ('&' read as 'and')."""
    text = _POSSESSIVE.sub("", strip_accents(name).lower().replace("&", " and "))
    found = utils.default_process(text).split()
    return found[1:] if len(found) > 1 and found[0] in _ARTICLES else found


def root(word: str) -> str:
    """The word's stem without a noun ending in -ion ('configuration' -> 'configur', as
    'configure'); a root of fewer than five letters keeps its ending ('version', 'session')."""
    w = stem(word)
    for suffix in ("ation", "ion"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 5:
            return w[: -len(suffix)]
    return w


def letters(name: str) -> int:
    return len("".join(words(name)))


def _same_word(a: str, b: str) -> bool:
    return stem(a) == stem(b) or (min(len(a), len(b)) >= MIN_SPELLED and fuzz.ratio(a, b) >= SPELLED_WORD)


def other_scope(a: list[str], b: list[str]) -> bool:
    """One name is the other with whole words more ("Alertmanager" / "Alertmanager UI",
    "Elasticsearch" / "Elasticsearch DB"): a narrower or a broader thing, not a spelling, however
    few letters the extra word has. Left to the vector pass and its scope rule."""
    short, long = sorted((a, b), key=len)
    return len(short) < len(long) and all(any(_same_word(s, w) for w in long) for s in short)


def similarity(mention: str, name: str) -> float:
    """How surely ``name`` is ``mention`` as typed, 0-100 (see the module's docstring); 0 for a
    name with words more or fewer (``other_scope``)."""
    a, b = words(mention), words(name)
    if not a or not b or other_scope(a, b):
        return 0.0
    roots = [root(w) for w in a]
    if roots == [root(w) for w in b] and len("".join(roots)) >= MIN_LETTERS:
        return 100.0
    spelled = fuzz.ratio("".join(a), "".join(b))
    stemmed = fuzz.ratio("".join(map(stem, a)), "".join(map(stem, b)))
    return max(spelled, stemmed)


def spelled_alike(mention: str, name: str) -> bool:
    return "".join(words(mention)) == "".join(words(name))


def score(mention: str, candidate: Candidate) -> Scored:
    """The candidate's best name or alias against the mention."""
    best = max(
        ((similarity(mention, n), n) for n in dict.fromkeys([candidate.name, *candidate.aliases]) if n),
        key=lambda t: t[0],
        default=(0.0, candidate.name),
    )
    return Scored(candidate, round(best[0], 2), best[1], spelled_alike(mention, best[1]))


def decide(mention: str, candidates: list[Candidate], rule: Rule = NAMED) -> Decision:
    """The candidate that is ``mention``: the best, when it clears ``rule.bar`` and leads the
    next concept by ``rule.margin``; none when the mention is too short to tell."""
    if letters(mention) < MIN_LETTERS:
        return Decision(None, [])
    unique = {c.id: c for c in candidates}
    ranked = sorted((score(mention, c) for c in unique.values()), key=lambda s: (-s.score, s.candidate.id))
    if not ranked or ranked[0].score < rule.bar:
        return Decision(None, ranked)
    runner_up = ranked[1].score if len(ranked) > 1 else 0.0
    if ranked[0].score - runner_up < rule.margin:
        return Decision(None, ranked, ambiguous=True)
    return Decision(ranked[0], ranked)


def span_rule(span: list[str], first: bool) -> Rule | None:
    """The rule for a span of a question's content words (``first``: it opens the question), or
    None when it is too short to match by spelling. A span that looks like a name (a digit,
    inner punctuation, a capital inside a word or on a word that does not open the question)
    or holds a long word may be a misspelt name; a short plain word only an inflected one."""
    if len("".join(w for s in span for w in words(s))) < MIN_LETTERS:
        return None
    capitalised = any(w[:1].isupper() for w in (span[1:] if first else span))
    if capitalised or any(_NAME_MARK.search(w) for w in span) or any(len(w) >= LONG_WORD for w in span):
        return QUESTION
    return INFLECTED


def escape(term: str) -> str:
    """A term with Lucene's query syntax characters escaped."""
    return _LUCENE_SPECIAL.sub(r"\\\1", term)


def edits(word: str) -> int:
    """Edits a fuzzy term of a key allows: none up to two letters; one up to six; two from
    seven on, where two can still clear the bar: eight letters left of ten score 88.9, and a
    key of seven may be such a name with its plural s gone ('kubrnet' of "Kubrnets", 93 by its
    stem against "Kubernetes", whose key is 'kubernete'). A second edit costs the index four
    times the first (8 ms against 2 over a million keys), so shorter keys do without."""
    return 0 if len(word) <= 2 else 1 if len(word) < 7 else 2


def lucene_query(key: str, misspelt: bool = True) -> str:
    """A Lucene query for the ``concept_keys`` index (standard analyser: keys are tokens split
    at spaces, lowercased; an underscore stays inside a token) that blocks the candidates of a
    name key: each word and the words run together (``keys_for`` stores proper names so) within
    ``edits`` of a key's token, or its root within edits of one, or a prefix of one ('relabel*'
    for 'relabeling' finds 'relabel' and 'relabel_config'). Without ``misspelt`` only the word
    and its root's prefix: all an inflection needs. Empty for a key too long to block."""
    parts = key.split()
    if not parts or len(parts) > MAX_WORDS:
        return ""
    term = _fuzzy if misspelt else escape
    clauses = []
    for word in parts + (["".join(parts)] if len(parts) > 1 else []):
        clauses.append(term(word))
        base = root(word)
        if base != word and misspelt:
            clauses.append(term(base))
        if len(base) >= MIN_LETTERS:
            clauses.append(f"{escape(base)}*^{PREFIX_BOOST}")
    return " OR ".join(dict.fromkeys(clauses))


def _fuzzy(word: str) -> str:
    n = edits(word)
    return f"{escape(word)}~{n}" if n else escape(word)
