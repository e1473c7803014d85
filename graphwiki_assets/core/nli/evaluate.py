"""Held-out numbers of an NLI model: accuracy, per-label precision and recall, throughput."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import numpy as np

from graphwiki_assets.core.nli.data import LABELS, Pair


def metrics(gold: Sequence[int], predicted: Sequence[int]) -> dict:
    """Accuracy, a confusion matrix (rows gold, columns predicted, LABELS order) and each
    label's precision, recall and F1."""
    g, p = np.asarray(gold), np.asarray(predicted)
    confusion = np.zeros((len(LABELS), len(LABELS)), dtype=int)
    for a, b in zip(g, p):
        confusion[a, b] += 1
    per_label = {}
    for i, label in enumerate(LABELS):
        tp = int(confusion[i, i])
        precision = tp / max(1, int(confusion[:, i].sum()))
        recall = tp / max(1, int(confusion[i, :].sum()))
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        per_label[label] = {"precision": round(precision, 4), "recall": round(recall, 4), "f1": round(f1, 4)}
    return {
        "pairs": int(len(g)),
        "accuracy": round(float((g == p).mean()) if len(g) else 0.0, 4),
        "per_label": per_label,
        "confusion": confusion.tolist(),
    }


def evaluate(logits_of: Callable[[list[tuple[str, str]]], np.ndarray], pairs: list[Pair]) -> dict:
    """Metrics of a logits function on ``pairs``, overall and for each source, plus pairs per
    second of wall time (one call over all the pairs, so batched as the runtime batches)."""
    inputs = [(p.premise, p.hypothesis) for p in pairs]
    start = time.perf_counter()
    logits = logits_of(inputs)
    seconds = time.perf_counter() - start
    predicted = logits.argmax(axis=1).tolist()
    result = metrics([p.label for p in pairs], predicted)
    result["by_source"] = {
        source: metrics(
            [p.label for p in pairs if p.source == source], [y for p, y in zip(pairs, predicted) if p.source == source]
        )
        for source in sorted({p.source for p in pairs})
    }
    result["pairs_per_second"] = round(len(pairs) / seconds, 1) if seconds > 0 else None
    return result
