"""Offline support check: is a statement entailed by the facts it cites, read lexically?

A statement is supported when at least ``MIN_COVERAGE`` of its content words (stemmed,
stopwords left out) occur in the evidence, every number it states occurs there too, and
it adds no negation the evidence lacks ("X is not cached" is not supported by "X is
cached"). Words tell nothing about meaning beyond that: a paraphrase in other words
fails this check and a reordering of the evidence's words into a false statement
passes it, so the check is strict on copied text and weak on rewritten text.
"""

from __future__ import annotations

import re

from graphwiki_assets.core.llm.calls import SupportPair, SupportRequest, SupportResponse, SupportVerdict
from graphwiki_assets.core.text.words import content_words, words

MIN_COVERAGE = 0.8
_NEGATIONS = frozenset("not no never none nor neither without cannot".split())
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def _numbers(text: str) -> set[str]:
    return {n.replace(",", "") for n in _NUMBER.findall(text)}


def _negated(text: str) -> bool:
    return any(w.lower() in _NEGATIONS or w.lower().endswith("n't") for w in words(text))


def check(pair: SupportPair) -> tuple[bool, str]:
    evidence = " ".join(pair.evidence)
    said = content_words(pair.statement)
    known = set(content_words(evidence))
    if not said:
        return False, "the statement has no content words to check"
    missing = [w for w in dict.fromkeys(said) if w not in known]
    coverage = 1 - len(missing) / len(set(said))
    extra_numbers = _numbers(pair.statement) - _numbers(evidence)
    if extra_numbers:
        return False, f"numbers not in the evidence: {', '.join(sorted(extra_numbers))}"
    if _negated(pair.statement) and not _negated(evidence):
        return False, "a negation the evidence does not have"
    if coverage < MIN_COVERAGE:
        return False, f"{coverage:.0%} of its content words are in the evidence (missing: {', '.join(missing[:5])})"
    return True, f"{coverage:.0%} of its content words are in the evidence"


def support(req: SupportRequest) -> SupportResponse:
    verdicts = []
    for pair in req.pairs:
        supported, reason = check(pair)
        verdicts.append(SupportVerdict(pair_id=pair.pair_id, supported=supported, reason=reason))
    return SupportResponse(verdicts=verdicts)
