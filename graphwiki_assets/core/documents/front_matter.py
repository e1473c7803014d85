"""The YAML front matter of a markdown file, found by markdown-it's front-matter plugin
(a block at the very start between ``---`` lines) and read with a YAML parser."""

from __future__ import annotations

from typing import Any

import yaml
from markdown_it.token import Token


def metadata_of(tokens: list[Token]) -> dict[str, Any]:
    """The front matter's mapping, or {} when there is none or it is not a YAML mapping
    (a broken block is metadata nobody can read, never prose)."""
    for token in tokens[:1]:
        if token.type == "front_matter":
            try:
                data = yaml.safe_load(token.content)
            except yaml.YAMLError:
                return {}
            return data if isinstance(data, dict) else {}
    return {}
