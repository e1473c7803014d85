"""Offline stage-2 judgment: is the mention the same real-world entity as the
candidate (SAME), a different one with a direct connection to it (RELATED), or a
different one with none (DIFFERENT)?

Evidence, strongest first: a context that says they differ ("not to be confused with",
"a product of", "developed by"); types that clearly differ; names equal after
normalisation; a stated alias; a context that says they are the same ("X (Y)", "also
known as", "stands for"); an acronym; a person's name with or without middle names.
A name that is the other plus extra words ("Harborline" / "Harborline Cloud") is a
different, related thing unless the extra words are only generic ("Inc", "database").
Anything else is not SAME: a wrong merge is worse than a missed one.

Between RELATED and DIFFERENT it looks for a connection a text states: one context names
the other entity (other than to tell them apart: "not to be confused with"), or one name
is the other plus extra words. Two things of one kind that no text connects are
DIFFERENT. What it cannot do: read a relation that needs world knowledge, or one stated
only in a source the contexts do not quote.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from functools import lru_cache

from graphwiki_assets.core.llm.calls import EntityVerdict, EntityView, JudgeRequest, JudgeResponse, Verdict
from graphwiki_assets.core.llm.offline.definitions import definition
from graphwiki_assets.core.llm.offline.identifiers import identifiers_conflict, listing, same_listing
from graphwiki_assets.core.llm.offline.names import acronym_letters, is_acronym_of
from graphwiki_assets.core.normal_forms import compact, name_tokens, strip_accents
from graphwiki_assets.core.text.sentences import split_sentences
from graphwiki_assets.core.text.type_names import GENERIC_TYPES, head_key, types_conflict
from graphwiki_assets.core.text.words import content_words

# Extra words that do not change what a name denotes ("Harborline Inc", "Cypher query language").
_GENERIC_EXTRA = frozenset(
    """inc ltd llc corp corporation co plc gmbh ag company the programming query language database
    db software library framework protocol format toolkit""".split()
)
# What a one-word name may lose in everyday use: "MongoDB" -> "Mongo", "Node.js" -> "Node".
_TECH_SUFFIX = frozenset("db js sql ql lang hq io app".split())
_SAME_LINK = (
    r"(?:,\s*|\(\s*)?(?:(?:also|otherwise|commonly|better|formerly|sometimes|often|now|popularly|officially)\s+)?"
    r"(?:known\s+as|called|referred\s+to\s+as|abbreviated(?:\s+as)?|aka|a\.k\.a\.?|nicknamed|renamed(?:\s+(?:to|as))?|"
    r"goes\s+by|short\s+for|stands\s+for|refers\s+to|spelled)"
    r"|\s(?:is|was|are|were)\s+(?:also\s+)?(?:short\s+for|an?\s+(?:abbreviation|acronym|synonym|alias|nickname|shorthand|"
    r"short\s+name|alternative\s+name|other\s+name|common\s+name|former\s+name)\s+(?:of|for)|another\s+name\s+for|"
    r"the\s+same\s+(?:thing\s+|entity\s+)?as|(?:the\s+)?(?:abbreviation|acronym|shorthand)\s+(?:of|for))"
)
_DIFF_LINK = (
    r"not\s+to\s+be\s+confused\s+with|distinct\s+from|different\s+from|differs\s+from|unlike|separate\s+from|"
    r"as\s+opposed\s+to|rather\s+than|not\s+the\s+same\s+as|(?:is|was|are)\s+not\s+(?:an?\s+|the\s+)?|isn't\s+(?:an?\s+|the\s+)?|"
    r"(?:product|part|subsidiary|division|component|feature|module|service|version|edition|member|branch|unit|"
    r"extension|plugin|plug-in|fork|successor|predecessor|competitor|rival|spin-off|parent|owner|customer|client|"
    r"partner|subset|superset|layer|child|sibling|neighbou?r|capital|suburb)\s+(?:of|from|to|by|for)|"
    r"(?:owned|made|developed|built|created|founded|acquired|operated|run|published|produced|offered|sold|"
    r"maintained|managed|hosted|replaced|succeeded|preceded|designed|invented|written|led|used)\s+by|"
    r"runs\s+(?:on|inside|in)|built\s+on(?:\s+top\s+of)?|based\s+on|inside|within|competes\s+with|compared\s+(?:to|with)"
)
# Phrases that tell two things apart without connecting them.
_DISTINCTION = re.compile(
    r"not\s+to\s+be\s+confused\s+with|distinct\s+from|different\s+from|differs\s+from|separate\s+from|"
    r"not\s+the\s+same\s+as|unlike|as\s+opposed\s+to|rather\s+than",
    re.IGNORECASE,
)
_RELATION_NOUN = (
    r"(?:'s)?\s+(?:product|service|subsidiary|brand|tool|feature|offering|platform|division|project|library|"
    r"module|plugin|extension|team|department|app|application|edition|version)"
)


@lru_cache(maxsize=4096)
def _name_pattern(name: str) -> str:
    parts = [re.escape(p) for p in re.split(r"[\s\-]+", name.strip()) if p]
    return r"(?<!\w)(?:the\s+)?" + r"[\s\-]+".join(parts) + r"(?!\w)"


_SEPARATORS = re.compile(r"[\s\-]+")


@lru_cache(maxsize=16384)
def _flat(text: str) -> str:
    return _SEPARATORS.sub(" ", text).lower()


def _in(context: str, name: str) -> bool:
    """A cheap necessary condition for ``_name_pattern(name)`` to match in the context: the
    patterns below are only built (and compiled) for names the context contains."""
    flat = _flat(name).strip()
    return bool(flat) and flat in _flat(context)


@lru_cache(maxsize=16384)
def _rx(pattern: str) -> re.Pattern:
    return re.compile(pattern, re.IGNORECASE)


# Each pattern below needs its linking phrase somewhere in the context: looking for the
# phrase alone (compiled once) rules most pairs out before a pattern with their names is built.
_HAS_SAME_LINK = re.compile(_SAME_LINK, re.IGNORECASE)
_HAS_DIFF_LINK = re.compile(_DIFF_LINK, re.IGNORECASE)
_HAS_RELATION_NOUN = re.compile(_RELATION_NOUN, re.IGNORECASE)
_HAS_OR = re.compile(r",\s+or\s", re.IGNORECASE)


def _says(context: str, a: str, b: str, link: str) -> bool:
    """The context links name a to name b with the given phrase (b may follow within a
    short list: "A, also known as P, Q and B")."""
    if not context or not a or not b or not (_in(context, a) and _in(context, b)):
        return False
    if link is _SAME_LINK and not _HAS_SAME_LINK.search(context):
        return False
    pa, pb = _name_pattern(a), _name_pattern(b)
    return bool(_rx(rf"{pa}\s*(?:{link})\s*[\"']?(?:[^.;()]{{0,80}}?[\s,])?{pb}").search(context))


def stated_same(x: EntityView, y: EntityView) -> bool:
    for ctx in (x.context, y.context):
        if not ctx or not (_in(ctx, x.name) and _in(ctx, y.name)):
            continue
        for a, b in ((x.name, y.name), (y.name, x.name)):
            if _says(ctx, a, b, _SAME_LINK) or (
                "(" in ctx and _rx(rf"{_name_pattern(a)}\s*\(\s*{_name_pattern(b)}\s*[),;]").search(ctx)
            ):
                return True
            if _HAS_OR.search(ctx) and _rx(rf"{_name_pattern(a)},\s+or\s+{_name_pattern(b)}\s*,").search(ctx):
                return True
    return False


def stated_different(x: EntityView, y: EntityView) -> bool:
    for ctx, a, b in ((x.context, x.name, y.name), (y.context, y.name, x.name)):
        if not ctx or not _in(ctx, b):
            continue
        if _HAS_DIFF_LINK.search(ctx) and _rx(
            rf"(?:{_DIFF_LINK})\s*(?:[\"']|(?:an?|the)\s+)?{_name_pattern(b)}"
        ).search(ctx):
            if not _says(ctx, a, b, _SAME_LINK):
                return True
        if (
            _HAS_RELATION_NOUN.search(ctx)
            and _rx(rf"{_name_pattern(b)}{_RELATION_NOUN}").search(ctx)
            and not _rx(rf"{_name_pattern(a)}{_RELATION_NOUN}").search(b)
        ):
            return True
    return False


def _all_names(v: EntityView) -> list[str]:
    return [n for n in [v.name, *v.aliases] if n.strip()]


def _person_variant(a: list[str], b: list[str]) -> bool:
    """'Carl Rogers' / 'Carl Ransom Rogers', 'G. Stanley Hall' / 'Granville Stanley Hall'.
    A person's name has a few words and no numbers; a product's ("Atlas Mapper 4 for Mac")
    is not read as one."""
    if len(a) < 2 or len(b) < 2 or a[-1] != b[-1] or "of" in a + b or max(len(a), len(b)) > 4:
        return False
    if any(ch.isdigit() for t in a + b for ch in t):
        return False
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    it = iter(long[:-1])
    return all(any(_initial_match(s, t) for t in it) for s in short[:-1]) and _initial_match(short[0], long[0])


def _initial_match(s: str, t: str) -> bool:
    return s == t or (len(s) == 1 and t.startswith(s)) or (len(t) == 1 and s.startswith(t))


def _context_overlap(x: EntityView, y: EntityView) -> float:
    names = set(name_tokens(x.name)) | set(name_tokens(y.name))
    a = set(content_words(x.context)) - names
    b = set(content_words(y.context)) - names
    if not a or not b:
        return 0.0
    return len(a & b) / min(len(a), len(b))


def _type_of(v: EntityView) -> str:
    """The given type, else one a context sentence states: "Mercury is a planet ..."."""
    if head_key(v.type) not in GENERIC_TYPES:
        return v.type
    key = compact(v.name)
    for sentence in split_sentences(v.context):
        found = definition(sentence)
        if found and found[1] and compact(found[0]) == key:
            return found[1]
    return v.type


def _expansions(v: EntityView) -> list[str]:
    """Long forms an acronym's own context spells out: "CQL (Cypher Query Language)"."""
    if not acronym_letters(v.name) or not v.context:
        return []
    name = re.escape(v.name)
    found = re.findall(rf"{name}\s*\(([^()]{{3,80}})\)|([A-Za-z][\w\- ]{{2,80}}?)\s*\(\s*{name}\s*\)", v.context)
    return [long.strip() for pair in found for long in pair if long.strip() and is_acronym_of(v.name, long.strip())]


