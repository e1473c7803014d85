"""Offline contradiction check between two claims about the same concept.

Pairs that are one statement (other values, units or dates, or a denial) are decided on
the parse before any backend is asked (``core/llm/parsed_conflicts.py``); these rules see
what that leaves.

A contradiction needs a real opposition on the same subject and property: exactly one
claim negates ("not", "never", "no longer", "isn't" ...) a word the other asserts, or
they use the two sides of an antonym pair ("declarative"/"imperative",
"supported"/"unsupported"), or they give different numbers for the same thing at the
same time, or one states a change over time of what the other says (``changes``). Apart
from the opposition the two must be the same statement: most of their remaining content
is shared, so two sentences that merely share words are not opposed. A negation together
with an antonym cancels out ("is open" / "is not closed"). Code, command lines and posts
are not statements and oppose nothing. Near-duplicates with no change of polarity or
value support each other; everything else is unrelated.
"""

from __future__ import annotations

import re

from graphwiki_assets.core.llm.calls import ClaimPair, ConflictRequest, ConflictResponse, ConflictVerdict, Relation
from graphwiki_assets.core.llm.offline.changes import change_over_time, is_statement, marker
from graphwiki_assets.core.llm.offline.inference import read_pairs
from graphwiki_assets.core.llm.offline.surface import SENTENCE_STARTERS
from graphwiki_assets.core.normal_forms import name_tokens
from graphwiki_assets.core.text.words import STOPWORDS, stem

_CONTRACTIONS = [
    (r"\bcan't\b|\bcannot\b", "can not"),
    (r"\bwon't\b", "will not"),
    (r"\bshan't\b", "shall not"),
    (r"\b(\w+)n't\b", r"\1 not"),
]
_NEGATIONS = frozenset("not no never none nor neither without nobody nothing nowhere lacks lack lacking".split())
_NOT_NEGATING = re.compile(r"\bnot\s+only\b|\bno\s+doubt\b|\bnevertheless\b|\bnonetheless\b", re.IGNORECASE)

_PAIRS = """declarative imperative; increase decrease; increase reduce; rise fall; rose fell; grow shrink;
gain loss; gain lose; win lose; won lost; open closed; open close; true false; before after; larger smaller;
bigger smaller; greater lesser; more less; more fewer; higher lower; high low; above below; maximum minimum;
first last; earliest latest; earlier later; older newer; older younger; oldest youngest; largest smallest;
longest shortest; highest lowest; strong weak; stronger weaker; fast slow; faster slower; cheap expensive;
hot cold; warm cool; wet dry; alive dead; living dead; male female; public private; enable disable;
allow forbid; allow prohibit; allow deny; permit forbid; accept reject; include exclude; success failure;
succeed fail; present absent; sync async; static dynamic; internal external; local remote; online offline;
input output; compiled interpreted; lossless lossy; centralized distributed; north south; east west;
northern southern; eastern western; positive negative; inside outside; upper lower; early late;
major minor; majority minority; start end; begin end; entry exit; import export; buy sell; bought sold;
add remove; always never; all none; required optional; mandatory optional; support oppose; love hate;
same different; similar different; single multiple; free paid; permanent temporary; manual automatic;
shallow deep; thick thin; wide narrow; heavy light; rich poor; victory defeat; winner loser; ally enemy;
friend enemy; peace war; upstream downstream; eager lazy; optimistic pessimistic; vertical horizontal;
leader follower; strict lenient; lowercase uppercase; increment decrement; ascending descending;
acquired divested; won lost; joined left; hired fired; born died; capital province"""
_ANTONYMS: dict[str, set[str]] = {}
for _pair in _PAIRS.replace("\n", " ").split(";"):
    _a, _b = (stem(w) for w in _pair.split())
    _ANTONYMS.setdefault(_a, set()).add(_b)
    _ANTONYMS.setdefault(_b, set()).add(_a)
_ANTONYMS.pop(stem("capital"), None)
_ANTONYMS.pop(stem("province"), None)
_NEG_PREFIXES = ("un", "in", "im", "il", "ir", "non", "non-", "dis", "de", "a")
# "one" is left out: it is a pronoun far more often than a count ("one of the ...")
_NUMBER_WORDS = {
    w: str(i)
    for i, w in enumerate("zero _ two three four five six seven eight nine ten eleven twelve".split())
    if w != "_"
}


def _tokens(text: str) -> list[str]:
    text = _NOT_NEGATING.sub(" ", text)
    for pat, repl in _CONTRACTIONS:
        text = re.sub(pat, repl, text, flags=re.IGNORECASE)
    text = re.sub(r"\bno\s+longer\b", "not", text, flags=re.IGNORECASE)
    text = re.sub(r"\b\d+(?:st|nd|rd|th)\b", " ", text)  # ordinals ("16th century") are not quantities
    text = re.sub(r"\b(?:as\s+of|by)\s+\d{4}\b", " ", text, flags=re.IGNORECASE)  # when it was said, not what
    # A number that names a release ("v2", "version 3.4") says which thing, not how much of it:
    # it is kept as one word, so two releases are two subjects, never two values.
    text = re.sub(r"\b(version|release|v)\s*(\d+(?:\.\d+)*)\b", r"\1-\2", text, flags=re.IGNORECASE)
    words = re.findall(r"[A-Za-z][A-Za-z\-']*(?:\d[\w.\-]*)?|\d[\d,]*(?:\.\d+)?", text)
    return [t.lower().rstrip(".-") for t in words]


