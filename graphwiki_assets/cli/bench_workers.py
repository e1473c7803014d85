"""`graphwiki bench workers`: ingest throughput by number of workers, against endpoints that
only sleep (``core/evals/workers_bench.py``); JSON on stdout, the plot as a PNG file."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from graphwiki_assets.cli.output import at_least


def register(kinds: argparse._SubParsersAction, add_common) -> None:
    parser = add_common(
        kinds.add_parser(
            "workers",
            help="ingest throughput with 1, 2, 4, 8 workers against chat and embeddings endpoints that only sleep",
        )
    )
    parser.add_argument("--corpus", type=Path, help="JSONL of {id, title, text} (default: the MuSiQue corpus)")
    parser.add_argument("--limit", type=at_least(1), default=256, help="passages (default 256)")
    parser.add_argument("--batch", type=at_least(1), default=8, help="sources per batch (default 8)")
    parser.add_argument(
        "--workers", default="1,2,4,8", help="comma-separated worker counts to measure (default 1,2,4,8)"
    )
    parser.add_argument("--chat-latency", type=float, default=1.0, help="seconds each chat call sleeps (default 1.0)")
    parser.add_argument(
        "--embed-latency", type=float, default=0.05, help="seconds each embeddings request sleeps (default 0.05)"
    )
    parser.add_argument("--plot", type=Path, help="write the throughput plot (PNG) here")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from graphwiki_assets.core.evals.datasets import MULTIHOP_SETS
    from graphwiki_assets.core.evals.workers_bench import run_workers_bench, workers_plot
    from graphwiki_assets.core.settings import Settings

    try:
        counts = tuple(sorted({int(n) for n in args.workers.split(",")}))
    except ValueError:
        counts = ()
    if not counts or min(counts) < 1:
        print("graphwiki bench workers: --workers takes positive integers, e.g. 1,2,4,8", file=sys.stderr)
        return 2
    corpus = args.corpus or MULTIHOP_SETS["multihop_eval_musique"].corpus
    log = lambda msg: print(f"  {msg}", file=sys.stderr, flush=True)  # noqa: E731  (stdout is the JSON)
    result = run_workers_bench(
        Settings.from_env(),
        corpus,
        workers=counts,
        limit=args.limit,
        batch_size=args.batch,
        chat_latency=args.chat_latency,
        embed_latency=args.embed_latency,
        log=log,
    )
    if args.plot:
        args.plot.parent.mkdir(parents=True, exist_ok=True)
        args.plot.write_bytes(workers_plot(result))
        result = result.with_(plot=str(args.plot))
    print(json.dumps(result.as_json(), indent=2))
    return 1 if result.failed or not result.same_graph_every_pass else 0
