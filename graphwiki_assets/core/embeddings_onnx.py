"""The sentence encoder run by ONNX Runtime: the same vectors as PyTorch, at a steadier cost.

Two reasons to run the exported graph rather than PyTorch:

- A PyTorch forward pass of a small sentence encoder costs about 30 ms on a 2-core CPU
  whatever the length of the text: the time goes to dispatching some hundred small
  operators, not to arithmetic. ONNX Runtime runs the same graph with a fraction of that
  overhead, so a question is embedded in about a third of the time.
- PyTorch's OpenMP threads spin at every operator's barrier. During an ingest the encoder
  shares the CPU with the lease thread and with Neo4j, and one descheduled thread stalls the
  others: on two cores with one of them busy, PyTorch read an ingest batch's texts 2.5 times
  slower with two threads than with one, and short texts (names) 6 times slower. ONNX
  Runtime's threads are told not to spin, so they yield to whatever else needs the CPU.

The graph is exported once from the packaged weights into a per-user cache and checked
against PyTorch on a probe text before it is used; a model this cannot reproduce (other
pooling, an export or runtime error) simply stays on PyTorch.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
import warnings
from pathlib import Path

import numpy as np

from graphwiki_assets.core.settings import user_cache_dir

log = logging.getLogger(__name__)

# Two lengths in one call, so the check covers padding as well as a single text.
PROBES = ["A probe sentence, checked against the reference encoder before the export is trusted.", "A probe."]
MIN_PROBE_COSINE = 0.9999


def _mean_pooled(model) -> bool:
    """Only Transformer -> mean pooling (-> Normalize) is reproduced here."""
    modules = list(model)
    if len(modules) < 2 or type(modules[0]).__name__ != "Transformer" or type(modules[1]).__name__ != "Pooling":
        return False
    if any(type(m).__name__ != "Normalize" for m in modules[2:]):
        return False
    config = modules[1].get_config_dict()
    if "pooling_mode" in config:  # sentence-transformers 6 names the mode
        return config["pooling_mode"] == "mean"
    modes = {k for k, v in config.items() if k.startswith("pooling_mode") and v}
    return modes == {"pooling_mode_mean_tokens"}


def _fingerprint(model_path: str, model) -> str:
    """Names the exported file: the weights' identity plus the maximum length."""
    parts = [model_path, str(model.max_seq_length)]
    for name in ("model.safetensors", "pytorch_model.bin", "config.json"):
        path = Path(model_path) / name
        if path.exists():
            stat = path.stat()
            parts.append(f"{name}:{stat.st_size}:{int(stat.st_mtime)}")
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:16]


def _export(model, target: Path) -> None:
    import torch

    features = model.tokenizer(PROBES[:1], return_tensors="pt")
    names = [n for n in ("input_ids", "attention_mask", "token_type_ids") if n in features]

    class Positional(torch.nn.Module):
        """The encoder called by keyword, so the tracer's positional inputs land on the right names."""

        def __init__(self, encoder):
            super().__init__()
            self.encoder = encoder

        def forward(self, *tensors):
            return self.encoder(**dict(zip(names, tensors))).last_hidden_state

    transformer = Positional(model[0].auto_model).eval()
    target.parent.mkdir(parents=True, exist_ok=True)
    # Written beside the target and renamed: two processes exporting at once never read half a file.
    fd, tmp = tempfile.mkstemp(dir=target.parent, suffix=".onnx.tmp")
    os.close(fd)
    try:
        with torch.inference_mode(), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the tracer's notes on constants: the probe check below decides
            torch.onnx.export(
                transformer,
                tuple(features[n] for n in names),
                tmp,
                input_names=names,
                output_names=["last_hidden_state"],
                dynamic_axes={n: {0: "batch", 1: "tokens"} for n in [*names, "last_hidden_state"]},
                opset_version=17,
                dynamo=False,
            )
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


class OnnxEncoder:
    """Encodes like the sentence-transformers model it was exported from (mean pooling, L2)."""

    def __init__(self, model, path: Path, threads: int):
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = max(1, threads)
        # Spinning intra-op threads burn the CPU that Neo4j, the lease thread and the other
        # askers of a busy server need, and stall each other when one is descheduled.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.log_severity_level = 3
        self._session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        self._inputs = [i.name for i in self._session.get_inputs()]
        self._tokenizer = model.tokenizer
        self._max_length = model.max_seq_length

    def encode(self, texts: list[str], batch_size: int = 64) -> np.ndarray:
        """Rows in the order of ``texts``; batches of similar lengths, so little is padding."""
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        rows: list[np.ndarray] = [np.empty(0, dtype=np.float32)] * len(texts)
        for start in range(0, len(order), max(1, batch_size)):
            chunk = order[start : start + batch_size]
            for i, row in zip(chunk, self._encode_padded([texts[i] for i in chunk])):
                rows[i] = row
        return np.stack(rows)

    def _encode_padded(self, texts: list[str]) -> np.ndarray:
        features = self._tokenizer(
            texts, padding=True, truncation=True, max_length=self._max_length, return_tensors="np"
        )
        feed = {name: features[name].astype(np.int64) for name in self._inputs if name in features}
        if "token_type_ids" in self._inputs and "token_type_ids" not in feed:
            feed["token_type_ids"] = np.zeros_like(feed["input_ids"])
        hidden = self._session.run(None, feed)[0]
        mask = features["attention_mask"][..., None].astype(np.float32)
        pooled = (hidden * mask).sum(axis=1) / np.clip(mask.sum(axis=1), 1e-9, None)
        return (pooled / np.linalg.norm(pooled, axis=1, keepdims=True).clip(1e-12)).astype(np.float32)


def load_onnx_encoder(model, model_path: str, threads: int, folder: Path | None = None) -> OnnxEncoder | None:
    """The ONNX encoder for ``model``, exported on first use; None when it cannot match PyTorch."""
    try:
        import onnxruntime  # noqa: F401
    except ImportError:
        return None
    if not _mean_pooled(model):
        return None
    folder = folder or user_cache_dir() / "onnx"
    target = folder / f"{_fingerprint(model_path, model)}.onnx"
    verified = target.with_suffix(".json")
    try:
        if not target.exists():
            _export(model, target)
        encoder = OnnxEncoder(model, target, threads)
        if not verified.exists():
            reference = model.encode(PROBES, normalize_embeddings=True, convert_to_numpy=True)
            cosine = float(np.min(np.sum(reference * encoder.encode(PROBES), axis=1)))
            if cosine < MIN_PROBE_COSINE:
                log.warning(
                    "the ONNX export of %s differs from PyTorch (cosine %.6f); staying on PyTorch", model_path, cosine
                )
                return None
            verified.write_text(json.dumps({"probe_cosine": cosine}))
        return encoder
    except Exception as exc:  # any export or runtime failure leaves PyTorch in charge
        log.warning("ONNX Runtime is not used for %s: %s", model_path, exc)
        return None
