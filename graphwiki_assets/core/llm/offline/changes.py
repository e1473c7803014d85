"""Offline reading of change over time, and of claims that are not statements at all.

A claim states a change when its grammar says so, whatever it is about: an aspect adverb
("now", "no longer", "anymore"), a verb of becoming or succession ("has become",
"replaced by", "renamed"), a time qualifier ("as of", "since version", "starting with"),
or the past tense of the copula set against the present ("was X" / "is X"). Such a claim
is compared with the older claim about the same subject and property: the same predicate
in another tense, or another value of the same attribute. The value scale used here is
the release stage any documented thing goes through (experimental ... stable ...
removed): its values exclude one another, so two of them said of one subject differ.

Code, command lines, markup and social posts are not statements: their shared tokens
(flags, paths, handles) say nothing about whether two sentences oppose each other.
"""

from __future__ import annotations

import re

_MARKERS = [
    r"\bno\s+longer\b",
    r"\bany\s?more\b",
    r"\b(?:is|are|was|were|has|have|had|will|can|does|do)\s+now\b",
    r"\bnow\s+(?:\w+s|\w+ed)\b",  # "now supports", "now defaulted"
    r"\b(?:has|have|had)\s+become\b|\bbecame\b|\bbecomes\b",
    r"\b(?:has|have|had)\s+been\s+(?:replaced|superseded|renamed|deprecated|removed|promoted|moved|merged)\b",
    r"\b(?:replaced|superseded)\s+by\b",
    r"\brenamed\s+(?:to|as)\b",
    r"\bas\s+of\b",
    r"\bsince\s+(?:version|release|v?\d)",
    r"\bstarting\s+(?:with|from|in)\b",
    r"\b(?:formerly|previously|originally|initially|used\s+to)\b",
    r"\b(?:graduated|promoted|moved|transitioned)\s+from\b",
]
_MARKER = re.compile("|".join(f"(?:{m})" for m in _MARKERS), re.IGNORECASE)
# The markers that assert a new state outright ("is now P" presupposes "was not P").
_BECOMING = re.compile(r"\b(?:is|are)\s+now\b|\b(?:has|have)\s+become\b|\bbecame\b", re.IGNORECASE)

# One attribute, values that exclude one another: the stage a feature, API or product is at.
_RELEASE_STAGE = frozenset(
    "experimental alpha beta preview incubating unstable stable ga deprecated obsolete removed retired legacy "
    "replaced superseded".split()
)
# "generally available", "general availability" and "GA" are one stage, written as one word.
_GENERAL_AVAILABILITY = re.compile(r"\bgeneral(?:ly)?[\s\-]+availab(?:le|ility)\b", re.IGNORECASE)
# "As of version 4, X is ...": the time qualifier is not part of the subject.
_LEADING_TIME = re.compile(
    r"^\s*(?:as\s+of|since|starting\s+(?:with|from|in)|from|in|with|after)\b[^,;:]{0,40},\s*", re.IGNORECASE
)

_COPULA = re.compile(
    r"^\s*(?:the\s+)?(?P<subject>[^,;:]+?)\s+(?P<verb>is|are|was|were|has\s+been|have\s+been|has\s+become|have\s+become|became)\s+"
    r"(?P<adverb>(?:now|still|already|no\s+longer|not)\s+)?(?P<predicate>[\w\-]+(?:\s+[\w\-]+){0,2})",
    re.IGNORECASE,
)
# "OCI support graduated from experimental to general availability": a change stated in one
# claim, whose state now is the one after "to".
_TRANSITION = re.compile(
    r"^\s*(?:the\s+)?(?P<subject>[^,;:]+?)\s+(?:has\s+|have\s+|was\s+|were\s+)?"
    r"(?:graduated|moved|promoted|progressed|advanced|went|transitioned)\s+from\s+[\w\-]+(?:\s+[\w\-]+)?\s+"
    r"(?:to|into)\s+(?P<predicate>[\w\-]+(?:\s+[\w\-]+){0,2})",
    re.IGNORECASE,
)
_DETERMINERS = frozenset("a an the one some any".split())
_PAST = frozenset({"was", "were"})


