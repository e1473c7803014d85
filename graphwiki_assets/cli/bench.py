"""`graphwiki bench` — every committed eval in one run, one JSON, compared with the baselines.

ER on both labelled sets and multi-hop on the seed set; ``--full`` adds MuSiQue and
HotpotQA (each ingests ~1-2k passages: many minutes). Exits 1 when any metric regressed
below evals/baselines.json.
"""

from __future__ import annotations

import argparse
import json
import sys

from graphwiki_assets.cli.output import add_common


def register(sub: argparse._SubParsersAction) -> None:
    parser = add_common(sub.add_parser("bench", help="run the ER and multi-hop evals and compare with the baselines"))
    parser.add_argument("--full", action="store_true", help="also MuSiQue and HotpotQA (slow)")
    parser.add_argument("--k", type=int, default=5)
    parser.set_defaults(handler=run)


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
