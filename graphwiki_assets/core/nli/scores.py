"""What the NLI model says of one (premise, hypothesis) pair: a probability for each label."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from graphwiki_assets.core.nli.data import LABELS


@dataclass(frozen=True)
class NliScores:
    """Probabilities that sum to one: the hypothesis follows from the premise (entailment),
    cannot be told from it (neutral), or cannot both be true with it (contradiction)."""

    entailment: float
    neutral: float
    contradiction: float

    @property
    def label(self) -> str:
        """The most probable label (ties go to the first in LABELS order)."""
        values = (self.entailment, self.neutral, self.contradiction)
        return LABELS[values.index(max(values))]


def softmax(logits: np.ndarray) -> np.ndarray:
    shifted = logits - logits.max(axis=-1, keepdims=True)  # no overflow for large logits
    exp = np.exp(shifted)
    return exp / exp.sum(axis=-1, keepdims=True)


def scores_from_logits(logits: np.ndarray) -> list[NliScores]:
    """Rows of logits in LABELS order -> one NliScores each."""
    return [NliScores(float(e), float(n), float(c)) for e, n, c in softmax(logits.astype(np.float64))]
