"""Embeddings: texts go through ONNX Runtime and come out as the vectors PyTorch gives, in
the order they were given; an export that cannot reproduce PyTorch is never used."""

from __future__ import annotations

import numpy as np

from graphwiki_assets.core import embeddings_onnx

TEXTS = ["Which lab built the Driftwood engine?", "Tidescript", "", "word " * 400, "Ünïcode näme 名前"]


def test_a_question_is_embedded_by_onnx_runtime_as_pytorch_embeds_it(embedder):
    assert embedder.onnx is not None, "the packaged model exports to ONNX Runtime"
    assert embedder.runtime == "onnxruntime"
    fast = np.stack([np.asarray(embedder.encode_one(t + " (asked)")) for t in TEXTS])
    reference = embedder._model.encode([t + " (asked)" for t in TEXTS], normalize_embeddings=True)
    assert np.min(np.sum(fast * reference, axis=1)) > 0.9999
    assert np.allclose(np.linalg.norm(fast, axis=1), 1.0, atol=1e-5)


def test_a_small_call_with_texts_of_different_lengths_is_padded_correctly(embedder):
    batch = embedder.onnx.encode(TEXTS)
    one_by_one = np.stack([embedder.onnx.encode([t])[0] for t in TEXTS])
    assert np.min(np.sum(batch * one_by_one, axis=1)) > 0.9999


def test_a_large_call_is_batched_by_length_and_returned_in_the_given_order(embedder):
    texts = [f"{'long ' * (i % 13) * 9}text number {i}" for i in range(150)]  # lengths interleaved
    fast = embedder.encode_uncached(texts, batch_size=16)
    reference = embedder._model.encode(texts, normalize_embeddings=True)
    assert fast.shape == reference.shape
    assert np.min(np.sum(fast * reference, axis=1)) > 0.9999


def test_an_export_that_differs_from_pytorch_is_not_used(embedder, tmp_path, monkeypatch):
    monkeypatch.setattr(embeddings_onnx, "MIN_PROBE_COSINE", 1.5)  # no export can reach it
    assert embeddings_onnx.load_onnx_encoder(embedder._model, embedder._path, 1, folder=tmp_path) is None
    monkeypatch.setattr(embeddings_onnx, "MIN_PROBE_COSINE", 0.9999)
    assert embeddings_onnx.load_onnx_encoder(embedder._model, embedder._path, 1, folder=tmp_path) is not None
    assert len(list(tmp_path.glob("*.onnx"))) == 1  # exported once, reused by the second load


def test_a_broken_export_leaves_pytorch_in_charge(embedder, tmp_path):
    target = tmp_path / f"{embeddings_onnx._fingerprint(embedder._path, embedder._model)}.onnx"
    target.write_bytes(b"not an onnx graph")
    assert embeddings_onnx.load_onnx_encoder(embedder._model, embedder._path, 1, folder=tmp_path) is None
