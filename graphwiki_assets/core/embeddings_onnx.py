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
pooling, an export or runtime error) simply stays on PyTorch. Once checked, a process loads
the export straight from a model folder's files (``load_checked_encoder``): no PyTorch, no
sentence-transformers, about four seconds less for every command and worker that embeds.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from graphwiki_assets.core.onnx_graphs import cpu_session, export_keyword_model
from graphwiki_assets.core.settings import user_cache_dir

log = logging.getLogger(__name__)

# Padded tokens x hidden width one run of the model holds: 512 tokens of a 384-wide model,
# 0.75 MB of float32 activations per layer output, near a core's L2 cache. Runs of 64 texts
# whatever their length (6,400 tokens for 64 passages) took twice the CPU per word piece.
RUN_ACTIVATIONS = 512 * 384

# Two lengths in one call, so the check covers padding as well as a single text; accents,
# capitals and CJK, so it covers the tokenizer's normalisation too.
PROBES = [
    "A probe sentence, checked against the reference encoder before the export is trusted.",
    "A probe.",
    "Ünïcödé Café in Tōkyō, 東京 — NAÏVE résumé",
]
MIN_PROBE_COSINE = 0.9999


@dataclass(frozen=True)
class ModelFolder:
    """What a sentence-transformers folder's files say, read without loading the model."""

    max_length: int
    dimension: int
    tokenizer_file: Path

    @classmethod
    def read(cls, model_path: str) -> ModelFolder | None:
        """None unless the folder is Transformer -> mean pooling (-> Normalize) with a fast tokenizer."""
        folder = _local_folder(model_path)
        if folder is None:
            return None
        try:
            modules = [m["type"].rsplit(".", 1)[-1] for m in json.loads((folder / "modules.json").read_text())]
            config = json.loads((folder / "sentence_bert_config.json").read_text())
            pooling = json.loads((folder / "1_Pooling" / "config.json").read_text())
        except (OSError, ValueError, KeyError, TypeError):
            return None
        if modules[:2] != ["Transformer", "Pooling"] or any(m != "Normalize" for m in modules[2:]):
            return None
        mean = pooling.get("pooling_mode") == "mean" or (
            "pooling_mode" not in pooling
            and {k for k, v in pooling.items() if k.startswith("pooling_mode") and v} == {"pooling_mode_mean_tokens"}
        )
        if not mean or not (folder / "tokenizer.json").exists() or not config.get("max_seq_length"):
            return None
        return cls(int(config["max_seq_length"]), int(pooling["word_embedding_dimension"]), folder / "tokenizer.json")

    def tokenizer(self):
        """The folder's fast tokenizer, cutting and padding as the model's own call does."""
        from tokenizers import Tokenizer

        tokenizer = Tokenizer.from_file(str(self.tokenizer_file))
        tokenizer.enable_truncation(max_length=self.max_length)
        # Padding is masked out of attention and pooling, so which id pads does not matter.
        pad_id = (tokenizer.padding or {}).get("pad_id", 0)
        # On the right: a run cuts its texts to its longest one and so drops padding alone.
        tokenizer.enable_padding(direction="right", pad_id=pad_id, pad_token=tokenizer.id_to_token(pad_id) or "[PAD]")
        return tokenizer


def _local_folder(model_path: str) -> Path | None:
    """The folder of a model given by path, or by hub name when the hub's cache holds it."""
    if os.path.isdir(model_path):
        return Path(model_path)
    try:
        from huggingface_hub import snapshot_download

        return Path(snapshot_download(model_path, local_files_only=True))
    except Exception:  # not cached, or not a hub name: PyTorch only
        return None


def _fingerprint(model_path: str, max_length: int) -> str:
    """Names the exported file: the weights' identity plus the maximum length."""
    parts = [model_path, str(max_length)]
    for name in ("model.safetensors", "pytorch_model.bin", "config.json"):
        path = Path(model_path) / name
        if path.exists():
            stat = path.stat()
            parts.append(f"{name}:{stat.st_size}:{int(stat.st_mtime)}")
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:16]


def _export(model, target: Path) -> None:
    features = model.tokenizer(PROBES[:1], return_tensors="pt")
    names = [n for n in ("input_ids", "attention_mask", "token_type_ids") if n in features]

    export_keyword_model(model[0].auto_model, features, names, "last_hidden_state", {0: "batch", 1: "tokens"}, target)


