"""Fitting stage 2's merge decision (``core/ingest/merge_decision.py``) on the ER tune halves,
and the report halves' verdict on it (``graphwiki bench er-fit``).

The pairs a decision is ever asked about are stage 1's survivors, so the model is fitted on
those of every set's tune half (general and invented: their ``tune`` rows; products: the dev
file), pooled: one decision for every domain, not one per set. Each survivor is judged by
the configured judge through ingest's own call. The cut is read off probabilities from
5-fold cross-validation on the same pairs (not the in-sample fit, which flatters it): the
lowest probability at which precision stays at or above 0.9, so that F1 is as high as that
precision allows.

The report halves are never fitted on. For each set, the report half is scored three ways:
cosine alone at the threshold that maximised F1 on that set's tune half, the judge alone,
and the decision.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from graphwiki_assets.core.embeddings import Embedder
from graphwiki_assets.core.evals import er, metrics
from graphwiki_assets.core.evals.datasets import ER_SETS, er_pairs
from graphwiki_assets.core.ingest.merge_decision import (
    DIRECTION,
    FEATURES,
    MODELS_FILE,
    MergeModel,
    judge_key,
    pair_features,
)
from graphwiki_assets.core.ingest.resolution import Stage1Config

TARGET_PRECISION = 0.9
FOLDS = 5
SEED = 7
# Each report half and the tune half whose cosine threshold it is scored at.
TUNE_OF = {"general": "general", "invented": "invented", "products_test": "products_dev"}


@dataclass
class Scored:
    """One set's pairs with what each signal says about them."""

    pairs: list[er.Pair]
    scores: dict[int, float]
    features: dict[int, dict[str, float]]  # stage 1's survivors only
    judged_same: dict[int, bool]


def score_set(pairs: list[er.Pair], embedder: Embedder, llm, config: Stage1Config = Stage1Config()) -> Scored:
    scores = er.cosines(pairs, er.side_vectors(pairs, embedder))
    passed = {p.index: scores[p.index] >= config.floor for p in pairs}
    survivors = [p for p in pairs if passed[p.index]]
    verdicts, _ = er.judge(llm, survivors, config)
    features = {p.index: pair_features(*er.views(p, config), scores[p.index], verdicts.get(p.index)) for p in survivors}
    return Scored(pairs, scores, features, er.said_same(pairs, passed, verdicts))


def _matrix(rows: list[dict[str, float]]) -> np.ndarray:
    return np.array([[row[name] for name in FEATURES] for row in rows], dtype=float)


def _cut(probabilities: np.ndarray, actual: np.ndarray, missed_before: int) -> dict:
    """The lowest cut whose precision is at least the target (F1 counting the same pairs
    stage 1 already lost); none reaching it: the most precise cut."""
    points = []
    for t in sorted(set(probabilities.round(6)), reverse=True):
        got = metrics.scored([bool(x) for x in probabilities >= t], [bool(x) for x in actual])
        got["fn"] += missed_before
        points.append({"threshold": float(t), **got, **metrics.prf(got["tp"], got["fp"], got["fn"])})
    good = [p for p in points if p["precision"] >= TARGET_PRECISION]
    if good:
        return max(good, key=lambda p: (p["f1"], p["threshold"]))
    return max(points, key=lambda p: (p["precision"], p["f1"]))


