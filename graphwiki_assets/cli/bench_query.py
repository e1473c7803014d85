"""`graphwiki bench generate` and `graphwiki bench query`: generated graphs and query latency.

Both write into the eval instance (never the user's graph) or a server given with --uri,
which must be disposable: generating wipes whatever is not a smaller generated graph of the
same seed. A 100k-concept graph wants more memory than the launcher's default: start the
eval instance with GRAPHWIKI_NEO4J_HEAP=2g GRAPHWIKI_NEO4J_PAGECACHE=2g (read when it starts).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from contextlib import contextmanager

from graphwiki_assets.cli.output import at_least, emit
from graphwiki_assets.core.evals.results.queries import Concurrent, QueryBenchResult, QueryRun, Technique
from graphwiki_assets.core.query.models import MAX_HOPS, MAX_K, PPR_VIAS

DEFAULT_SIZES = (1_000, 10_000, 100_000)


def register(kinds: argparse._SubParsersAction, add_common) -> None:
    generate = add_common(
        kinds.add_parser("generate", help="write a generated graph of N concepts into the eval graph")
    )
    generate.add_argument("--concepts", type=at_least(1), required=True, help="how many concepts (e.g. 100000)")
    generate.add_argument("--seed", type=int, default=0)
    generate.add_argument("--uri", help="a disposable Neo4j server instead of the eval instance")
    generate.set_defaults(handler=run_generate)
    query = add_common(
        kinds.add_parser("query", help="query latency per technique and phase, flat search beside it, 8 askers at once")
    )
    query.add_argument(
        "--sizes",
        type=whole_sizes,
        default=list(DEFAULT_SIZES),
        help="generated graph sizes in concepts, comma-separated (default 1000,10000,100000)",
    )
    query.add_argument(
        "--current",
        action="store_true",
        help="measure the graph the eval instance (or --uri) holds now instead of generating",
    )
    query.add_argument("--n", type=at_least(1), default=30, help="timed questions per technique (default 30)")
    query.add_argument("--askers", type=at_least(1), default=8, help="concurrent askers (default 8)")
    query.add_argument("--per-asker", type=at_least(1), default=12, help="questions per concurrent asker (default 12)")
    query.add_argument(
        "--hops", type=at_least(0, MAX_HOPS), default=2, help="traversal depth of 'what is X' (default 2)"
    )
    query.add_argument("--k", type=at_least(1, MAX_K), default=8, help="ranked results per question (default 8)")
    query.add_argument("--seed", type=int, default=0, help="of the generated graph and of the questions drawn")
    query.add_argument("--uri", help="a disposable Neo4j server instead of the eval instance")
    query.add_argument(
        "--ppr-via",
        choices=(*PPR_VIAS, "both"),
        default=PPR_VIAS[0],
        help="how 'related' runs Personalized PageRank: local pushes over the live graph (default: a cost that "
        "does not grow with the graph), GDS over its projection from Cypher in the question's read transaction "
        "or through the GDS Python client, or each in turn on the questions of one run ('both')",
    )
    query.set_defaults(handler=run_query)


def whole_sizes(text: str) -> list[int]:
    """An argparse type: comma-separated whole numbers >= 1, ascending, each once."""
    try:
        sizes = sorted({int(part) for part in text.split(",") if part.strip()})
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a comma-separated list of whole numbers") from None
    if not sizes or sizes[0] < 1:
        raise argparse.ArgumentTypeError("sizes must be whole numbers of at least 1")
    return sizes


def _log(msg: str) -> None:
    print(f"  {msg}", file=sys.stderr, flush=True)  # stdout is the result


@contextmanager
def bench_store(uri: str | None):
    """The eval instance (started if needed), or the disposable server at ``uri``."""
    from graphwiki_assets.core.evals.instance import eval_settings, eval_store
    from graphwiki_assets.core.settings import Settings

    settings = Settings.from_env()
    # --uri is GRAPHWIKI_EVAL_NEO4J_URI for one command: the same credentials, the same refusal
    # of the user's own graph
    target = eval_settings(settings, {**os.environ, "GRAPHWIKI_EVAL_NEO4J_URI": uri} if uri else None)
    with eval_store(target, start=not uri, log=_log) as store:
        yield settings, store


def run_generate(args: argparse.Namespace) -> int:
    from graphwiki_assets.core.embeddings import load_embedder
    from graphwiki_assets.core.evals.generator import generate
    from graphwiki_assets.core.query.upkeep import refresh_query_state

    with bench_store(args.uri) as (settings, store):
        embedder = load_embedder(settings.embedding_model)
        made = generate(store, args.concepts, embedder.dimension, seed=args.seed, replace=True, log=_log)
        started = time.monotonic()
        upkeep = refresh_query_state(store)
        made.seconds["query_upkeep"] = round(time.monotonic() - started, 2)
    data = {**made.as_dict(), "upkeep": upkeep}
    seconds = made.seconds
    emit(
        args,
        data,
        f"generated graph (seed {args.seed}): {made.graph['concepts']} concepts, "
        f"{made.graph['sources']} sources, {made.graph['claims']} claims, "
        f"{made.graph['relationships']} relationships; {made.sources_written} sources written in "
        f"{seconds['write']}s, query upkeep {seconds['query_upkeep']}s",
    )
    return 0


def run_query(args: argparse.Namespace) -> int:
    from graphwiki_assets.core.embeddings import load_embedder
    from graphwiki_assets.core.evals.query_bench import BenchConfig, run_current, run_generated
    from graphwiki_assets.core.llm.client import build_llm

    config = BenchConfig(
        per_shape=args.n,
        askers=args.askers,
        per_asker=args.per_asker,
        hops=args.hops,
        k=args.k,
        seed=args.seed,
        ppr_via=args.ppr_via,
    )
    with bench_store(args.uri) as (settings, store):
        embedder = load_embedder(settings.embedding_model)
        llm = build_llm(settings.llm)  # no answer cache: every question is answered, as a new one would be
        if args.current:
            result = run_current(store, embedder, llm, config, label=args.uri or "current eval graph", log=_log)
        else:
            result = run_generated(store, embedder, llm, args.sizes, config, log=_log)
    result = result.with_(backend=llm.label, embedding_model=embedder.name)
    emit(args, result.as_json(), _text(result))
    return 1 if result.failed else 0


def _row(name: str, s: Technique) -> str:
    phases = "  ".join(f"{p[:4]} {s.phase(p).p95:7.1f}" for p in ("linking", "retrieval", "synthesis"))
    t = s.total_ms
    return (
        f"  {name:12} {s.technique:28} p50 {t.p50:7.1f}  p95 {t.p95:7.1f}  p99 {t.p99:7.1f}"
        f"  | p95 by phase: {phases}  | found {s.found}/{s.n}, errors {s.errors}"
    )


def _run_text(run: QueryRun, cpus: int | None) -> list[str]:
    g, f, before, after = run.graph, run.flat, run.load_before, run.load_after
    if run.single is None or g is None or f is None or before is None or after is None:  # nothing was asked
        return [f"{run.label}: {run.error}"]
    lines = [
        f"{run.label}: {g['concepts']} concepts, {g['sources']} sources, {g['claims']} claims "
        f"(load {before[0]} -> {after[0]} on {cpus} cpus)"
    ]
    lines += [_row(shape, s) for shape, s in run.single.items()]
    lines.append(
        f"  {'flat':12} {'vector top-' + str(f.k):28} p50 {f.total_ms.p50:7.1f}  "
        f"p95 {f.total_ms.p95:7.1f}  p99 {f.total_ms.p99:7.1f}  | retrieval p95 "
        f"{f.retrieval_ms.p95:.1f}"
    )
    c = run.concurrent
    if isinstance(c, Concurrent):
        lines.append(
            f"  {c.askers} askers: {c.questions} questions, {c.errors} errors, "
            f"{c.throughput_qps} q/s, p95 {c.total_ms.p95} ms = {c.p95_ratio} x the "
            f"single-asker p95 ({c.single_p95_ms} ms)"
        )
    return lines


def _text(result: QueryBenchResult) -> str:
    lines = []
    for run in result.runs:
        lines += _run_text(run, result.cpus)
    g = result.growth
    if g.from_concepts is not None:
        from graphwiki_assets.core.evals.query_bench import SHAPES as TIMED_SHAPES

        lines.append(
            f"growth {g.from_concepts} -> {g.to_concepts} concepts (p95 end to end): "
            + ", ".join(f"{shape} x{g.of_shape(shape).total_p95}" for shape in TIMED_SHAPES)
        )
    lines.append("targets:")
    lines += [
        f"  {'ok  ' if t.ok else 'MISS'} {t.graph}: {t.target} = {t.measured} (limit {t.limit})" for t in result.targets
    ]
    return "\n".join(lines)
