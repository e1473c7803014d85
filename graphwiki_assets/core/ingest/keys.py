"""Normalised lookup keys for names: the cheap, deterministic pass before any LLM call."""

from __future__ import annotations

import re
import unicodedata

_ARTICLES = {"the", "a", "an"}
_NON_WORD = re.compile(r"[^\w\s]+")
_SPACE = re.compile(r"\s+")


def name_key(name: str) -> str:
    """Case, accents, punctuation, leading articles and a plural 's' do not make another entity."""
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode() or name
    text = _SPACE.sub(" ", _NON_WORD.sub(" ", text.lower())).strip()
    words = text.split(" ")
    while len(words) > 1 and words[0] in _ARTICLES:
        words = words[1:]
    if len(words[-1]) > 3 and words[-1].endswith("s") and not words[-1].endswith("ss"):
        words[-1] = words[-1][:-1]
    return " ".join(words)


def keys_for(name: str, aliases: list[str]) -> list[str]:
    keys = []
    for value in [name, *aliases]:
        key = name_key(value)
        if key and key not in keys:
            keys.append(key)
    return keys


def key_query(keys: list[str]) -> str:
    """A Lucene query for the ``concept_keys`` index matching any of the keys as a phrase
    (keys that are not letters, digits and spaces are left out: nothing needs escaping)."""
    return " OR ".join(f'"{k}"' for k in keys if k.replace(" ", "").isalnum())
