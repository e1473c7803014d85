"""`graphwiki ask "question"` — answer from the graph, with shape, technique, citations and flags.

When `graphwiki serve` runs for this GRAPHWIKI_HOME the question goes to it over HTTP (its
models are loaded already); otherwise, or with --no-server, it is answered in this process.
Nothing heavy is imported before that choice: a served question never loads a model.
"""

from __future__ import annotations

import argparse
import os
import sys

from graphwiki_assets.cli.output import add_common, at_least, emit, question, who
from graphwiki_assets.core.query.models import MAX_HOPS, MAX_K
from graphwiki_assets.core.question_shapes import SHAPE_NAMES


def register(sub: argparse._SubParsersAction) -> None:
    parser = add_common(sub.add_parser("ask", help="answer a question from the graph, with citations"))
    parser.add_argument("question", type=question, help="the question, in quotes")
    parser.add_argument(
        "--hops", type=at_least(0, MAX_HOPS), default=2, help="traversal depth of 'what is X' (default 2)"
    )
    parser.add_argument(
        "--k", type=at_least(1, MAX_K), default=8, help="ranked results for related/shaped-like/topic (default 8)"
    )
    parser.add_argument("--shape", choices=SHAPE_NAMES, help="skip the router and use this shape")
    parser.add_argument(
        "--refresh",
        action="store_true",
        help="refresh what questions read besides the graph first (GDS projection, shape signatures)",
    )
    parser.add_argument(
        "--file",
        action="store_true",
        help="file a good answer (one with cited sources) back into the graph, where later "
        "questions find it; it stays derived, never a source",
    )
    parser.add_argument(
        "--no-server",
        action="store_true",
        help="answer in this process even when `graphwiki serve` is running for this GRAPHWIKI_HOME",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    # --refresh writes query state first: that stays a local operation
    served = None if args.no_server or args.refresh else _ask_server(args)
    return served if served is not None else _ask_here(args)


def _ask_server(args: argparse.Namespace) -> int | None:
    """The answer from a running server, printed as in-process; None when there is none."""
    from graphwiki_assets.core.settings import Settings
    from graphwiki_assets.server.client import TOKEN_ENV, ServerGone, ServerRefused, running_server

    client = running_server(Settings.from_env().home, token=os.environ.get(TOKEN_ENV) or None)
    if client is None:
        return None
    request = {"question": args.question, "hops": args.hops, "k": args.k, "shape": args.shape, "file": args.file}
    try:
        data = client.ask(request, actor=who())
    except (ServerGone, ServerRefused) as exc:
        if isinstance(exc, ServerRefused) and exc.status not in (401, 403):
            raise ValueError(f"the server at {client.url} refused the question: {exc.detail}") from None
        print(f"graphwiki ask: {exc}; answering in this process", file=sys.stderr)
        return None
    return _print_answer(args, data, data.pop("text", ""))


def _print_answer(args: argparse.Namespace, data: dict, text: str) -> int:
    if args.file:
        text += f"\n\nFiled as {data['filed']}." if data.get("filed") else f"\n\nNot filed: {data.get('not_filed')}."
    emit(args, data, text)
    return 0 if not args.file or data.get("filed") else 1


def _ask_here(args: argparse.Namespace) -> int:
    from graphwiki_assets.cli.services import open_services
    from graphwiki_assets.core.query.upkeep import refresh_query_state
    from graphwiki_assets.core.service.answering import answer_as_data

    with open_services() as (settings, store, embedder, llm):
        if args.refresh:
            refresh_query_state(store)
        data = answer_as_data(
            settings,
            store,
            embedder,
            llm,
            args.question,
            hops=args.hops,
            k=args.k,
            shape=args.shape,
            file=args.file,
            actor=who(),
        )
    return _print_answer(args, data, data.pop("text"))
