"""Embeddings: texts go through ONNX Runtime and come out as the vectors PyTorch gives, in
the order they were given; an export that cannot reproduce PyTorch is never used."""

from __future__ import annotations

import subprocess
import sys

import numpy as np

from graphwiki_assets.core import embeddings_onnx

TEXTS = ["Which lab built the Driftwood engine?", "Tidescript", "", "word " * 400, "Ünïcode näme 名前"]


def test_a_question_is_embedded_by_onnx_runtime_as_pytorch_embeds_it(embedder):
    assert embedder.onnx is not None, "the packaged model exports to ONNX Runtime"
    assert embedder.runtime == "onnxruntime"
    fast = np.stack([np.asarray(embedder.encode_one(t + " (asked)")) for t in TEXTS])
    reference = embedder.model.encode([t + " (asked)" for t in TEXTS], normalize_embeddings=True)
    assert np.min(np.sum(fast * reference, axis=1)) > 0.9999
    assert np.allclose(np.linalg.norm(fast, axis=1), 1.0, atol=1e-5)


def test_a_small_call_with_texts_of_different_lengths_is_padded_correctly(embedder):
    batch = embedder.onnx.encode(TEXTS)
    one_by_one = np.stack([embedder.onnx.encode([t])[0] for t in TEXTS])
    assert np.min(np.sum(batch * one_by_one, axis=1)) > 0.9999


def test_a_large_call_is_batched_by_length_and_returned_in_the_given_order(embedder):
    texts = [f"{'long ' * (i % 13) * 9}text number {i}" for i in range(150)]  # lengths interleaved
    fast = embedder.encode_uncached(texts, batch_size=16)
    reference = embedder.model.encode(texts, normalize_embeddings=True)
    assert fast.shape == reference.shape
    assert np.min(np.sum(fast * reference, axis=1)) > 0.9999


def test_runs_hold_texts_of_similar_lengths_within_a_budget_of_padded_tokens():
    lengths = [40, 3, 300, 5, 41, 4, 39, 120, 6]
    runs = embeddings_onnx.runs_by_length(lengths, budget=128, cap=3)

    assert sorted(i for run in runs for i in run) == list(range(len(lengths)))  # each text once
    flat = [lengths[i] for run in runs for i in run]
    assert flat == sorted(lengths)  # shortest first, so a run pads little
    for run in runs:
        assert len(run) <= 3
        assert len(run) == 1 or len(run) * max(lengths[i] for i in run) <= 128
    assert [2] in runs and [7] in runs  # longer than the budget, or than its share of it: alone


def test_a_texts_vector_does_not_depend_on_the_texts_read_beside_it(embedder):
    alone = embedder.onnx.encode(["Quillmere"])[0]
    crowd = ["Orrin Vask founded the glassworks. " * (i % 7) + f"name {i}" for i in range(90)]
    among = embedder.onnx.encode([*crowd[:45], "Quillmere", *crowd[45:]])[45]
    assert float(alone @ among) > 0.99999


def test_an_export_that_differs_from_pytorch_is_not_used(embedder, tmp_path, monkeypatch):
    monkeypatch.setattr(embeddings_onnx, "MIN_PROBE_COSINE", 1.5)  # no export can reach it
    assert embeddings_onnx.load_onnx_encoder(embedder.model, embedder._path, 1, folder=tmp_path) is None
    monkeypatch.setattr(embeddings_onnx, "MIN_PROBE_COSINE", 0.9999)
    assert embeddings_onnx.load_onnx_encoder(embedder.model, embedder._path, 1, folder=tmp_path) is not None
    assert len(list(tmp_path.glob("*.onnx"))) == 1  # exported once, reused by the second load


def test_a_broken_export_leaves_pytorch_in_charge(embedder, tmp_path):
    target = tmp_path / f"{embeddings_onnx._fingerprint(embedder._path, embedder.model.max_seq_length)}.onnx"
    target.write_bytes(b"not an onnx graph")
    assert embeddings_onnx.load_onnx_encoder(embedder.model, embedder._path, 1, folder=tmp_path) is None


def test_an_export_checked_once_loads_alone_and_encodes_as_the_model_does(embedder, tmp_path):
    assert embeddings_onnx.load_checked_encoder(embedder._path, 1, folder=tmp_path) is None  # not checked yet
    checked = embeddings_onnx.load_onnx_encoder(embedder.model, embedder._path, 1, folder=tmp_path)
    alone = embeddings_onnx.load_checked_encoder(embedder._path, 1, folder=tmp_path)
    assert checked is not None and alone is not None
    assert (
        np.min(np.sum(alone.encode(TEXTS) * embedder.model.encode(TEXTS, normalize_embeddings=True), axis=1)) > 0.9999
    )
    assert alone.token_ids(TEXTS) == embedder.model.tokenizer(TEXTS, truncation=True, max_length=256)["input_ids"]


def test_a_check_made_with_other_probes_is_made_again(embedder, tmp_path):
    embeddings_onnx.load_onnx_encoder(embedder.model, embedder._path, 1, folder=tmp_path)
    [record] = tmp_path.glob("*.json")
    record.write_text('{"probe_cosine": 1.0}')  # what an older version wrote
    assert embeddings_onnx.load_checked_encoder(embedder._path, 1, folder=tmp_path) is None


def test_a_process_with_a_checked_export_never_imports_pytorch(embedder):
    embedder.encode(["make sure the export is checked"])
    probe = (
        "import sys; from graphwiki_assets.core.embeddings import Embedder; e = Embedder('all-MiniLM-L6-v2'); "
        "e.encode(['a question']); print(e.runtime, 'torch' in sys.modules, 'sentence_transformers' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True).stdout
    assert out.split() == ["onnxruntime", "False", "False"]
