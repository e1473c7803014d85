"""`graphwiki bench signatures`: what the per-batch check of the stored neighbourhood
signatures costs on the graph the eval instance (or --uri) holds: every concept against the
concepts one batch touched (``core/evals/signature_check.py``). JSON with --json."""

from __future__ import annotations

import argparse

from graphwiki_assets.cli.output import at_least, emit


def _sizes(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x.strip()]


def register(kinds: argparse._SubParsersAction, add_common) -> None:
    parser = add_common(
        kinds.add_parser(
            "signatures",
            help="the per-batch signature check on the eval graph: every concept against a batch's touched ones",
        )
    )
    parser.add_argument("--touched", type=_sizes, default=[40, 400], help="touched-set sizes (default 40,400)")
    parser.add_argument("--runs", type=at_least(1), default=7, help="checks per measurement (default 7)")
    parser.add_argument("--uri", help="a disposable Neo4j server instead of the eval instance")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from graphwiki_assets.cli.bench_query import bench_store
    from graphwiki_assets.core.evals.signature_check import measure

    with bench_store(args.uri) as (_, store):
        data = measure(store, args.touched, args.runs)
    checks = ", ".join(f"{k} {v} ms" for k, v in data["median_ms"].items())
    emit(args, data, f"signature check over {data['concepts']} concepts (median of {data['runs']}): {checks}")
    return 0
