"""`graphwiki` — one console script over the same code paths as the Dagster assets.

Each area registers its subcommands from its own module (``graphwiki_assets.cli.<area>``);
every command prints human-readable text, or JSON with ``--json``.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys

COMMAND_MODULES = [
    "neo4j",
    "llm",
    "nlp",
    "nli",
    "config",
    "ingest",
    "materialize",
    "ask",
    "communities",
    "lint",
    "overview",
    "wiki",
    "review",
    "log",
    "evals",
    "bench",
    "latency",
    "serve",
    "mcp",
]


def build_parser(names: list[str] | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="graphwiki", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name in COMMAND_MODULES if names is None else names:
        try:
            module = importlib.import_module(f"graphwiki_assets.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"graphwiki_assets.cli.{name}":
                continue  # an area without commands yet
            raise
        module.register(sub)
    return parser


def _show_llm_progress() -> None:
    """A local model answers in minutes, not seconds: each call's tokens and speed, and the
    calls done of a long task, go to stderr (GRAPHWIKI_LLM=local, or GRAPHWIKI_LLM_PROGRESS=1)."""
    if os.environ.get("GRAPHWIKI_LLM", "").strip().lower() == "local" or os.environ.get("GRAPHWIKI_LLM_PROGRESS"):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(asctime)s %(message)s", "%H:%M:%S"))
        logger = logging.getLogger("graphwiki.llm")
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)


def _parser_for(argv: list[str]) -> argparse.ArgumentParser:
    """Only the named command's module when the first word names one: importing every area
    takes about a second, which a question sent to a running server would otherwise pay."""
    if argv and argv[0] in COMMAND_MODULES:
        parser = build_parser([argv[0]])
        commands = next(a.choices for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        if argv[0] in (commands or {}):
            return parser
    return build_parser()


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = _parser_for(argv)
    args = parser.parse_args(argv)
    _show_llm_progress()
    try:
        return int(args.handler(args) or 0)
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # one clear line for expected failures; the type says which
        if getattr(args, "debug", False):
            raise
        exc = _clear(exc)
        print(f"graphwiki {args.command}: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1


def _clear(exc: Exception) -> Exception:
    """A lost Neo4j connection that reached the top without the store's translation (a path
    outside ``GraphStore``'s own calls) still says what happened and what to do."""
    from neo4j.exceptions import ServiceUnavailable, SessionExpired

    if not isinstance(exc, (ServiceUnavailable, SessionExpired)):
        return exc
    from graphwiki_assets.core.settings import Settings
    from graphwiki_assets.core.store.driver import connection_lost

    try:
        settings = Settings.from_env().neo4j
    except ValueError:  # a bad setting elsewhere must not hide the lost connection
        return exc
    return connection_lost(settings, exc)


if __name__ == "__main__":
    sys.exit(main())
