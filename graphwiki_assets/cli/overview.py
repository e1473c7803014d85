"""`graphwiki overview` — what the graph knows, by type, and what it lacks (the `overview` asset)."""

from __future__ import annotations

import argparse
from pathlib import Path

from graphwiki_assets.cli.output import add_common, emit


def register(sub: argparse._SubParsersAction) -> None:
    parser = add_common(
        sub.add_parser(
            "overview",
            help="concepts by type, recent additions, disputes, reviews and gaps",
            description="The wiki's front page: corroborated concepts by type with one-line summaries, recent additions, "
            "active contradictions, items needing review and knowledge gaps. --write also writes "
            "$GRAPHWIKI_HOME/wiki/index.md and log.md.",
        )
    )
    parser.add_argument("--write", action="store_true", help="also write wiki/index.md and wiki/log.md")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from graphwiki_assets.core.config import load_config
    from graphwiki_assets.core.overview import build_overview, write_wiki
    from graphwiki_assets.core.settings import Settings
    from graphwiki_assets.core.store.driver import GraphStore
    from graphwiki_assets.core.wiki import index_pages

    settings = Settings.from_env()
    config = load_config(settings.config_path, settings.home).config
    with GraphStore(settings.neo4j) as store:
        view = build_overview(store, config)
        pages = index_pages(Path(settings.home) / "wiki") if args.write else ""
        written = write_wiki(store, view, settings.home, pages=pages) if args.write else []
    text = view.markdown() + "".join(f"\nwrote {p}" for p in written)
    emit(args, {**view.as_dict(), "written": [str(p) for p in written]}, text)
    return 0
