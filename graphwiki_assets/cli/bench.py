"""`graphwiki bench` — benchmarks that print numbers (JSON).

- ``graphwiki bench [--full]``: every committed eval in one run, one JSON, compared with the
  baselines. ER on both labelled sets and multi-hop on the seed set; ``--full`` adds MuSiQue
  and HotpotQA. Exits 1 when any metric regressed below evals/baselines.json.
- ``graphwiki bench ingest [--corpus F]``: ingest a corpus into the eval graph and measure
  time, memory, LLM calls and tokens per passage by task, and the time per stage.
- ``graphwiki bench generate --concepts N`` and ``graphwiki bench query``: generated graphs
  and query latency (``bench_query.py``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from graphwiki_assets.cli import bench_query
from graphwiki_assets.cli.output import add_common, at_least


def register(sub: argparse._SubParsersAction) -> None:
    parser = add_common(sub.add_parser("bench", help="benchmarks: the evals against their baselines, or ingest"))
    parser.add_argument("--full", action="store_true", help="also MuSiQue and HotpotQA (slow)")
    parser.add_argument("--k", type=int, default=5)
    parser.set_defaults(handler=run)
    kinds = parser.add_subparsers(dest="bench_command")
    ingest = add_common(kinds.add_parser("ingest", help="ingest a corpus into the eval graph and measure it"))
    ingest.add_argument("--corpus", type=Path, help="JSONL of {id, title, text} (default: the MuSiQue corpus)")
    ingest.add_argument("--limit", type=at_least(1), help="only the first N passages")
    ingest.add_argument("--batch", type=at_least(1), help="sources per batch (default GRAPHWIKI_INGEST_BATCH or 32)")
    ingest.add_argument("--llm-latency", type=float, metavar="SECONDS",
                        help="use the OpenAI backend against the rules served over HTTP with this latency per call")
    ingest.add_argument("--no-rerun", action="store_true", help="skip the second, unchanged ingest")
    ingest.set_defaults(handler=run_ingest)
    bench_query.register(kinds, add_common)


def run_ingest(args: argparse.Namespace) -> int:
    from graphwiki_assets.core.embeddings import load_embedder
    from graphwiki_assets.core.evals.datasets import MULTIHOP_SETS
    from graphwiki_assets.core.evals.ingest_bench import run_ingest_bench
    from graphwiki_assets.core.settings import Settings

    settings = Settings.from_env()
    corpus = args.corpus or MULTIHOP_SETS["multihop_eval_musique"].corpus
    log = lambda msg: print(f"  {msg}", file=sys.stderr, flush=True)  # noqa: E731  (stdout is the JSON)
    started = time.monotonic()
    embedder = load_embedder(settings.embedding_model)
    loaded = time.monotonic() - started
    result = run_ingest_bench(settings, embedder, corpus, limit=args.limit, llm_latency=args.llm_latency,
                              rerun=not args.no_rerun, batch_size=args.batch, log=log)
    result["model_load_seconds"] = round(loaded, 2)
    print(json.dumps(result, indent=2, default=str))
    return 1 if result["failed"] else 0


def run(args: argparse.Namespace) -> int:
    from graphwiki_assets.core.evals import baselines, er, multihop
    from graphwiki_assets.core.evals.datasets import ER_SETS, MULTIHOP_SETS, er_pairs
    from graphwiki_assets.core.evals.runs import er_eval, eval_clients, multihop_eval
    from graphwiki_assets.core.settings import Settings

    settings = Settings.from_env()
    embedder, llm = eval_clients(settings)
    log = lambda msg: print(f"  {msg}", file=sys.stderr)  # noqa: E731  (stdout is the JSON)
    committed = baselines.load()
    out: dict = {"judge": llm.label, "embedding_model": embedder.name, "evals": {}, "regressions": []}
    plan = [(name, "er") for name in ER_SETS] + [
        (name, "multihop") for name, ds in MULTIHOP_SETS.items() if args.full or ds.name == "seed"]
    for name, kind in plan:
        log(f"{name}")
        if kind == "er":
            result = er_eval(settings, embedder, llm, er_pairs(name), name=ER_SETS[name], log=log)
            summary = {**er.headline(result), "judge": result["judge"], "errors": result["errors"],
                       "population_errors": result["population"]["errors"]}
        else:
            ds = MULTIHOP_SETS[name]
            result = multihop_eval(settings, embedder, llm, ds.corpus, ds.questions, k=args.k, name=ds.name, log=log)
            summary = {**multihop.headline(result), "graph_beats_flat": result["graph_beats_flat"],
                       "sweep": result.get("sweep", [])}
        comparisons = baselines.compare(name, result, committed)
        summary["checks"] = [c.as_dict() for c in comparisons]
        out["regressions"] += [f"{name}: {c.describe()}" for c in baselines.regressions(comparisons)]
        out["evals"][name] = summary
    print(json.dumps(out, indent=2, default=str))
    return 1 if out["regressions"] else 0
