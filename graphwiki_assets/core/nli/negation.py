"""Negated copies of training pairs: the model must not read word overlap as entailment.

Trained on SNLI and MultiNLI alone, a small cross-encoder scores "The sky is blue." against
"The sky is not blue." as entailment: nearly every word is shared, and those corpora hold few
pairs that differ by a negation alone. These rules only write extra *training* pairs whose
label follows by logic from a labelled pair; the verdict at run time is the model's.

- ``h`` vs ``not h``: contradiction, both ways round.
- ``h`` vs ``h``, ``not h`` vs ``not h``: entailment (a negation on both sides is no conflict).
- ``p`` entails ``h``  =>  ``p`` contradicts ``not h``.
- ``p`` neutral to ``h``  =>  ``p`` neutral to ``not h`` (it settles neither).

Only a short simple sentence whose first auxiliary is a form of *be* or a modal, among its
first words, is negated ("is" -> "is not", "isn't" -> "is"): "not" after "has" or a main verb
would not read as English, and negating a clause inside "asked if ..." or "says that ..."
would not contradict the sentence.
"""

from __future__ import annotations

import random
import re

from graphwiki_assets.core.nli.data import LABELS, Pair

ENTAILMENT, NEUTRAL, CONTRADICTION = (LABELS.index(label) for label in ("entailment", "neutral", "contradiction"))
_AUXILIARIES = {"is", "are", "was", "were", "can", "will", "could", "would", "should", "must", "may", "might"}
_CONTRACTED = {"isn't": "is", "aren't": "are", "wasn't": "was", "weren't": "were", "can't": "can", "won't": "will"}
_WORD = re.compile(r"^([A-Za-z']+)(.*)$")
_CLAUSES = {"if", "that", "whether", "because", "when", "while", "who", "which", "said", "says", "think", "thinks"}
MAX_WORDS = 14
MAX_AUXILIARY_AT = 6  # the main clause's auxiliary comes early in a short sentence


def negate(sentence: str) -> str | None:
    """The sentence with its first auxiliary negated (or un-negated); None when it has none."""
    words = sentence.split(" ")
    if len(words) > MAX_WORDS or _CLAUSES & {w.lower().strip(".,;:!?") for w in words}:
        return None
    for i, word in enumerate(words[: MAX_AUXILIARY_AT + 1]):
        if i == 0:
            continue  # "Is it ...?": a question, not a claim
        match = _WORD.match(word)
        if not match:
            continue
        bare, tail = match.group(1), match.group(2)
        lower = bare.lower()
        if lower in _CONTRACTED:
            positive = _CONTRACTED[lower]
            words[i] = (positive.capitalize() if bare[0].isupper() else positive) + tail
            return " ".join(words)
        if lower in _AUXILIARIES:
            if tail:  # "is," or "is." ends a clause: no place for "not"
                return None
            if i + 1 < len(words) and words[i + 1].lower() == "not":
                return " ".join(words[: i + 1] + words[i + 2 :])
            return " ".join([*words[: i + 1], "not", *words[i + 1 :]])
    return None


# A sentence against itself teaches little beyond "a negation on both sides is no conflict":
# a quarter of them is enough.
IDENTITY_SHARE = 0.25


def augment(pairs: list[Pair], limit: int, rng: random.Random) -> list[Pair]:
    """Up to ``limit`` negated pairs derived from ``pairs`` (the training ones only, or a
    held-out slice to measure on)."""
    derived: list[Pair] = []
    for p in pairs:
        negated = negate(p.hypothesis)
        if negated is None:
            continue
        source = p.source + "+negation"
        if p.label == ENTAILMENT:
            derived.append(Pair(p.premise, negated, CONTRADICTION, source))
        elif p.label == NEUTRAL:
            derived.append(Pair(p.premise, negated, NEUTRAL, source))
        derived.append(Pair(p.hypothesis, negated, CONTRADICTION, source))
        derived.append(Pair(negated, p.hypothesis, CONTRADICTION, source))
        for same in (p.hypothesis, negated):
            if rng.random() < IDENTITY_SHARE:
                derived.append(Pair(same, same, ENTAILMENT, source))
    rng.shuffle(derived)
    return derived[:limit]
