"""Stage 2's last word: merge or not, decided over every signal instead of the judge alone.

A judge's verdict is one signal among several that entity matching uses after blocking
(Magellan's learned matchers): the vector score, how alike the names are as strings, a
stated alias or an acronym, identifiers that differ (versions, model numbers), whether the
extractor's types agree, and the judge's verdict with its confidence. A logistic regression
over them, each weight held to the side its signal's meaning gives it, fitted on the tune halves of the ER eval sets only (``core/evals/er_fit.py``,
``graphwiki bench er-fit``), turns them into a probability that the two are one thing; the
merge needs the judge's SAME and the probability at or above a cut chosen on the same
halves for precision 0.9: the decision vetoes a merge the other signals speak against (two
version numbers), and never merges on its own (``revised`` says why).

The fitted weights ship in ``merge_models.json``, one model per judge they were fitted
with. A judge with no fitted model of its own is read through the model fitted with the
offline judge (a SAME verdict at a given confidence weighs what the rules' SAME weighs),
which the README states.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from importlib import resources

from rapidfuzz import fuzz

from graphwiki_assets.core.llm.calls import EntityView, Verdict
from graphwiki_assets.core.llm.offline.identifiers import identifiers_conflict, listing
from graphwiki_assets.core.llm.offline.judge import stated_same
from graphwiki_assets.core.llm.offline.names import is_acronym_of
from graphwiki_assets.core.normal_forms import compact, strip_accents
from graphwiki_assets.core.text.type_names import GENERIC_TYPES, head_key, types_conflict
from graphwiki_assets.core.text.words import content_words

FEATURES = (
    "cosine",
    "name_tokens",
    "name_chars",
    "alias_or_acronym",
    "identifiers_differ",
    "types",
    "context_overlap",
    "judge_same",
    "judge_related",
    "judge_different",
)
# The direction each signal's meaning gives it: evidence of identity can only raise the
# probability, evidence of difference only lower it. The fit keeps each weight to its side
# (a weight the data cannot justify goes to 0, never to the other side).
DIRECTION = {
    "cosine": 1,
    "name_tokens": 1,
    "name_chars": 1,
    "alias_or_acronym": 1,
    "identifiers_differ": -1,
    "types": 1,
    "context_overlap": 1,
    "judge_same": 1,
    "judge_related": -1,
    "judge_different": -1,
}
OFFLINE = "offline"  # the key of the model fitted with the offline judge
MODELS_FILE = "merge_models.json"
DECISION_PREFIX = "merge decision"


def _names(v: EntityView) -> list[str]:
    return [n for n in [v.name, *v.aliases] if n and n.strip()]


def _plain(name: str) -> str:
    return strip_accents(name).lower().strip()


def _specific(type_: str) -> str:
    return "" if head_key(type_ or "") in GENERIC_TYPES else (type_ or "")


def _type_agreement(a: EntityView, b: EntityView) -> float:
    ta, tb = _specific(a.type), _specific(b.type)
    if not ta or not tb:
        return 0.0  # one side says nothing specific: no evidence either way
    if types_conflict(ta, tb):
        return -1.0
    return 1.0 if head_key(ta) == head_key(tb) else 0.0


def _context_overlap(a: EntityView, b: EntityView) -> float:
    own = {w for n in _names(a) + _names(b) for w in content_words(n)}
    x = set(content_words(a.context or "")) - own
    y = set(content_words(b.context or "")) - own
    return len(x & y) / min(len(x), len(y)) if x and y else 0.0


def pair_features(a: EntityView, b: EntityView, cosine: float, verdict: Verdict | None) -> dict[str, float]:
    """The signals of one (mention, candidate) pair, each in [-1, 1]."""
    names_a, names_b = _names(a), _names(b)
    token_sim = max((fuzz.token_set_ratio(_plain(x), _plain(y)) for x in names_a for y in names_b), default=0.0)
    char_sim = max((fuzz.ratio(compact(x), compact(y)) for x in names_a for y in names_b), default=0.0)
    alias = bool({compact(x) for x in names_a} & {compact(y) for y in names_b} - {""}) or stated_same(a, b)
    alias = alias or any(is_acronym_of(x, y) or is_acronym_of(y, x) for x in names_a for y in names_b)
    said = {"SAME": 0.0, "RELATED": 0.0, "DIFFERENT": 0.0}
    if verdict is not None and verdict.verdict in said and verdict.confidence > 0:
        said[verdict.verdict] = float(verdict.confidence)
    return {
        "cosine": float(cosine),
        "name_tokens": token_sim / 100.0,
        "name_chars": char_sim / 100.0,
        "alias_or_acronym": 1.0 if alias else 0.0,
        "identifiers_differ": 1.0 if identifiers_conflict(listing(a.name), listing(b.name)) else 0.0,
        "types": _type_agreement(a, b),
        "context_overlap": _context_overlap(a, b),
        "judge_same": said["SAME"],
        "judge_related": said["RELATED"],
        "judge_different": said["DIFFERENT"],
    }


@dataclass(frozen=True)
class MergeModel:
    """A fitted logistic regression over ``FEATURES`` (standardised) and the merge cut."""

    judge: str
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    coef: tuple[float, ...]
    intercept: float
    threshold: float
    fitted_on: dict

    def probability(self, features: dict[str, float]) -> float:
        z = self.intercept + sum(
            w * (features[name] - m) / s for name, w, m, s in zip(FEATURES, self.coef, self.mean, self.scale)
        )
        return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))

    def weights(self) -> dict[str, float]:
        return {name: round(w, 3) for name, w in zip(FEATURES, self.coef)}

    def as_json(self) -> dict:
        return {
            "judge": self.judge,
            "features": list(FEATURES),
            "mean": list(self.mean),
            "scale": list(self.scale),
            "coef": list(self.coef),
            "intercept": self.intercept,
            "threshold": self.threshold,
            "fitted_on": self.fitted_on,
        }

    @classmethod
    def from_json(cls, row: dict) -> MergeModel:
        if tuple(row["features"]) != FEATURES:
            raise ValueError(f"merge model for {row['judge']!r} was fitted on other features: refit it")
        return cls(
            judge=row["judge"],
            mean=tuple(row["mean"]),
            scale=tuple(row["scale"]),
            coef=tuple(row["coef"]),
            intercept=float(row["intercept"]),
            threshold=float(row["threshold"]),
            fitted_on=row.get("fitted_on", {}),
        )


def judge_key(label: str) -> str:
    """The models file's key for a judge: the offline rules under one key whatever their
    version, a model under its backend label."""
    return OFFLINE if label.startswith("offline") else label


@cache
def shipped_models() -> dict[str, MergeModel]:
    text = resources.files("graphwiki_assets.core.ingest").joinpath(MODELS_FILE).read_text()
    return {key: MergeModel.from_json(row) for key, row in json.loads(text).items()}


def model_for(judge_label: str) -> MergeModel | None:
    models = shipped_models()
    return models.get(judge_key(judge_label)) or models.get(OFFLINE)


@dataclass(frozen=True)
class Decision:
    same: bool
    probability: float
    features: dict[str, float]


def decide_pair(model: MergeModel, a: EntityView, b: EntityView, cosine: float, verdict: Verdict | None) -> Decision:
    features = pair_features(a, b, cosine, verdict)
    p = model.probability(features)
    return Decision(same=p >= model.threshold, probability=p, features=features)


def weighed(
    judge_label: str, views: list[tuple[EntityView, EntityView]], scores: list[float], verdicts: list[Verdict]
) -> list[Verdict]:
    """Each judged pair's verdict as the merge decision leaves it (unchanged when no model
    is fitted for any judge)."""
    model = model_for(judge_label)
    if model is None:
        return verdicts
    # only a SAME can be revised (a veto), so only those pay for the signals
    return [
        revised(verdict, decide_pair(model, a, b, score, verdict)) if verdict.same else verdict
        for (a, b), score, verdict in zip(views, scores, verdicts)
    ]


def revised(verdict: Verdict, decision: Decision) -> Verdict:
    """The judge's verdict as the decision leaves it. The decision may keep apart what the
    judge called SAME, never merge what it did not: the model was fitted on eval halves where
    half the pairs are one thing, while most pairs an ingest judges are two (on MuSiQue, 9 %
    of 56,564 verdicts were SAME), and a merge it proposed over the judge's DIFFERENT at
    that prior joined unrelated things ("Nick Saban" and "Nashville Predators")."""
    p = round(decision.probability, 3)
    if not verdict.same:
        return verdict
    if decision.same:
        return verdict.model_copy(update={"confidence": p, "reason": f"{verdict.reason} ({DECISION_PREFIX} {p})"})
    return verdict.model_copy(
        update={
            "verdict": "DIFFERENT",
            "confidence": round(1 - p, 3),
            "reason": f"{DECISION_PREFIX} {p} keeps apart what the judge called SAME: {_evidence(decision)}",
        }
    )


def _evidence(decision: Decision) -> str:
    f = decision.features
    return (
        f"cosine {f['cosine']:.2f}, names {f['name_tokens']:.2f}/{f['name_chars']:.2f}"
        + (", alias or acronym" if f["alias_or_acronym"] else "")
        + (", identifiers differ" if f["identifiers_differ"] else "")
        + (", types agree" if f["types"] > 0 else ", types differ" if f["types"] < 0 else "")
    )
