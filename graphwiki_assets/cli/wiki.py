"""`graphwiki wiki export [DIR]` — a markdown page per corroborated concept, and the index (the `wiki` asset)."""

from __future__ import annotations

import argparse
from pathlib import Path

from graphwiki_assets.cli.output import add_common, emit


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("wiki", help="the wiki pages: one markdown page per corroborated concept")
    actions = parser.add_subparsers(dest="wiki_command", required=True)
    export = add_common(
        actions.add_parser(
            "export",
            help="write or update the pages, their pictures, index.md and log.md",
            description="Writes one page per corroborated concept (summary with citations, claims with status, related "
            "concepts as [[links]], sources with dates, a picture of its neighbourhood) under DIR/concepts/, "
            "and DIR/index.md and DIR/log.md. Only pages whose content changed are rewritten; pages of concepts "
            "that no longer qualify are removed; files the export did not write are left alone. Opens in "
            "Obsidian as a vault, or in any markdown viewer.",
        )
    )
    export.add_argument("dir", nargs="?", type=Path, help="the wiki folder (default: $GRAPHWIKI_HOME/wiki)")
    export.add_argument("--no-pictures", action="store_true", help="no neighbourhood pictures (faster)")
    export.set_defaults(handler=run_export)


def run_export(args: argparse.Namespace) -> int:
    import time

    from graphwiki_assets.core.config import load_config
    from graphwiki_assets.core.settings import Settings
    from graphwiki_assets.core.store.driver import GraphStore
    from graphwiki_assets.core.wiki import export_wiki

    settings = Settings.from_env()
    folder = (args.dir or Path(settings.home) / "wiki").resolve()
    config = load_config(settings.config_path, settings.home).config
    started = time.perf_counter()
    with GraphStore(settings.neo4j) as store:
        report = export_wiki(store, config, folder, pictures=not args.no_pictures)
    seconds = time.perf_counter() - started
    counts = report.counts()
    text = (
        f"{folder}: {counts['pages']} pages, {counts['written']} written, {counts['unchanged']} unchanged, "
        f"{counts['removed']} removed, {counts['pictures_written']} pictures drawn ({seconds:.1f} s)"
    )
    text += "".join(f"\n  {c['change']:<8} {c['page']}" for c in report.changes())
    emit(args, {**report.as_dict(), "seconds": round(seconds, 3)}, text)
    return 0
