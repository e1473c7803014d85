"""The trained NLI model on plain cases: a negated claim contradicts, a restatement is
entailed, and a batch answers in input order. Skipped when the model has not been built on
this machine (``python -m graphwiki_assets.core.nli.train``).

A known weakness is kept in view as an expected failure: two claims that differ in one value
("open" vs "closed", 1998 vs 2005) are not yet read as a contradiction."""

from __future__ import annotations

import pytest

from graphwiki_assets.core.nli import NliScores, is_prepared, score_pairs

pytestmark = pytest.mark.skipif(
    not is_prepared(), reason="no NLI model prepared; build it with python -m graphwiki_assets.core.nli.train"
)

CONTRADICTIONS = [
    ("The sky is blue.", "The sky is not blue."),
    ("The trains were running on time.", "The trains were not running on time."),
    ("Maria arrived before the meeting started.", "Maria never arrived at the meeting."),
]
ENTAILMENTS = [
    ("A child is riding a red bicycle down the street.", "A kid is riding a bike."),
    ("The committee approved the new budget on Monday.", "The budget was approved."),
    ("Two dogs are playing with a ball in the park.", "Animals are playing outside."),
    ("The museum is open today.", "The museum can be visited today."),
]
VALUE_CONFLICTS = [
    ("The library is open on Sundays.", "The library is closed on Sundays."),
    ("The company was founded in 1998.", "The company was founded in 2005."),
]


def test_a_negated_claim_is_a_contradiction():
    for scores in score_pairs(CONTRADICTIONS):
        assert scores.label == "contradiction", scores


def test_a_restatement_is_entailed():
    for scores in score_pairs(ENTAILMENTS):
        assert scores.label == "entailment", scores


@pytest.mark.xfail(reason="SNLI/MultiNLI pairs this small teach negation, not value substitution", strict=True)
def test_claims_that_differ_in_one_value_contradict():
    for scores in score_pairs(VALUE_CONFLICTS):
        assert scores.label == "contradiction", scores


def test_scores_are_probabilities_in_input_order():
    pairs = [ENTAILMENTS[0], CONTRADICTIONS[0], ENTAILMENTS[1], CONTRADICTIONS[1]]
    batched = score_pairs(pairs, batch_size=3)  # more than one run, of different lengths
    assert [s.label for s in batched] == ["entailment", "contradiction", "entailment", "contradiction"]
    for pair, scores in zip(pairs, batched):
        assert isinstance(scores, NliScores)
        assert scores.entailment + scores.neutral + scores.contradiction == pytest.approx(1.0, abs=1e-6)
        [alone] = score_pairs([pair])
        # int8 activations are quantised per run, so padding moves the last digits a little
        assert alone.contradiction == pytest.approx(scores.contradiction, abs=5e-3)


def test_no_pairs_is_no_work():
    assert score_pairs([]) == []
