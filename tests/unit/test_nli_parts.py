"""The NLI module's parts that need no trained model: the vendored pairs match their pin and
hold out whole premises, logits become probabilities in label order, and a model folder
whose files differ from its manifest is refused."""

from __future__ import annotations

import json

import numpy as np
import pytest

from graphwiki_assets.core.nli import data
from graphwiki_assets.core.nli.model import (
    MANIFEST,
    ONNX_FILE,
    TOKENIZER_FILE,
    NliModelMissing,
    NliModelSpec,
    is_prepared,
    verified_dir,
    write_manifest,
)
from graphwiki_assets.core.nli.scores import NliScores, scores_from_logits


def test_the_vendored_pairs_match_their_pin_and_hold_out_whole_premises():
    pairs = data.load_pairs()
    train, held_out = data.split_pairs(pairs)
    assert {p.source for p in pairs} == {"snli-dev", "snli-test", "mnli"}
    assert len(train) > 20_000 and len(held_out) > 4_000
    assert not {p.premise for p in train} & {p.premise for p in held_out}
    assert {p.source for p in held_out} == {"snli-test", "mnli"}  # SNLI's dev split is all training


def test_a_changed_data_file_is_refused(tmp_path):
    copy = tmp_path / "pairs.tsv.gz"
    copy.write_bytes(data.VENDORED.read_bytes() + b"\0")
    with pytest.raises(data.NliDataError):
        data.load_pairs(copy)


def test_tokenised_text_reads_as_plain_sentences():
    assert (
        data.detokenize("The dog does n't like the man 's hat , really .")
        == "The dog doesn't like the man's hat, really."
    )


def test_logits_become_probabilities_in_label_order():
    [first, second] = scores_from_logits(np.array([[2.0, 0.0, -1.0], [0.0, 0.0, 900.0]]))
    assert first.label == "entailment" and second.label == "contradiction"
    for s in (first, second):
        assert s.entailment + s.neutral + s.contradiction == pytest.approx(1.0)
    assert second.contradiction == pytest.approx(1.0)  # no overflow on a large logit


def test_ties_go_to_the_first_label():
    assert NliScores(0.4, 0.4, 0.2).label == "entailment"


@pytest.fixture
def spec() -> NliModelSpec:
    return NliModelSpec(name="fake-nli", base_requirement="none==0", base_weights_sha256="0" * 64, licence="test")


def test_a_folder_is_verified_only_while_its_files_match_the_manifest(tmp_path, spec):
    assert not is_prepared(spec, tmp_path)
    with pytest.raises(NliModelMissing, match="nli.train"):
        verified_dir(spec, tmp_path)
    folder = tmp_path / spec.name
    folder.mkdir()
    (folder / ONNX_FILE).write_bytes(b"weights")
    (folder / TOKENIZER_FILE).write_text("{}")
    write_manifest(folder, [ONNX_FILE, TOKENIZER_FILE])
    assert verified_dir(spec, tmp_path) == folder
    (folder / ONNX_FILE).write_bytes(b"weights, half copied")
    assert not is_prepared(spec, tmp_path)


def test_a_manifest_without_the_model_is_refused(tmp_path, spec):
    folder = tmp_path / spec.name
    folder.mkdir()
    (folder / TOKENIZER_FILE).write_text("{}")
    (folder / MANIFEST).write_text(json.dumps({"files": {}}))
    with pytest.raises(NliModelMissing, match=ONNX_FILE):
        verified_dir(spec, tmp_path)


def test_scoring_without_a_model_says_how_to_build_one(tmp_path, spec):
    from graphwiki_assets.core.nli import score_pairs

    assert score_pairs([], spec=spec, root=tmp_path) == []  # nothing to score needs no model
    with pytest.raises(NliModelMissing, match="nli.train"):
        score_pairs([("A claim.", "Another claim.")], spec=spec, root=tmp_path)


def test_negation_turns_an_auxiliary_around_or_leaves_the_sentence_alone():
    from graphwiki_assets.core.nli.negation import negate

    assert negate("The kettle is boiling.") == "The kettle is not boiling."
    assert negate("The kettle is not boiling.") == "The kettle is boiling."
    assert negate("The kettle isn't boiling.") == "The kettle is boiling."
    assert negate("The kettle boils.") is None  # no auxiliary to negate
    assert negate("Is the kettle boiling?") is None  # a question
    assert negate("She wondered if the kettle was boiling.") is None  # the clause is not the claim


def test_negated_pairs_keep_labels_that_follow_by_logic():
    import random

    from graphwiki_assets.core.nli.negation import augment

    pairs = [
        data.Pair("A cat sleeps on a warm mat.", "A cat is sleeping.", 0, "test"),  # entailment
        data.Pair("A cat sleeps on a warm mat.", "The cat is old.", 1, "test"),  # neutral
    ]
    derived = {(p.premise, p.hypothesis): p.label for p in augment(pairs, 100, random.Random(0))}
    assert derived[("A cat sleeps on a warm mat.", "A cat is not sleeping.")] == 2
    assert derived[("A cat sleeps on a warm mat.", "The cat is not old.")] == 1
    assert derived[("A cat is sleeping.", "A cat is not sleeping.")] == 2
    assert derived[("The cat is not old.", "The cat is old.")] == 2
