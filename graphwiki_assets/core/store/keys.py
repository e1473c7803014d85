"""Normalised lookup keys for names: the cheap, deterministic pass before any LLM call.

A key is ``normal_forms.name_key`` of a name or an alias (the rule lives there, beside the
offline rules' looser form of a name), and for a proper name of several words also
``normal_forms.spaced_name_key``, its key without spaces.
"""

from __future__ import annotations

from graphwiki_assets.core.normal_forms import name_key, spaced_name_key


def keys_for(name: str, aliases: list[str]) -> list[str]:
    """The name keys of a name and its aliases, and the spacing-free key of each proper name
    ("Alert Manager" -> 'alertmanager'), so "AlertManager" and "Alert-Manager" find it."""
    keys = []
    for value in [name, *aliases]:
        for key in (name_key(value), spaced_name_key(value)):
            if key and key not in keys:
                keys.append(key)
    return keys


def key_query(keys: list[str]) -> str:
    """A Lucene query for the ``concept_keys`` index matching any of the keys as a phrase
    (keys that are not letters, digits and spaces are left out: nothing needs escaping)."""
    return " OR ".join(f'"{k}"' for k in keys if k.replace(" ", "").isalnum())