def _signed_fit(X: np.ndarray, y: np.ndarray, c: float = 1.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Logistic regression on standardised features with balanced class weights and an L2
    penalty (sklearn's defaults), each weight bounded to its ``DIRECTION`` (L-BFGS-B)."""
    from scipy.optimize import minimize

    mean, scale = X.mean(axis=0), X.std(axis=0)
    scale[scale == 0] = 1.0
    Z = (X - mean) / scale
    weight = np.where(y, len(y) / (2 * max(y.sum(), 1)), len(y) / (2 * max((~y).sum(), 1)))
    target = y.astype(float)

    def loss(theta: np.ndarray) -> tuple[float, np.ndarray]:
        z = theta[0] + Z @ theta[1:]
        p = 1.0 / (1.0 + np.exp(-z))
        g = weight * (p - target)
        value = float(np.sum(weight * (np.logaddexp(0.0, z) - target * z)) + 0.5 * theta[1:] @ theta[1:] / c)
        return value, np.concatenate([[g.sum()], Z.T @ g + theta[1:] / c])

    bounds = [(None, None)] + [(0.0, None) if DIRECTION[name] > 0 else (None, 0.0) for name in FEATURES]
    theta = minimize(loss, np.zeros(len(FEATURES) + 1), jac=True, method="L-BFGS-B", bounds=bounds).x
    return mean, scale, theta


def _probabilities(fitted: tuple[np.ndarray, np.ndarray, np.ndarray], X: np.ndarray) -> np.ndarray:
    mean, scale, theta = fitted
    return 1.0 / (1.0 + np.exp(-(theta[0] + ((X - mean) / scale) @ theta[1:])))


def fit(tune: dict[str, Scored], judge_label: str) -> tuple[MergeModel, dict]:
    from sklearn.model_selection import StratifiedKFold

    rows, actual, missed = [], [], 0
    for scored in tune.values():
        for p in scored.pairs:
            if p.index in scored.features:
                rows.append(scored.features[p.index])
                actual.append(p.same)
            elif p.same:
                missed += 1  # screened out by stage 1: no decision can find it
    X, y = _matrix(rows), np.array(actual, dtype=bool)
    held_out = np.zeros(len(y))
    for train, test in StratifiedKFold(n_splits=FOLDS, shuffle=True, random_state=SEED).split(X, y):
        held_out[test] = _probabilities(_signed_fit(X[train], y[train]), X[test])
    cut = _cut(held_out, y, missed)
    mean, scale, theta = _signed_fit(X, y)
    model = MergeModel(
        judge=judge_key(judge_label),
        mean=tuple(float(x) for x in mean),
        scale=tuple(float(x) for x in scale),
        coef=tuple(float(x) for x in theta[1:]),
        intercept=float(theta[0]),
        threshold=round(cut["threshold"], 4),
        fitted_on={
            "sets": {name: "tune half" if name != "products_dev" else "dev file" for name in tune},
            "pairs": len(rows),
            "same": int(y.sum()),
            "judge": judge_label,
            "date": dt.date.today().isoformat(),
            "cross_validated_at_cut": {k: cut[k] for k in ("precision", "recall", "f1")},
        },
    )
    return model, cut


def report_half(scored: Scored, tune: Scored, model: MergeModel, split: str = "report") -> dict:
    """The set's ``split`` half scored by cosine alone (at its tune half's best threshold),
    by the judge alone and by the decision."""
    tuned = [p for p in tune.pairs if p.split == "tune"]
    best = metrics.best_threshold([tune.scores[p.index] for p in tuned], [p.same for p in tuned])
    half = [p for p in scored.pairs if p.split == split]
    actual = [p.same for p in half]
    # as ingest applies it: a veto on the judge's SAME (merge_decision.revised)
    decided = {
        i: scored.judged_same.get(i, False) and model.probability(f) >= model.threshold
        for i, f in scored.features.items()
    }
    return {
        "n": len(half),
        "same": sum(actual),
        "cosine_threshold_from_tune": best["threshold"],
        "cosine": metrics.at_threshold([scored.scores[p.index] for p in half], actual, best["threshold"]),
        "judge": metrics.scored([scored.judged_same.get(p.index, False) for p in half], actual),
        "decision": metrics.scored([decided.get(p.index, False) for p in half], actual),
    }


def run_fit(embedder: Embedder, llm, log: Callable[[str], None] = lambda m: None) -> dict:
    loaded = {name: er.load_pairs(er_pairs(key)) for key, name in ER_SETS.items()}
    scored = {}
    for name, pairs in loaded.items():
        log(f"{name}: {len(pairs)} pairs, judged by {llm.label}")
        scored[name] = score_set(pairs, embedder, llm)
    tune = {name: _only(scored[name], "tune") for name in ("general", "invented", "products_dev")}
    model, cut = fit(tune, llm.label)
    report = {name: report_half(scored[name], scored[tuned], model) for name, tuned in TUNE_OF.items()}
    return {
        "judge": llm.label,
        "embedding_model": embedder.name,
        "model": model.as_json(),
        "weights": model.weights(),
        "cut": cut,
        "report_halves": report,
    }


def _only(scored: Scored, split: str) -> Scored:
    keep = [p for p in scored.pairs if p.split == split]
    ids = {p.index for p in keep}
    return Scored(
        keep,
        scored.scores,
        {i: f for i, f in scored.features.items() if i in ids},
        {i: s for i, s in scored.judged_same.items() if i in ids},
    )


def write_model(model_json: dict, path: Path | None = None) -> Path:
    """Add (or replace) the judge's model in the shipped models file."""
    path = path or Path(__file__).resolve().parents[1] / "ingest" / MODELS_FILE
    models = json.loads(path.read_text()) if path.exists() else {}
    models[model_json["judge"]] = model_json
    path.write_text(json.dumps(models, indent=1, sort_keys=True) + "\n")
    return path