class OnnxEncoder:
    """Encodes like the sentence-transformers model it was exported from (mean pooling, L2)."""

    def __init__(self, folder: ModelFolder, path: Path, threads: int):
        self._session = cpu_session(path, threads)
        self._inputs = [i.name for i in self._session.get_inputs()]
        self._tokenizer = folder.tokenizer()
        self.max_length = folder.max_length
        self.dimension = folder.dimension
        self.pieces_read = 0  # word pieces run through the model, padding excluded

    def token_ids(self, texts: list[str]) -> list[list[int]]:
        """The ids the model reads for each text, after truncation, before padding."""
        return [e.ids[: sum(e.attention_mask)] for e in self._tokenizer.encode_batch(texts)]

    def encode(self, texts: list[str], batch_size: int = 64) -> np.ndarray:
        """Rows in the order of ``texts``, read in runs of similar lengths (``runs_by_length``),
        at most ``batch_size`` texts each."""
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        encodings = self._tokenizer.encode_batch(texts)  # padded to the longest of all
        lengths = [sum(e.attention_mask) for e in encodings]
        rows: list[np.ndarray] = [np.empty(0, dtype=np.float32)] * len(texts)
        budget = max(1, RUN_ACTIVATIONS // self.dimension)
        for run in runs_by_length(lengths, budget, max(1, batch_size)):
            longest = max(lengths[i] for i in run)
            for i, row in zip(run, self._encode_run([encodings[i] for i in run], longest)):
                rows[i] = row
        return np.stack(rows)

    def _encode_run(self, encodings: list, length: int) -> np.ndarray:
        """One run of the model over texts cut to ``length`` tokens: only padding lies beyond
        it, as the tokenizer pads on the right."""
        features = {
            "input_ids": np.array([e.ids[:length] for e in encodings], dtype=np.int64),
            "attention_mask": np.array([e.attention_mask[:length] for e in encodings], dtype=np.int64),
            "token_type_ids": np.array([e.type_ids[:length] for e in encodings], dtype=np.int64),
        }
        feed = {name: features[name] for name in self._inputs}
        hidden = self._session.run(None, feed)[0]
        self.pieces_read += int(features["attention_mask"].sum())
        mask = features["attention_mask"][..., None].astype(np.float32)
        pooled = (hidden * mask).sum(axis=1) / np.clip(mask.sum(axis=1), 1e-9, None)
        return (pooled / np.linalg.norm(pooled, axis=1, keepdims=True).clip(1e-12)).astype(np.float32)


def runs_by_length(lengths: list[int], budget: int, cap: int) -> list[list[int]]:
    """Positions of texts grouped into runs of the model, shortest texts first. A run takes the
    next text while its padded size (texts x its longest) stays within ``budget`` tokens and it
    holds fewer than ``cap`` texts; a text longer than the budget runs alone. Sorting by
    tokens keeps the padding small, and the budget keeps a run's activations near the size of
    a core's cache: runs of 64 texts whatever their lengths read the same word pieces with
    about twice the CPU time (docs/performance.md#encoder-runs)."""
    order = sorted(range(len(lengths)), key=lengths.__getitem__)
    runs: list[list[int]] = []
    for i in order:
        if runs and len(runs[-1]) < cap and (len(runs[-1]) + 1) * lengths[i] <= budget:
            runs[-1].append(i)
        else:
            runs.append([i])
    return runs


def _unpadded(model, texts: list[str]) -> list[list[int]]:
    return model.tokenizer(texts, truncation=True, max_length=model.max_seq_length)["input_ids"]


def load_onnx_encoder(model, model_path: str, threads: int, folder: Path | None = None) -> OnnxEncoder | None:
    """The ONNX encoder for ``model``, exported on first use; None when it cannot match PyTorch
    (its vectors on the probes, and its tokenizer's ids against the model's own)."""
    try:
        import onnxruntime  # noqa: F401
    except ImportError:
        return None
    files = ModelFolder.read(model_path)
    if files is None or files.max_length != model.max_seq_length:
        return None
    target = _export_path(model_path, files, folder)
    verified = target.with_suffix(".json")
    try:
        if not target.exists():
            _export(model, target)
        encoder = OnnxEncoder(files, target, threads)
        if not _checked(verified):
            reference = model.encode(PROBES, normalize_embeddings=True, convert_to_numpy=True)
            cosine = float(np.min(np.sum(reference * encoder.encode(PROBES), axis=1)))
            same_ids = encoder.token_ids(PROBES) == _unpadded(model, PROBES)
            if cosine < MIN_PROBE_COSINE or not same_ids:
                log.warning(
                    "the ONNX export of %s differs from PyTorch (cosine %.6f, same token ids: %s); staying on PyTorch",
                    model_path,
                    cosine,
                    same_ids,
                )
                return None
            verified.write_text(json.dumps({"probe_cosine": cosine, "probes": PROBES, "tokenizer_checked": True}))
        return encoder
    except Exception as exc:  # any export or runtime failure leaves PyTorch in charge
        log.warning("ONNX Runtime is not used for %s: %s", model_path, exc)
        return None


def _export_path(model_path: str, files: ModelFolder, folder: Path | None) -> Path:
    """Where the export of this model lives: the per-user cache unless ``folder`` is given."""
    return (folder or user_cache_dir() / "onnx") / f"{_fingerprint(model_path, files.max_length)}.onnx"


def _checked(verified: Path) -> bool:
    """Whether this export passed today's check (the probes and the tokenizer's ids)."""
    try:
        record = json.loads(verified.read_text())
    except (OSError, ValueError):
        return False
    return record.get("probes") == PROBES and record.get("tokenizer_checked") is True


def load_checked_encoder(model_path: str, threads: int, folder: Path | None = None) -> OnnxEncoder | None:
    """The export of a model folder that an earlier load checked against PyTorch, loaded from
    its files alone; None if there is none yet (the caller loads the model, which checks it)."""
    files = ModelFolder.read(model_path)
    if files is None:
        return None
    target = _export_path(model_path, files, folder)
    if not target.exists() or not _checked(target.with_suffix(".json")):
        return None
    try:
        return OnnxEncoder(files, target, threads)
    except Exception as exc:  # the full load decides again
        log.warning("the checked ONNX export of %s does not load: %s", model_path, exc)
        return None