def _context_without_own_names(v: EntityView) -> str:
    """The entity's context with its own names taken out (longest first): "Talvo" in
    Talvo's own context is itself, not a mention of anything else."""
    ctx = v.context
    for name in sorted(_all_names(v), key=len, reverse=True):
        if ctx and _in(ctx, name):
            ctx = _rx(_name_pattern(name)).sub(" ", ctx)
    return ctx


def names_other(x: EntityView, y: EntityView) -> bool:
    """A context names the other entity, other than only to tell the two apart."""
    for own, other in ((x, y), (y, x)):
        ctx = _context_without_own_names(own)
        if not ctx:
            continue
        for name in _all_names(other):
            if not _in(ctx, name):
                continue
            for match in _rx(_name_pattern(name)).finditer(ctx):
                before = ctx[max(0, match.start() - 40) : match.start()]
                if not _DISTINCTION.search(before):
                    return True
    return False


def judge_one(x: EntityView, y: EntityView) -> tuple[EntityVerdict, float, str]:
    same, confidence, reason = _same_or_not(x, y)
    if same:
        return "SAME", confidence, reason
    if reason.startswith(_EXTENDS):
        return "RELATED", confidence, reason
    if names_other(x, y):
        return "RELATED", confidence, f"{reason}; a context names the other"
    return "DIFFERENT", confidence, reason


