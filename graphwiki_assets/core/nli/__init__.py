"""Natural-language inference: does one claim follow from, leave open, or contradict another?

A small cross-encoder (MiniLM-L6 fine-tuned on SNLI and MultiNLI pairs) scores (premise,
hypothesis) pairs on ONNX Runtime. Its weights are built on the machine from pinned inputs
(``train.py``), never fetched from a model hub; ``score_pairs`` raises ``NliModelMissing``
until they exist.

The names below are imported on first use, so ``python -m graphwiki_assets.core.nli.data``
and ``...nli.train`` do not load their own module twice.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {
    "NliModelMissing": "graphwiki_assets.core.nli.model",
    "is_prepared": "graphwiki_assets.core.nli.model",
    "NliScores": "graphwiki_assets.core.nli.scores",
    "score_pairs": "graphwiki_assets.core.nli.runtime",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(_EXPORTS[name]), name)
