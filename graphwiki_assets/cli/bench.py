"""`graphwiki bench` — benchmarks that print numbers (JSON).

- ``graphwiki bench [--full]``: every committed eval in one run, one JSON, compared with the
  baselines. ER on both labelled sets, multi-hop on the seed set, contradictions (pairs and
  end to end), extraction and answer faithfulness; ``--full`` adds multi-hop on MuSiQue and
  HotpotQA and the eval on real documents (the Helm docs). Exits 1 when any metric regressed below evals/baselines.json.
- ``graphwiki bench ingest [--corpus F]``: ingest a corpus into the eval graph and measure
  time, memory, LLM calls and tokens per passage by task, and the time per stage.
- ``graphwiki bench embed-floor [--corpus F]``: the word pieces of a corpus's sources and the
  encoder's rate alone on this machine: the least time any ingest that embeds them needs.
- ``graphwiki bench lease-growth [--sizes 2000,10000,100000]``: the same probe passages
  ingested with the graph seeded to each size; the lease's seconds per batch at each.
- ``graphwiki bench backfill [--limit 200]``: the same files through ``graphwiki ingest`` and
  through a Dagster backfill run by a real webserver and daemon; the two times and their ratio.
- ``graphwiki bench workers``: ingest throughput with 1, 2, 4, 8 workers against chat and
  embeddings endpoints that only sleep, and the ceiling the ingest lease sets (``bench_workers.py``).
- ``graphwiki bench generate --concepts N`` and ``graphwiki bench query``: generated graphs
  and query latency (``bench_query.py``).
- ``graphwiki bench fuzz [--url U]``: a running server's HTTP API fuzzed from its OpenAPI
  document (``bench_fuzz.py``).
- ``graphwiki bench soak [--minutes 10] [--files 300]``: serve under load while Neo4j, the
  LLM endpoint and serve itself fail (``bench_soak.py``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from graphwiki_assets.cli import bench_er_fit, bench_fuzz, bench_query, bench_signatures, bench_soak, bench_workers
from graphwiki_assets.cli.output import add_common, at_least


def register(sub: argparse._SubParsersAction) -> None:
    parser = add_common(sub.add_parser("bench", help="benchmarks: the evals against their baselines, or ingest"))
    parser.add_argument("--full", action="store_true", help="also MuSiQue, HotpotQA and the real documents (slow)")
    parser.add_argument("--k", type=int, default=5)
    parser.add_argument(
        "--record",
        action="store_true",
        help="write this run's numbers into evals/baselines.json as the baseline of the backend it ran on",
    )
    parser.add_argument(
        "--only",
        action="append",
        metavar="EVAL",
        help="run only this eval (an evals/baselines.json name, e.g. er_eval_general); repeatable",
    )
    parser.set_defaults(handler=run)
    kinds = parser.add_subparsers(dest="bench_command")
    ingest = add_common(kinds.add_parser("ingest", help="ingest a corpus into the eval graph and measure it"))
    ingest.add_argument("--corpus", type=Path, help="JSONL of {id, title, text} (default: the MuSiQue corpus)")
    ingest.add_argument("--limit", type=at_least(1), help="only the first N passages")
    ingest.add_argument("--batch", type=at_least(1), help="sources per batch (default GRAPHWIKI_INGEST_BATCH or 32)")
    ingest.add_argument(
        "--llm-latency",
        type=float,
        metavar="SECONDS",
        help="use the OpenAI backend against the rules served over HTTP with this latency per call",
    )
    ingest.add_argument("--no-rerun", action="store_true", help="skip the second, unchanged ingest")
    ingest.set_defaults(handler=run_ingest)
    backfill = add_common(
        kinds.add_parser(
            "backfill",
            help="the same files through `graphwiki ingest` and through a Dagster backfill (webserver + daemon)",
        )
    )
    backfill.add_argument("--corpus", type=Path, help="JSONL of {id, title, text} (default: the MuSiQue corpus)")
    backfill.add_argument("--limit", type=at_least(1), default=200, help="files to ingest (default 200)")
    backfill.set_defaults(handler=run_backfill)
    floor = add_common(
        kinds.add_parser(
            "embed-floor", help="word pieces of a corpus and the encoder's rate alone: the least time to embed it once"
        )
    )
    floor.add_argument("--corpus", type=Path, help="JSONL of {id, title, text} (default: the MuSiQue corpus)")
    floor.add_argument("--limit", type=at_least(1), help="only the first N passages")
    floor.add_argument("--sample", type=at_least(1), default=300, help="sources per timed encoder run (default 300)")
    floor.set_defaults(handler=run_embed_floor)
    growth = add_common(
        kinds.add_parser(
            "lease-growth", help="the ingest lease's time per batch as the graph grows (seeded to each size)"
        )
    )
    growth.add_argument(
        "--sizes",
        type=bench_query.whole_sizes,
        default=[2000, 10000, 100000],
        help="concepts in the graph before each probe, comma-separated (default 2000,10000,100000)",
    )
    growth.add_argument("--probe", type=at_least(1), default=64, help="passages ingested at every size (default 64)")
    growth.add_argument("--batch", type=at_least(1), default=32, help="sources per batch (default 32)")
    growth.add_argument("--corpus", type=Path, help="JSONL of {id, title, text} (default: the MuSiQue corpus)")
    growth.add_argument("--plot", type=Path, metavar="PNG", help="also draw the lease time against the graph size")
    growth.set_defaults(handler=run_lease_growth)
    bench_query.register(kinds, add_common)
    bench_workers.register(kinds, add_common)
    bench_fuzz.register(kinds, add_common)
    bench_soak.register(kinds, add_common)
    bench_er_fit.register(kinds, add_common)
    bench_signatures.register(kinds, add_common)


def run_lease_growth(args: argparse.Namespace) -> int:
    from graphwiki_assets.core.embeddings import load_embedder
    from graphwiki_assets.core.evals.datasets import MULTIHOP_SETS
    from graphwiki_assets.core.evals.lease_growth import run_lease_growth
    from graphwiki_assets.core.settings import Settings

    settings = Settings.from_env()
    corpus = args.corpus or MULTIHOP_SETS["multihop_eval_musique"].corpus
    log = lambda msg: print(f"  {msg}", file=sys.stderr, flush=True)  # noqa: E731  (stdout is the JSON)
    result = run_lease_growth(
        settings, load_embedder(settings.embedding_model), corpus, args.sizes, args.probe, args.batch, log=log
    )
    if args.plot:
        from graphwiki_assets.core.evals.plots import lease_growth_plot

        args.plot.write_bytes(lease_growth_plot(result))
        result = result.with_(plot=str(args.plot))
    print(json.dumps(result.as_json(), indent=2, default=str))
    return 1 if result.failed else 0


def run_embed_floor(args: argparse.Namespace) -> int:
    from graphwiki_assets.core.embeddings import load_embedder
    from graphwiki_assets.core.evals.datasets import MULTIHOP_SETS
    from graphwiki_assets.core.evals.embedding_floor import embedding_floor
    from graphwiki_assets.core.settings import Settings

    corpus = args.corpus or MULTIHOP_SETS["multihop_eval_musique"].corpus
    embedder = load_embedder(Settings.from_env().embedding_model)
    print(json.dumps(embedding_floor(embedder, corpus, sample=args.sample, limit=args.limit).as_json(), indent=2))
    return 0


def run_backfill(args: argparse.Namespace) -> int:
    from graphwiki_assets.core.evals.backfill_bench import run_backfill_bench
    from graphwiki_assets.core.evals.datasets import MULTIHOP_SETS
    from graphwiki_assets.core.settings import Settings

    corpus = args.corpus or MULTIHOP_SETS["multihop_eval_musique"].corpus
    log = lambda msg: print(f"  {msg}", file=sys.stderr, flush=True)  # noqa: E731  (stdout is the JSON)
    result = run_backfill_bench(Settings.from_env(), corpus, limit=args.limit, log=log)
    print(json.dumps(result.as_json(), indent=2, default=str))
    return 0 if result.completed else 1


def run_ingest(args: argparse.Namespace) -> int:
    from graphwiki_assets.core.encoders import build_encoder
    from graphwiki_assets.core.evals.datasets import MULTIHOP_SETS
    from graphwiki_assets.core.evals.ingest_bench import run_ingest_bench
    from graphwiki_assets.core.settings import Settings

    settings = Settings.from_env()
    corpus = args.corpus or MULTIHOP_SETS["multihop_eval_musique"].corpus
    log = lambda msg: print(f"  {msg}", file=sys.stderr, flush=True)  # noqa: E731  (stdout is the JSON)
    started = time.monotonic()
    embedder = build_encoder(settings, lazy=False)  # the service at GRAPHWIKI_EMBEDDINGS_BASE_URL, as ingest does
    loaded = time.monotonic() - started
    result = run_ingest_bench(
        settings,
        embedder,
        corpus,
        limit=args.limit,
        llm_latency=args.llm_latency,
        rerun=not args.no_rerun,
        batch_size=args.batch,
        log=log,
    )
    result = result.with_(model_load_seconds=round(loaded, 2))
    print(json.dumps(result.as_json(), indent=2, default=str))
    return 1 if result.failed else 0


def _section_key(settings) -> str:
    """Where a model's baselines sit in evals/baselines.json: ``local`` for the pinned local
    model, else the model's name."""
    return "local" if settings.local_llm.enabled else settings.llm.model


