"""Printing results as text or JSON, the same way for every command."""

from __future__ import annotations

import argparse
import getpass
import json
from collections.abc import Callable
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


def at_least(low: int, most: int | None = None) -> Callable[[str], int]:
    """An argparse type for a whole number >= ``low`` (and <= ``most``: the bound the server
    puts on the same option); argparse prints the refusal with the option."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {value}")
        if most is not None and value > most:
            raise argparse.ArgumentTypeError(f"must be at most {most}, not {value}")
        return value

    parse.__name__ = f"whole number >= {low}" if most is None else f"whole number {low}-{most}"
    return parse


def question(text: str) -> str:
    """An argparse type for a question: refuse an empty one before anything is loaded."""
    if not text.strip():
        raise argparse.ArgumentTypeError('the question is empty: ask about something, e.g. "What is Neo4j?"')
    return text


def who() -> str:
    """Who runs this command, for the audit log and review records."""
    try:
        return f"cli:{getpass.getuser()}"
    except Exception:  # no user name in some containers
        return "cli"
