"""Stage 2's merge decision: the judge's verdict weighed with the pair's other signals by a
fitted model whose every weight keeps the side its signal's meaning gives it."""

from __future__ import annotations

import numpy as np

from graphwiki_assets.core.evals.er import Pair
from graphwiki_assets.core.evals.er_fit import Scored, fit
from graphwiki_assets.core.ingest.merge_decision import (
    DIRECTION,
    FEATURES,
    decide_pair,
    model_for,
    pair_features,
    revised,
    shipped_models,
)
from graphwiki_assets.core.llm.calls import EntityView, Verdict


def _view(name: str, context: str = "", type_: str = "") -> EntityView:
    return EntityView(name=name, type=type_, aliases=[], context=context)


def test_every_shipped_weight_keeps_the_side_of_its_signal():
    models = shipped_models()
    assert "offline" in models
    for model in models.values():
        for name, weight in zip(FEATURES, model.coef):
            assert weight * DIRECTION[name] >= 0, (model.judge, name, weight)
        assert 0 < model.threshold < 1


def test_a_judge_without_a_model_of_its_own_is_read_through_the_offline_one():
    assert model_for("openai:some-model") == model_for("offline-nlp/v99")


def test_features_read_names_identifiers_and_the_verdict():
    same = Verdict(pair_id="p1", verdict="SAME", confidence=0.8, reason="alias")
    f = pair_features(_view("Photoshop CS3"), _view("Photoshop CS4"), 0.9, same)
    assert f["identifiers_differ"] == 1.0 and f["judge_same"] == 0.8 and f["judge_different"] == 0.0
    f = pair_features(_view("NYC", "NYC is a city"), _view("New York City"), 0.5, None)
    assert f["alias_or_acronym"] == 1.0 and f["judge_same"] == f["judge_related"] == f["judge_different"] == 0.0
    assert pair_features(_view("Mumbai", type_="City"), _view("Mumbai", type_="Person"), 0.9, None)["types"] == -1.0


def test_a_same_verdict_between_different_versions_is_kept_apart_with_the_evidence():
    model = model_for("offline")
    verdict = Verdict(pair_id="p1", verdict="SAME", confidence=0.7, reason="spelling variants")
    decision = decide_pair(model, _view("Photoshop CS3"), _view("Photoshop CS4"), 0.95, verdict)
    after = revised(verdict, decision)
    assert not decision.same and after.verdict == "DIFFERENT"
    assert "identifiers differ" in after.reason and "merge decision" in after.reason


def test_a_confident_same_verdict_on_a_shared_context_stands():
    model = model_for("offline")
    verdict = Verdict(pair_id="p1", verdict="SAME", confidence=0.92, reason="names match after normalisation")
    a = _view("Neo4j", "Neo4j stores graphs and answers Cypher queries over Bolt.")
    b = _view("Neo4J", "Cypher queries reach Neo4J over the Bolt protocol; it stores graphs.")
    after = revised(verdict, decide_pair(model, a, b, 0.9, verdict))
    assert after.verdict == "SAME" and "merge decision" in after.reason


def test_the_decision_never_merges_what_the_judge_kept_apart():
    model = model_for("offline")
    verdict = Verdict(pair_id="p1", verdict="DIFFERENT", confidence=0.55, reason="no evidence of identity")
    a = _view("Acme Cloud", "Acme Cloud stores files for teams in three regions.")
    b = _view("Acme Cloud", "Acme Cloud stores files for teams in three regions.")
    decision = decide_pair(model, a, b, 1.0, verdict)
    assert revised(verdict, decision) == verdict


def _scored(rows: list[tuple[bool, dict[str, float]]]) -> Scored:
    pairs = [
        Pair(i, "d", "same" if same else "related", {"name": f"a{i}"}, {"name": f"b{i}"}, "tune")
        for i, (same, _) in enumerate(rows)
    ]
    features = {i: {name: f.get(name, 0.0) for name in FEATURES} for i, (_, f) in enumerate(rows)}
    return Scored(pairs, {i: 0.5 for i in features}, features, {})


def test_the_fit_weighs_a_separating_signal_and_holds_a_contrary_one_at_zero():
    rng = np.random.default_rng(3)
    rows = []
    for i in range(80):
        same = i % 2 == 0
        # context overlap separates; cosine runs against its meaning (higher for the different pairs)
        rows.append(
            (
                same,
                {
                    "context_overlap": (0.7 if same else 0.2) + rng.normal(0, 0.1),
                    "cosine": (0.5 if same else 0.8) + rng.normal(0, 0.05),
                },
            )
        )
    model, cut = fit({"synthetic": _scored(rows)}, "offline-test")
    weights = model.weights()
    assert weights["context_overlap"] > 0.5
    assert weights["cosine"] == 0.0  # bounded at its side: never a reward for being less alike
    assert cut["precision"] >= 0.9 and model.judge == "offline"
