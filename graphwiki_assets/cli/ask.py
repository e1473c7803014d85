"""`graphwiki ask "question"` — answer from the graph, with shape, technique, citations and flags."""

from __future__ import annotations

import argparse

from graphwiki_assets.cli.output import add_common, at_least, emit, question, who
from graphwiki_assets.cli.services import open_services
from graphwiki_assets.core.question_shapes import SHAPE_NAMES


def register(sub: argparse._SubParsersAction) -> None:
    parser = add_common(sub.add_parser("ask", help="answer a question from the graph, with citations"))
    parser.add_argument("question", type=question, help="the question, in quotes")
    parser.add_argument("--hops", type=at_least(0), default=2, help="traversal depth of 'what is X' (default 2)")
    parser.add_argument(
        "--k", type=at_least(1), default=8, help="ranked results for related/shaped-like/topic (default 8)"
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
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from graphwiki_assets.core.config import load_config
    from graphwiki_assets.core.query import ask
    from graphwiki_assets.core.query.filed import NotFileable, file_answer
    from graphwiki_assets.core.query.upkeep import refresh_query_state

    with open_services() as (settings, store, embedder, llm):
        if args.refresh:
            refresh_query_state(store)
        stale_days = load_config(settings.config_path, settings.home).config.thresholds.staleness_days
        answer = ask(
            store,
            embedder,
            llm,
            args.question,
            hops=args.hops,
            k=args.k,
            shape=args.shape,
            sources_dirs=[settings.sources_dir],
            actor=who(),
            stale_days=stale_days,
        )
        data, text = answer.as_dict(), answer.text()
        if args.file:
            try:
                data["filed"] = file_answer(store, embedder, answer, actor=who())
                text += f"\n\nFiled as {data['filed']}."
            except NotFileable as exc:
                data["filed"], data["not_filed"] = None, str(exc)
                text += f"\n\nNot filed: {exc}."
    emit(args, data, text)
    return 0 if not args.file or data["filed"] else 1