def _numbers(tokens: list[str]) -> tuple[set[str], set[str]]:
    """(years, other numbers), normalised: '1,000' -> '1000', 'three' -> '3'."""
    years: set[str] = set()
    other: set[str] = set()
    for t in tokens:
        t = _NUMBER_WORDS.get(t, t)
        if t[:1].isdigit():
            t = t.replace(",", "")
            (years if re.fullmatch(r"1[5-9]\d\d|20\d\d", t) else other).add(t)
    return years, other


def _is_antonym(x: str, y: str) -> bool:
    if y in _ANTONYMS.get(x, ()):
        return True
    for p in _NEG_PREFIXES:
        min_len = 5 if p in ("a", "de") else 3
        if (y == p + x and len(x) >= min_len) or (x == p + y and len(y) >= min_len):
            return True
    return x.endswith("ful") and y == x[:-3] + "less" or y.endswith("ful") and x == y[:-3] + "less"


def _proper_names(text: str, concept: set[str]) -> set[str]:
    """Capitalised words other than the concept's own (and other than a sentence's
    ordinary first word): they say which thing a claim is about."""
    names = set()
    for i, m in enumerate(re.finditer(r"[A-Za-z][\w'\-]*", text)):
        word = m.group()
        low = word.lower()
        if (
            word[:1].isupper()
            and low not in concept
            and low not in STOPWORDS
            and not (i == 0 and low in SENTENCE_STARTERS)
        ):
            names.add(low)
    return names


_COPULA = re.compile(
    r"^\s*(?:the\s+)?(?P<subject>[^,;:]+?)\s+(?:is|are|was|were)\s+(?P<neg>not\s+)?(?:an?\s+|the\s+)?"
    r"(?P<predicate>[\w\-]+(?:\s+[\w\-]+){0,2})",
    re.IGNORECASE,
)


def _copular_predicate(text: str, concept: set[str]) -> tuple[dict[str, str], bool] | None:
    """For "X is (not) a declarative language" with X a name of the concept: the first
    predicate words and whether they are negated. Two such definitions with opposite
    predicates contradict even when the rest of the sentences share nothing."""
    match = _COPULA.match(text)
    if not match:
        return None
    subject = {w.lower() for w in re.findall(r"\w+", match.group("subject"))}
    if not subject or not subject <= concept:
        return None
    return {stem(w.lower()): w for w in match.group("predicate").split()}, bool(match.group("neg"))


def _names_of(pair: ClaimPair) -> set[str]:
    names = set()
    for name in [pair.concept, *pair.concept_aliases]:
        names |= set(name_tokens(name)) | {w.lower() for w in re.findall(r"\w+", name)}
    return names


# Words a negation passes over to reach what it negates ("is not yet", "does not always").
_NEGATION_SKIPS = frozenset(
    "be is are was were been being do does did have has had can could will would shall should may might must "
    "a an the yet always ever also any longer anymore".split()
)


def _negated(tokens: list[str]) -> set[str]:
    """Stems of the first words each negation governs (up to two past auxiliaries and articles)."""
    out: set[str] = set()
    for i, t in enumerate(tokens):
        if t not in _NEGATIONS:
            continue
        taken = 0
        for w in tokens[i + 1 : i + 6]:
            if w in _NEGATIONS or w in _NEGATION_SKIPS:
                continue
            out.add(stem(w))
            taken += 1
            if taken == 2:
                break
    return out


def relate(pair: ClaimPair) -> tuple[Relation, str]:
    if not (is_statement(pair.new_claim) and is_statement(pair.existing_claim)):
        return "unrelated", "not both statements in prose (code, a command line, markup or a post)"
    relation, reason = _relate(pair)
    said = marker(pair.new_claim) or marker(pair.existing_claim)
    if relation == "contradicts" and said and not reason.startswith("a change over time"):
        reason = f"a change over time ('{said}'): {reason}"
    return relation, reason


