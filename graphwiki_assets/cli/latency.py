"""`graphwiki latency` — p50/p95 query latency per technique on the configured graph."""

from __future__ import annotations

import argparse

from graphwiki_assets.cli.output import add_common, at_least, emit
from graphwiki_assets.cli.services import open_services
from graphwiki_assets.core.evals.results.queries import LatencyResult
from graphwiki_assets.core.query.models import MAX_HOPS, MAX_K


def register(sub: argparse._SubParsersAction) -> None:
    parser = add_common(sub.add_parser("latency", help="measure query latency per technique on the current graph"))
    parser.add_argument("--n", type=at_least(1), default=30, help="questions per shape (drawn from the graph)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--hops", type=at_least(0, MAX_HOPS), default=2, help="traversal depth of 'what is X' (default 2)"
    )
    parser.add_argument("--k", type=at_least(1, MAX_K), default=8, help="ranked results per question (default 8)")
    parser.add_argument(
        "--serve",
        nargs="?",
        const="",
        metavar="URL",
        help="ask a running `graphwiki serve` over HTTP instead (default: the one serving this GRAPHWIKI_HOME)",
    )
    parser.add_argument(
        "--cli-runs",
        type=at_least(0),
        default=5,
        help="with --serve: also time this many `graphwiki ask` processes through the server and in-process",
    )
    parser.add_argument(
        "--askers",
        type=at_least(0),
        default=8,
        help="with --serve: then this many HTTP clients ask while the server ingests a source (0: skip; "
        "the source, passages of another corpus, stays in the graph)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from graphwiki_assets.core.evals.latency import measure

    if args.serve is not None:
        result = _served(args)
    else:
        with open_services() as (_, store, embedder, llm):
            result = measure(store, embedder, llm, per_shape=args.n, seed=args.seed, hops=args.hops, k=args.k)
    lines = [
        f"{shape:12} {r.technique or '-':28} n={r.n:3}  p50 {r.p50_ms:8.1f} ms  p95 {r.p95_ms:8.1f} ms"
        f"  p99 {r.p99_ms:8.1f} ms  errors {r.errors}"
        for shape, r in (result.shapes or {}).items()
    ]
    if result.overall is not None:
        o = result.overall
        lines.append(f"{'overall':12} {'':28} n={o.n:3}  p50 {o.p50:8.1f} ms  p95 {o.p95:8.1f} ms")
    if result.cli is not None:
        c = result.cli
        lines.append(
            f"`graphwiki ask` processes: median {c.served_median_s} s through the server, "
            f"{c.in_process_median_s} s in-process ({c.runs} each)"
        )
    if result.concurrent is not None:
        asked = result.concurrent
        lines.append(
            f"{asked.askers} HTTP clients during an ingest: {asked.questions} questions, {asked.errors} errors, "
            f"p95 {asked.total_ms.p95} ms; ingest {asked.ingest.status}, claims "
            f"{asked.ingest.claims_in_graph}/{asked.ingest.claims_reported} in the graph"
        )
    emit(args, result.as_json(), "\n".join(lines) or result.error or "")
    return 0


def _served(args: argparse.Namespace) -> LatencyResult:
    """The same questions asked of a running server; the graph is read only to draw them."""
    import os

    from graphwiki_assets.core.settings import Settings
    from graphwiki_assets.core.store.driver import GraphStore
    from graphwiki_assets.server.bench import measure_concurrent_served, measure_served, time_cli
    from graphwiki_assets.server.client import TOKEN_ENV, ServerClient, running_server

    settings = Settings.from_env()
    token = os.environ.get(TOKEN_ENV) or None
    client = ServerClient(args.serve, token) if args.serve else running_server(settings.home, token, timeout=5.0)
    if client is None:
        raise RuntimeError(f"no `graphwiki serve` answers for {settings.home}: start one, or pass --serve URL")
    with GraphStore(settings.neo4j) as store:
        result = measure_served(store, client, per_shape=args.n, seed=args.seed, hops=args.hops, k=args.k)
        if args.cli_runs and result.overall is not None:
            result = result.with_(cli=time_cli(store, runs=args.cli_runs, seed=args.seed + 1))
        if args.askers and result.overall is not None:
            concurrent = measure_concurrent_served(store, client, askers=args.askers, seed=args.seed + 2)
            result = result.with_(concurrent=concurrent)
    return result