def _about(name: str, label: str, args: argparse.Namespace) -> dict:
    import datetime as dt
    import subprocess

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False)
    return {
        "date": dt.date.today().isoformat(),
        "backend": label,
        "command": f"graphwiki bench --only {name}" + (" --full" if args.full else ""),
        "code": commit.stdout.strip(),
    }


def run(args: argparse.Namespace) -> int:
    """Every eval of the registry's bench plan on one eval server, each compared with its
    baseline; one JSON on stdout, exit 1 on a regression."""
    from graphwiki_assets.core.evals import baselines, registry
    from graphwiki_assets.core.evals.instance import eval_server, eval_settings
    from graphwiki_assets.core.evals.runs import eval_clients
    from graphwiki_assets.core.settings import Settings

    settings = Settings.from_env()
    log = lambda msg: print(f"  {msg}", file=sys.stderr)  # noqa: E731  (stdout is the JSON)
    try:
        plan = registry.bench_plan(full=args.full, only=args.only)
    except registry.UnknownEval as exc:
        print(f"graphwiki bench: {exc}", file=sys.stderr)
        return 2
    embedder, llm = eval_clients(settings)
    options = registry.EvalOptions(settings, embedder, llm, log=log, k=args.k)
    committed = baselines.load()
    out: dict = {"judge": llm.label, "embedding_model": embedder.name, "evals": {}, "regressions": []}
    with eval_server(eval_settings(settings), log=log):  # one server for the series, stopped after
        for spec in plan:
            log(f"{spec.name}")
            result = spec.run(options)
            summary = spec.bench_summary(result)
            comparisons = baselines.compare(spec.name, result, committed, llm.label)
            summary["checks"] = [c.as_dict() for c in comparisons]
            out["regressions"] += [f"{spec.name}: {c.describe()}" for c in baselines.regressions(comparisons)]
            out["evals"][spec.name] = summary
            if args.record:
                about = _about(spec.name, llm.label, args)
                committed = baselines.record(committed, llm.label, _section_key(settings), spec.name, result, about)
    if args.record:
        out["recorded"] = str(baselines.write(committed))
    print(json.dumps(out, indent=2, default=str))
    return 1 if out["regressions"] else 0
