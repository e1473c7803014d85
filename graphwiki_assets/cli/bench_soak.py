"""`graphwiki bench soak`: `graphwiki serve` under 8 HTTP askers, one MCP client and a stream
of source files for some minutes, while Neo4j, the LLM endpoint and the server itself fail
(``server/soak.py``); JSON on stdout, exit 1 when a question hung, a file was lost or
doubled, a refusal was slow or the server's memory grew more than 20 %."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from graphwiki_assets.cli.output import at_least


def register(kinds: argparse._SubParsersAction, add_common) -> None:
    parser = add_common(
        kinds.add_parser("soak", help="serve under load for some minutes while Neo4j, the LLM and serve fail once")
    )
    parser.add_argument("--minutes", type=float, default=10.0, help="minutes of load (default 10)")
    parser.add_argument("--files", type=at_least(1), default=300, help="source files submitted as jobs (default 300)")
    parser.add_argument("--corpus", type=Path, help="JSONL of {id, title, text} (default: the MuSiQue corpus)")
    parser.add_argument("--home", type=Path, help="the scratch home (default: a new temporary folder)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from graphwiki_assets.core.evals.datasets import MULTIHOP_SETS
    from graphwiki_assets.core.settings import Settings
    from graphwiki_assets.server.soak import SoakConfig, run_soak

    corpus = args.corpus or MULTIHOP_SETS["multihop_eval_musique"].corpus
    log = lambda msg: print(f"  {msg}", file=sys.stderr, flush=True)  # noqa: E731  (stdout is the JSON)
    result = run_soak(Settings.from_env(), corpus, SoakConfig(minutes=args.minutes, files=args.files), args.home, log)
    print(json.dumps(result.as_dict(), indent=2, default=str))
    return 0 if result.passed else 1
