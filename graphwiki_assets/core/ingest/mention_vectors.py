"""What stage 1 compares a mention by: its name and what the thing is, encoded apart and mixed.

A mention's vector stands for the text "name. identity" (the identity being its
description, else the first claim about it), but the two parts are encoded apart and
mixed. The identity text is usually a claim of the same source, whose vector the batch
needs anyway, and the name is a few word pieces: encoding "name. sentence" as one text read
every such sentence once more for each thing it names.

The mix is the parts' unit vectors weighted by their length in words, then normalised:
mean pooling over the joint text weighs each of its tokens alike, so this is the nearest
mix of the two vectors to what the joint text would give. Names that differ while their
descriptions agree ("an acronym", "a product code") stay as close as they were.

A mention without an identity text is its name alone. The ER eval and the seeded graphs
of the benchmarks build their vectors with the same functions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

TEXT_FORM = "name and identity encoded apart, mixed by words"  # what the ER eval reports it compared


def mention_parts(name: str, identity: str) -> list[str]:
    """The texts a mention's vector is made of."""
    identity = identity.strip()
    return [name, identity] if identity else [name]


def weight(text: str) -> int:
    """A part's share of the joint text: its words (at least one)."""
    return max(1, len(text.split()))


def mixed(texts: Sequence[str], vectors: Sequence[np.ndarray]) -> np.ndarray:
    """The parts' (unit) vectors weighted by their words, summed and normalised."""
    weights = np.asarray([weight(t) for t in texts], dtype=np.float32)
    total = weights @ np.asarray(vectors, dtype=np.float32)
    norm = float(np.linalg.norm(total))
    return total / norm if norm > 0 else total


def mention_vectors(encode: Callable[[list[str]], np.ndarray], mentions: Sequence[tuple[str, str]]) -> np.ndarray:
    """One row per (name, identity): every distinct text encoded once, in one call."""
    texts = list(dict.fromkeys(t for name, identity in mentions for t in mention_parts(name, identity)))
    if not texts:
        return np.zeros((0, 0), dtype=np.float32)
    rows = dict(zip(texts, np.asarray(encode(texts), dtype=np.float32)))
    out = []
    for name, identity in mentions:
        parts = mention_parts(name, identity)
        out.append(mixed(parts, [rows[t] for t in parts]))
    return np.asarray(out, dtype=np.float32)