_EXTENDS = "one name is the other plus"


def _same_or_not(x: EntityView, y: EntityView) -> tuple[bool, float, str]:
    if stated_different(x, y):
        return False, 0.9, "a context states they are different or related things"
    type_x, type_y = _type_of(x), _type_of(y)
    if types_conflict(type_x, type_y):
        return False, 0.75, f"types differ ({type_x} vs {type_y})"
    names_x, names_y = _all_names(x), _all_names(y)
    cx, cy = {compact(n) for n in names_x} - {""}, {compact(n) for n in names_y} - {""}
    if compact(x.name) and compact(x.name) == compact(y.name):
        if _unconnected_contexts(x, y):
            return False, 0.6, _AMBIGUOUS
        return True, 0.92, "names match after normalisation"
    if cx & cy:
        return True, 0.88, "a stated alias matches the other name"
    if stated_same(x, y):
        return True, 0.85, "a context states they are the same"
    if identifiers_conflict(listing(x.name), listing(y.name)):
        return False, 0.8, "their identifiers (versions, model numbers, codes) differ"
    for a in names_x:
        for b in names_y:
            if is_acronym_of(a, b) or is_acronym_of(b, a):
                return True, 0.8, f"'{a}' abbreviates '{b}'" if len(a) < len(b) else f"'{b}' abbreviates '{a}'"
    for short_form, other in ((x, y), (y, x)):
        for expansion in _expansions(short_form):
            if compact(expansion) == compact(other.name) or _generic_extension(
                name_tokens(expansion), name_tokens(other.name)
            ):
                return True, 0.75, f"'{short_form.name}' stands for '{expansion}', which names '{other.name}'"
    tx, ty = name_tokens(x.name), name_tokens(y.name)
    if _person_variant(tx, ty):
        if _unconnected_contexts(x, y):
            return False, 0.6, _AMBIGUOUS
        return True, 0.7, "same name with or without middle names or initials"
    listed = same_listing(x.name, y.name, _stated_words(x), _stated_words(y))
    if listed:
        return True, 0.7, listed
    short, long = (tx, ty) if len(tx) <= len(ty) else (ty, tx)
    if short and len(long) > len(short) and _contains(long, short):
        extra = [t for t in long if t not in short]
        if _generic_extension(long, short):
            return True, 0.65, f"names differ only by generic words ({' '.join(extra)})"
        return False, 0.8, f"{_EXTENDS} '{' '.join(extra)}': a different, related thing"
    return _by_similarity(x, y)


