"""`graphwiki bench er-fit`: fit stage 2's merge decision (``core/ingest/merge_decision.py``)
on the ER eval sets' tune halves with the configured judge, and score their report halves
three ways: cosine alone at the tune half's threshold, the judge alone, the decision
(``core/evals/er_fit.py``). JSON on stdout; ``--write`` ships the fitted model."""

from __future__ import annotations

import argparse
import json
import sys


def register(kinds: argparse._SubParsersAction, add_common) -> None:
    parser = add_common(
        kinds.add_parser(
            "er-fit",
            help="fit stage 2's merge decision on the ER tune halves with the configured judge; score the report halves",
        )
    )
    parser.add_argument("--write", action="store_true", help="ship the fitted model (core/ingest/merge_models.json)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from graphwiki_assets.core.evals.er_fit import run_fit, write_model
    from graphwiki_assets.core.evals.runs import eval_clients
    from graphwiki_assets.core.settings import Settings

    embedder, llm = eval_clients(Settings.from_env())
    log = lambda msg: print(f"  {msg}", file=sys.stderr, flush=True)  # noqa: E731  (stdout is the JSON)
    report = run_fit(embedder, llm, log=log)
    if args.write:
        report["written_to"] = str(write_model(report["model"]))
    print(json.dumps(report, indent=2))
    return 0
