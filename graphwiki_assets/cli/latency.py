"""`graphwiki latency` — p50/p95 query latency per technique on the configured graph."""

from __future__ import annotations

import argparse

from graphwiki_assets.cli.output import add_common, at_least, emit
from graphwiki_assets.cli.services import open_services


def register(sub: argparse._SubParsersAction) -> None:
    parser = add_common(sub.add_parser("latency", help="measure query latency per technique on the current graph"))
    parser.add_argument("--n", type=at_least(1), default=30, help="questions per shape (drawn from the graph)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--hops", type=at_least(0), default=2, help="traversal depth of 'what is X' (default 2)")
    parser.add_argument("--k", type=at_least(1), default=8, help="ranked results per question (default 8)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from graphwiki_assets.core.evals.latency import measure

    with open_services() as (_, store, embedder, llm):
        result = measure(store, embedder, llm, per_shape=args.n, seed=args.seed, hops=args.hops, k=args.k)
    lines = [
        f"{shape:12} {r['technique'] or '-':28} n={r['n']:3}  p50 {r['p50_ms']:8.1f} ms  p95 {r['p95_ms']:8.1f} ms"
        f"  p99 {r['p99_ms']:8.1f} ms  errors {r['errors']}"
        for shape, r in result.get("shapes", {}).items()
    ]
    emit(args, result, "\n".join(lines) or result.get("error", ""))
    return 0