_AMBIGUOUS = "the same name in two contexts that share nothing: ambiguous, not merged"
# Contexts this long that share no word are about different things, not two views of one.
_SUBSTANTIVE_WORDS = 6


def _unconnected_contexts(x: EntityView, y: EntityView) -> bool:
    """Both contexts say enough, and nothing they say overlaps (names aside): a name alone
    is weak evidence when it is ambiguous (a programming language and a river may share one)."""
    names = set(name_tokens(x.name)) | set(name_tokens(y.name))
    a = set(content_words(x.context)) - names
    b = set(content_words(y.context)) - names
    return len(a) >= _SUBSTANTIVE_WORDS and len(b) >= _SUBSTANTIVE_WORDS and not a & b


def _stated_words(v: EntityView) -> set[str]:
    """Words the entity's context states besides its own names (its maker, say)."""
    return set(re.findall(r"[a-z]+", strip_accents(_context_without_own_names(v)).lower()))


def _generic_extension(long: list[str], short: list[str]) -> bool:
    extra = [t for t in long if t not in short]
    return bool(short) and _contains(long, short) and bool(extra) and all(t in _GENERIC_EXTRA for t in extra)


def _contains(long: list[str], short: list[str]) -> bool:
    n = len(short)
    return any(long[i : i + n] == short for i in range(len(long) - n + 1))


def _by_similarity(x: EntityView, y: EntityView) -> tuple[bool, float, str]:
    a, b = compact(x.name), compact(y.name)
    ratio = SequenceMatcher(None, a, b).ratio() if a and b else 0.0
    overlap = _context_overlap(x, y)
    digits_differ = re.findall(r"\d+", a) != re.findall(r"\d+", b)
    if (
        ratio >= 0.9
        and min(len(a), len(b)) >= 6
        and not digits_differ
        and (overlap >= 0.2 or not (x.context and y.context))
        and not _unconnected_contexts(x, y)
    ):
        return True, 0.6, f"spelling variants (similarity {ratio:.2f})"
    short, long = sorted((a, b), key=len)
    if len(short) >= 5 and long.startswith(short) and not digits_differ:
        rest = long[len(short) :]
        if rest in _TECH_SUFFIX or (len(short) >= 0.75 * len(long) and overlap >= 0.25):
            return True, 0.6, f"'{short}' is a short form of '{long}'"
    confidence = 0.9 - 0.3 * max(ratio, overlap)
    return (
        False,
        round(max(confidence, 0.55), 2),
        f"no evidence of identity (name similarity {ratio:.2f}, context overlap {overlap:.2f})",
    )


def judge(req: JudgeRequest) -> JudgeResponse:
    verdicts = []
    for pair in req.pairs:
        verdict, confidence, reason = judge_one(pair.mention, pair.candidate)
        verdicts.append(Verdict(pair_id=pair.pair_id, verdict=verdict, confidence=confidence, reason=reason))
    return JudgeResponse(verdicts=verdicts)
