"""Plain metric arithmetic shared by the ER and multi-hop evals (no I/O, no models)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

# Every dev set is halved: rules may be looked at against "tune"; "report" is only reported.
SPLITS = ("tune", "report")


def per_split(frame: pd.DataFrame, summary: Callable[[pd.DataFrame], dict], column: str = "split") -> dict:
    """``summary`` of the rows of each half the frame has, tune then report (others left out)."""
    halves = frame.groupby(column)
    return {split: summary(halves.get_group(split)) for split in SPLITS if split in halves.groups}


def prf(tp: int, fp: int, fn: int) -> dict[str, float]:
    """Precision, recall and F1; an empty denominator counts as 0 (nothing found, nothing right)."""
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": round(precision, 4), "recall": round(recall, 4), "f1": round(f1, 4)}


def confusion(predicted: Sequence[bool], actual: Sequence[bool]) -> dict[str, int]:
    pairs = list(zip(predicted, actual))
    return {
        "tp": sum(p and a for p, a in pairs),
        "fp": sum(p and not a for p, a in pairs),
        "fn": sum(a and not p for p, a in pairs),
        "tn": sum(not p and not a for p, a in pairs),
    }


def scored(predicted: Sequence[bool], actual: Sequence[bool]) -> dict:
    """Precision/recall/F1 plus the confusion counts they came from."""
    counts = confusion(predicted, actual)
    return {**prf(counts["tp"], counts["fp"], counts["fn"]), **counts}


def at_threshold(scores: Sequence[float], actual: Sequence[bool], threshold: float) -> dict:
    return scored([s >= threshold for s in scores], actual)


def pr_curve(scores: Sequence[float], actual: Sequence[bool]) -> list[dict]:
    """One point per distinct score, used as the cut 'score >= t', highest first."""
    return [
        {"threshold": round(float(t), 4), **at_threshold(scores, actual, float(t))}
        for t in sorted(set(scores), reverse=True)
    ]


def best_threshold(scores: Sequence[float], actual: Sequence[bool]) -> dict:
    """The cut with the highest F1 (ties: the higher threshold, i.e. the more conservative)."""
    curve = pr_curve(scores, actual)
    return max(curve, key=lambda p: (p["f1"], p["threshold"])) if curve else {"threshold": 0.0, **prf(0, 0, 0)}


# distribution's names for what Series.describe calls its rows
_DESCRIBED = {"mean": "mean", "min": "min", "q1": "25%", "median": "50%", "q3": "75%", "max": "max"}


def distribution(values: Iterable[float]) -> dict:
    described = pd.Series(list(values), dtype=float).describe()
    if not described["count"]:
        return {"n": 0}
    return {"n": int(described["count"]), **{k: round(float(described[row]), 4) for k, row in _DESCRIBED.items()}}


def share(flags: Iterable[bool]) -> float:
    flags = list(flags)
    return round(sum(flags) / len(flags), 4) if flags else 0.0


def mean(values: Iterable[float]) -> float:
    values = list(values)
    return round(float(np.mean(values)), 4) if values else 0.0


def retrieval_scores(retrieved: Sequence[str], needed: Sequence[str]) -> dict:
    """One question: recall of the needed documents, all found, precision of what was pulled."""
    got, want = set(retrieved), set(needed)
    hits = len(got & want)
    return {
        "recall": hits / len(want) if want else 1.0,
        "all_found": want <= got,
        "docs": len(got),
        "precision": hits / len(got) if got else 0.0,
    }


def dotted(data: Mapping[str, Any], key: str) -> Any:
    """``dotted(r, "two_stage.f1")`` is ``r["two_stage"]["f1"]``, or None when absent."""
    value: Any = data
    for part in key.split("."):
        if not isinstance(value, Mapping) or part not in value:
            return None
        value = value[part]
    return value