def marker(text: str) -> str | None:
    """The words that state a change over time, as written; None when the claim states none."""
    found = _MARKER.search(text)
    return " ".join(found.group().split()) if found else None


def _subject(words: str, concept: set[str]) -> frozenset[str]:
    out = frozenset(w.lower() for w in re.findall(r"[\w\-]+", words) if w.lower() not in _DETERMINERS)
    return frozenset({"<concept>"}) if out and out <= concept else out


def _stage(text: str) -> tuple[str, bool] | None:
    """The release stage a claim gives (the last named is the current one: "from beta to
    stable"), and whether it is negated before it."""
    words = [w.lower() for w in re.findall(r"[A-Za-z][\w\-]*", _GENERAL_AVAILABILITY.sub("ga", text))]
    at = [i for i, w in enumerate(words) if w in _RELEASE_STAGE]
    if not at:
        return None
    i = at[-1]
    negated = any(w in ("not", "no", "never", "longer") for w in words[max(0, i - 3) : i])
    return words[i], negated


def copular(text: str, concept: set[str]) -> dict | None:
    """ "X is (now) P": the subject (its words, or <concept> when it names the concept),
    the tense, whether the predicate is negated, and the predicate's words."""
    text = _GENERAL_AVAILABILITY.sub("ga", _LEADING_TIME.sub("", text))
    moved = _TRANSITION.match(text)
    if moved:  # the state it moved to, said now
        to = [w.lower() for w in moved.group("predicate").split()]
        return {
            "subject": _subject(moved.group("subject"), concept),
            "past": False,
            "negated": False,
            "nominal": False,
            "predicate": to,
        }
    found = _COPULA.match(text)
    if not found:
        return None
    predicate = [w.lower() for w in found.group("predicate").split()]
    adverb = (found.group("adverb") or "").lower().split()
    return {
        "subject": _subject(found.group("subject"), concept),
        "past": found.group("verb").lower() in _PAST,
        "negated": bool({"not", "longer"} & set(adverb)),
        "nominal": predicate[0] in _DETERMINERS,
        "predicate": predicate,
    }


def change_over_time(new: str, old: str, concept: set[str]) -> str | None:
    """Why ``new`` and ``old`` state a change of one property of one subject, or None."""
    a, b = copular(new, concept), copular(old, concept)
    if not (a and b) or a["negated"] or b["negated"]:
        return None
    if not (a["subject"] <= b["subject"] or b["subject"] <= a["subject"]):
        return None  # said of different things ("the v2 API" / "the v3 API")
    said = marker(new) or marker(old)
    stage_a, stage_b = _stage(new), _stage(old)
    if stage_a and stage_b and not (stage_a[1] or stage_b[1]):
        if stage_a[0] != stage_b[0]:
            how = f" ('{said}')" if said else ""
            return f"a change over time{how}: release stage '{stage_a[0]}' vs '{stage_b[0]}'"
        if a["past"] != b["past"]:
            return f"a change over time: '{stage_a[0]}' in the past tense in one claim, the present in the other"
    if a["predicate"] == b["predicate"] and a["past"] != b["past"] and not a["nominal"]:
        return (
            f"a change over time: '{' '.join(a['predicate'])}' in the past tense in one claim, the present in the other"
        )
    becoming = _BECOMING.search(new) or _BECOMING.search(old)
    shared = set(a["predicate"]) & set(b["predicate"])  # "now stable" / "now considered stable": the same
    single = len(a["predicate"]) == len(b["predicate"]) == 1  # "X is now P." / "X is Q.": one slot each
    if becoming and single and not (a["nominal"] or b["nominal"] or shared):
        return (
            f"a change over time ('{' '.join(becoming.group().split())}'): "
            f"'{a['predicate'][0]}' vs '{b['predicate'][0]}'"
        )
    return None


_CODE_SIGNS = re.compile(r"[=<>{}\[\]$`|\\_]|::|->|\(\)|^--?\w|/\w|^[@#]\w|://")


def is_statement(text: str) -> bool:
    """Prose, not code, a command line, markup or a post: few tokens carry code signs."""
    tokens = text.split()
    if not tokens:
        return False
    coded = sum(1 for t in tokens if _CODE_SIGNS.search(t))
    return coded / len(tokens) < 0.2
