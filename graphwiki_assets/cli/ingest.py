"""`graphwiki ingest PATH…` — the ingest pipeline outside Dagster, same code path."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from itertools import chain
from pathlib import Path

from graphwiki_assets.cli.output import add_common, emit
from graphwiki_assets.cli.services import open_services
from graphwiki_assets.core.ingest.pipeline import IngestConfig, Ingestor, ingest_documents, read_paths
from graphwiki_assets.core.settings import Settings
from graphwiki_assets.core.sources import collect


def register(sub: argparse._SubParsersAction) -> None:
    parser = add_common(sub.add_parser("ingest", help="ingest files or folders into the graph"))
    parser.add_argument("paths", nargs="*", type=Path, help="files or folders (default: the sources folder)")
    parser.add_argument("--batch", type=int, help="sources per batch (default: GRAPHWIKI_INGEST_BATCH or 32)")
    parser.add_argument(
        "--workers",
        type=int,
        help="processes that extract and embed batches side by side; commits stay one at a time "
        "(default: GRAPHWIKI_INGEST_WORKERS or 1)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    for flag in ("batch", "workers"):
        if getattr(args, flag) is not None and getattr(args, flag) < 1:
            print(f"graphwiki ingest: --{flag} must be at least 1", file=sys.stderr)
            return 2
    settings = Settings.from_env()
    workers = args.workers or settings.ingest_workers
    config = IngestConfig.from_settings(settings)  # a bad schema config stops here, before any write
    with open_services(settings) as (settings, store, embedder, llm):
        files, refused, named = collect(args.paths or [settings.sources_dir])
        if not files and not refused:
            print(
                f"graphwiki ingest: no source files (.md, .txt, ...) found in "
                f"{', '.join(map(str, args.paths or [settings.sources_dir]))}",
                file=sys.stderr,
            )
            return 2
        if args.batch:
            config = dataclasses.replace(config, batch_size=args.batch)
        log = (lambda msg: None) if args.json else (lambda msg: print(f"  {msg}", file=sys.stderr))
        ingestor = Ingestor(
            store=store, embedder=embedder, llm=llm, config=config, log=log, purpose="graphwiki ingest (CLI)"
        )
        progress = (
            None if args.json else (lambda r: print(f"  {r.status:9} {r.path} {r.reason}".rstrip(), file=sys.stderr))
        )
        documents = chain(refused, read_paths(files, max_bytes=config.max_bytes))
        if workers > 1:
            from graphwiki_assets.core.ingest.workers import WorkerSetup, ingest_in_workers

            setup = WorkerSetup(settings=settings, config=config, purpose=ingestor.purpose)
            report = ingest_in_workers(ingestor, setup, documents, workers, progress=progress)
        else:
            report = ingest_documents(ingestor, documents, progress=progress)
    data = report.as_dict()
    text = (
        f"backend {data['backend']}: sources new {data['sources']['new']}, unchanged {data['sources']['unchanged']}, "
        f"skipped {data['sources']['skipped']}, failed {data['sources']['failed']}; "
        f"concepts created {data['concepts']['created']}, merged {data['concepts']['merged']}; "
        f"claims {data['claims']}, contradictions {data['contradictions']}, settled {data['settled']}; "
        f"LLM calls {data['llm_calls']}, prompt tokens {data['prompt_tokens']}; {data['seconds']}s"
    )
    typed = data["taxonomy"]
    if any(typed[k] for k in ("mapped", "fallback", "dropped")):
        text += (
            f"\n  types (config {data['config_version']}): {typed['kept']} as extracted, {typed['mapped']} mapped, "
            f"{typed['fallback']} to the fallback, {typed['dropped']} dropped"
        )
    for problem in data["problems"][:20]:
        text += f"\n  {problem['status']}: {problem['path']}: {problem['reason']}"
    if len(data["problems"]) > 20:
        text += f"\n  ... and {len(data['problems']) - 20} more (--json lists them all)"
    emit(args, data, text)
    # A path named on the command line that could not be ingested is an error; a bad file
    # found inside a named folder is reported, and the rest of the folder still counts.
    named_failed = {str(r.path) for r in refused if not r.unread} | {
        p["path"] for p in data["problems"] if p["path"] in named
    }
    return 1 if data["sources"]["failed"] or named_failed else 0
