"""The front matter of a markdown file: YAML between ``---`` lines (markdown-it's front-matter
plugin) or TOML between ``+++`` lines (Hugo's other form, a block rule of the same shape
here), at the very start of the file, read with a YAML or TOML parser."""

from __future__ import annotations

import tomllib
from typing import Any

import yaml
from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.token import Token

FRONT_MATTER = "front_matter"
_TOML_FENCE = "+++"


def metadata_of(tokens: list[Token]) -> dict[str, Any]:
    """The front matter's mapping, or {} when there is none or it cannot be read (a broken
    block is metadata nobody can read, never prose)."""
    for token in tokens[:1]:
        if token.type == FRONT_MATTER:
            try:
                data = tomllib.loads(token.content) if token.markup == _TOML_FENCE else yaml.safe_load(token.content)
            except (yaml.YAMLError, tomllib.TOMLDecodeError):
                return {}
            return data if isinstance(data, dict) else {}
    return {}


def toml_front_matter_plugin(md: MarkdownIt) -> None:
    md.block.ruler.before("table", "toml_front_matter", _toml_rule, {"alt": ["paragraph"]})


def _line(state: StateBlock, line: int) -> str:
    return state.src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]].rstrip()


def _toml_rule(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    if start_line != 0 or state.sCount[0] != 0 or _line(state, 0) != _TOML_FENCE:
        return False
    close = next((n for n in range(1, end_line) if state.sCount[n] == 0 and _line(state, n) == _TOML_FENCE), None)
    if close is None:
        return False  # never closed: not front matter
    if silent:
        return True
    token = state.push(FRONT_MATTER, "", 0)
    token.hidden = True
    token.block = True
    token.markup = _TOML_FENCE
    token.content = state.src[state.bMarks[1] : state.eMarks[close - 1]] if close > 1 else ""
    token.map = [0, close + 1]
    state.line = close + 1
    return True
