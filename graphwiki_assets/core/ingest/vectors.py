"""Every text a batch needs a vector for (mentions, claims, sources), encoded together.

The batch's texts are encoded in one call before the lease is taken; a text that turns
out to be needed only later (the graph changed meanwhile) is encoded then, on demand.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from graphwiki_assets.core.embeddings import Encoder


class Vectors:
    def __init__(self, embedder: Encoder, texts: Iterable[str] = ()):
        self.embedder = embedder
        self._rows: dict[str, np.ndarray] = {}
        self.ensure(texts)

    def ensure(self, texts: Iterable[str]) -> None:
        """Encode, in one call, those of the texts that have no vector yet."""
        missing = [t for t in dict.fromkeys(texts) if t not in self._rows]
        if missing:
            self._rows.update(zip(missing, self.embedder.encode(missing)))

    def __getitem__(self, text: str) -> np.ndarray:
        if text not in self._rows:
            self.ensure([text])
        return self._rows[text]

    def __contains__(self, text: str) -> bool:
        return text in self._rows

    def __len__(self) -> int:
        return len(self._rows)
