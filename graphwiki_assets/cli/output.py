"""Printing results as text or JSON, the same way for every command."""

from __future__ import annotations

import argparse
import json
from typing import Any


def add_common(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")
    parser.add_argument("--debug", action="store_true", help="show tracebacks")
    return parser


def emit(args: argparse.Namespace, data: Any, text: str | None = None) -> None:
    if getattr(args, "json", False) or text is None:
        print(json.dumps(data, indent=2, default=str, ensure_ascii=False))
    else:
        print(text)
