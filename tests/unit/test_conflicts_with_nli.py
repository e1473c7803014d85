"""The offline contradiction check with the inference model beside its rules: the model reads
the claims with the concept's aliases written as its name, a contradiction the rules find
stands whatever the model says, and without the model the rules decide alone."""

from __future__ import annotations

import pytest

from graphwiki_assets.core.llm.calls import ClaimPair, ConflictRequest
from graphwiki_assets.core.llm.offline.conflicts import conflicts
from graphwiki_assets.core.llm.offline.inference import one_name
from graphwiki_assets.core.nli import is_prepared

needs_model = pytest.mark.skipif(not is_prepared(), reason="no NLI model built (graphwiki nli prepare)")


def _pair(a: str, b: str, concept: str = "Quarrel", aliases: list[str] | None = None) -> ClaimPair:
    return ClaimPair(pair_id="1", concept=concept, concept_aliases=aliases or [], new_claim=a, existing_claim=b)


def test_aliases_are_written_as_the_concept_name_for_the_model():
    assert (
        one_name("QL is slow. Quarrel Lang too.", "Quarrel", ["QL", "Quarrel Lang"]) == "Quarrel is slow. Quarrel too."
    )
    assert one_name("QLX is fast.", "Quarrel", ["QL"]) == "QLX is fast."  # a word, not a part of one


def test_without_the_model_the_rules_decide():
    verdict = conflicts(ConflictRequest(pairs=[_pair("Quarrel is open.", "Quarrel is closed.")])).verdicts[0]
    assert verdict.relation == "contradicts" and "opposite" in verdict.reason


@needs_model
def test_a_rules_contradiction_stands_with_the_model():
    verdict = conflicts(ConflictRequest(pairs=[_pair("Quarrel is open.", "Quarrel is closed.")]), nli=True).verdicts[0]
    assert verdict.relation == "contradicts" and "opposite" in verdict.reason


@needs_model
def test_the_model_reads_an_opposition_the_rules_have_no_words_for():
    pair = _pair("Quarrel ships with a garbage collector.", "Quarrel has no automatic memory management.")
    assert conflicts(ConflictRequest(pairs=[pair])).verdicts[0].relation == "unrelated"
    verdict = conflicts(ConflictRequest(pairs=[pair]), nli=True).verdicts[0]
    assert verdict.relation == "contradicts" and "inference model" in verdict.reason
