"""The NLI model's reading of claim pairs about one concept: contradiction and support.

Each pair is scored both ways round (premise and hypothesis swapped): a contradiction holds
in both directions, so the two probabilities are averaged, while support (a restatement)
is the weaker of the two entailments. The concept's other names are written as its name
first ("CQL is imperative" -> "Cypher is imperative" when CQL is an alias of Cypher): the
model knows nothing of this graph's aliases, and two names read as two subjects.

The thresholds are the model's own decision point (0.5). On the tune half of the labelled
contradiction pairs (``evals/contradictions``) none from 0.3 to 0.7 kept false alarms within
10 %, which is why the model is off by default; the report half only measures it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from graphwiki_assets.core.llm.calls import ClaimPair

# A contradiction: the model gives at least this probability (mean of both directions).
CONTRADICTION = 0.5
# A restatement: each claim entails the other at least this much.
SUPPORT = 0.5


@dataclass(frozen=True)
class PairReading:
    contradiction: float  # mean of both directions
    support: float  # the weaker entailment of the two directions

    @property
    def contradicts(self) -> bool:
        return self.contradiction >= CONTRADICTION

    @property
    def supports(self) -> bool:
        return self.support >= SUPPORT and not self.contradicts


def one_name(text: str, concept: str, aliases: list[str]) -> str:
    """``text`` with each of the concept's other names written as its name."""
    for alias in sorted((a for a in aliases if a and a.lower() != concept.lower()), key=len, reverse=True):
        text = re.sub(rf"(?<!\w){re.escape(alias)}(?!\w)", concept, text, flags=re.IGNORECASE)
    return text


def read_pairs(pairs: list[ClaimPair]) -> list[PairReading]:
    """The model's reading of each pair, in order (one batched call for all of them)."""
    from graphwiki_assets.core.nli import score_pairs

    texts = [
        (one_name(p.new_claim, p.concept, p.concept_aliases), one_name(p.existing_claim, p.concept, p.concept_aliases))
        for p in pairs
    ]
    scores = score_pairs([(a, b) for a, b in texts] + [(b, a) for a, b in texts])
    forward, backward = scores[: len(texts)], scores[len(texts) :]
    return [
        PairReading(
            contradiction=(f.contradiction + b.contradiction) / 2,
            support=min(f.entailment, b.entailment),
        )
        for f, b in zip(forward, backward)
    ]