def _relate(pair: ClaimPair) -> tuple[Relation, str]:
    ta, tb = _tokens(pair.new_claim), _tokens(pair.existing_claim)
    concept = _names_of(pair)
    pa, pb = _copular_predicate(pair.new_claim, concept), _copular_predicate(pair.existing_claim, concept)
    if pa and pb and pa[1] == pb[1]:
        opposite = [
            (pa[0][x], pb[0][y])
            for x in pa[0].keys() - pb[0].keys()
            for y in pb[0].keys() - pa[0].keys()
            if _is_antonym(x, y)
        ]
        if opposite:
            return "contradicts", f"the two definitions are opposite: '{opposite[0][0]}' vs '{opposite[0][1]}'"
    if _two_subjects(pair, concept):
        return "unrelated", "the claims are about different named things"
    change = change_over_time(pair.new_claim, pair.existing_claim, concept)
    if change:
        return "contradicts", change
    neg_a = sum(t in _NEGATIONS for t in ta) % 2
    neg_b = sum(t in _NEGATIONS for t in tb) % 2

    shown: dict[str, str] = {}  # stem -> a word as written, for the reason

    def content(tokens: list[str]) -> set[str]:
        out = set()
        for t in tokens:
            if t[:1].isdigit() or t in _NEGATIONS or t in _NUMBER_WORDS or t in concept:
                continue
            if t in STOPWORDS and stem(t) not in _ANTONYMS:  # keep "before"/"after", "more"/"less"
                continue
            out.add(stem(t))
            shown.setdefault(stem(t), t)
        return out

    ca, cb = content(ta), content(tb)
    flips = [(x, y) for x in ca - cb for y in cb - ca if _is_antonym(x, y)]
    flipped = {w for f in flips for w in f}
    ra, rb = ca - flipped, cb - flipped
    if ra and rb:
        overlap = len(ra & rb) / min(len(ra), len(rb))  # how much of the shorter claim the longer repeats
        jaccard = len(ra & rb) / len(ra | rb)  # how much the two have in common overall
    else:
        overlap = jaccard = 1.0 if flips and not (ra or rb) else 0.0  # "X is declarative" / "X is imperative"
    if overlap < 0.5:
        return "unrelated", "no shared statement to compare"
    negated = neg_a != neg_b
    # the negation must govern something the other claim asserts, or it opposes nothing
    governs = not negated or bool(_negated(ta if neg_a else tb) & (cb if neg_a else ca))
    if negated != bool(flips) and governs and jaccard >= 0.5 and (flips or overlap >= 0.6):
        if flips:
            return "contradicts", f"opposite terms: '{shown[flips[0][0]]}' vs '{shown[flips[0][1]]}'"
        return "contradicts", "one claim negates the other"
    years_a, nums_a = _numbers(ta)
    years_b, nums_b = _numbers(tb)
    if overlap >= 0.6 and jaccard >= 0.5:
        same_time = years_a == years_b or not (years_a and years_b)
        if same_time and nums_a and len(nums_a) == len(nums_b) and nums_a != nums_b:
            return (
                "contradicts",
                f"different numbers for the same thing ({', '.join(sorted(nums_a))} vs {', '.join(sorted(nums_b))})",
            )
        if years_a and years_b and years_a.isdisjoint(years_b) and not (nums_a or nums_b):
            return (
                "contradicts",
                f"different dates for the same thing ({', '.join(sorted(years_a))} vs {', '.join(sorted(years_b))})",
            )
    if overlap >= 0.8 and negated == bool(flips) and years_a == years_b and nums_a == nums_b:
        return "supports", "the claims state the same thing"
    return "unrelated", "related statements, no conflict found"


def conflicts(req: ConflictRequest, nli: bool = False) -> ConflictResponse:
    """Each pair's relation by the rules above and, with ``nli``, by the inference model as
    well: a contradiction either reads stands, and so does a restatement."""
    ruled = [relate(pair) for pair in req.pairs]
    asked = [i for i, pair in enumerate(req.pairs) if nli and _readable(pair)]
    readings = dict(zip(asked, read_pairs([req.pairs[i] for i in asked])))
    verdicts = []
    for i, pair in enumerate(req.pairs):
        relation, reason = ruled[i]
        reading = readings.get(i)
        if reading is not None and relation != "contradicts":
            if reading.contradicts:
                relation = "contradicts"
                reason = f"the inference model reads a contradiction (p={reading.contradiction:.2f})"
                said = marker(pair.new_claim) or marker(pair.existing_claim)
                if said:
                    reason = f"a change over time ('{said}'): {reason}"
            elif relation == "unrelated" and reading.supports:
                relation, reason = "supports", f"each claim entails the other (p={reading.support:.2f})"
        verdicts.append(ConflictVerdict(pair_id=pair.pair_id, relation=relation, reason=reason))
    return ConflictResponse(verdicts=verdicts)


def _readable(pair: ClaimPair) -> bool:
    """Two statements in prose about one named subject: what an inference model can read."""
    if not (is_statement(pair.new_claim) and is_statement(pair.existing_claim)):
        return False
    return not _two_subjects(pair, _names_of(pair))


def _two_subjects(pair: ClaimPair, concept: set[str]) -> bool:
    """Each claim names something the other does not ("Goshen Township is in X County" /
    "Roundhead Township is in X County"): two subjects, whatever else they share."""
    names_a, names_b = _proper_names(pair.new_claim, concept), _proper_names(pair.existing_claim, concept)
    return bool(names_a - names_b and names_b - names_a)
