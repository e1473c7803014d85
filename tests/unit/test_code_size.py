"""A newcomer can read any function of graphwiki_assets on one screen and any module in one
sitting: no function is over 80 lines, no file over 500."""

from __future__ import annotations

import ast
from pathlib import Path

import graphwiki_assets

ROOT = Path(graphwiki_assets.__file__).parent
MAX_FUNCTION_LINES = 80
MAX_FILE_LINES = 500


def _modules() -> list[Path]:
    return sorted(ROOT.rglob("*.py"))


def test_no_function_is_longer_than_80_lines():
    long = []
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1  # type: ignore[operator]
                if lines > MAX_FUNCTION_LINES:
                    long.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({lines} lines)")
    assert long == []


def test_no_file_is_longer_than_500_lines():
    big = [
        f"{p.relative_to(ROOT)} ({n} lines)"
        for p in _modules()
        if (n := len(p.read_text().splitlines())) > MAX_FILE_LINES
    ]
    assert big == []
