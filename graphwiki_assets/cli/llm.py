"""`graphwiki llm start|stop|status|prepare` — the local llama.cpp model server (GRAPHWIKI_LLM=local).

``prepare`` fetches the model and builds the runtime without starting anything (CI runs it
before the tests, so a first build does not count against a test's timeout)."""

from __future__ import annotations

import argparse
import sys

from graphwiki_assets.cli.output import add_common, emit
from graphwiki_assets.core.llm_server.server import LocalLLMServer
from graphwiki_assets.core.settings import Settings


def register(sub: argparse._SubParsersAction) -> None:
    parser = add_common(sub.add_parser("llm", help="start, stop or inspect the local model server (llama.cpp)"))
    parser.add_argument("action", choices=["start", "stop", "status", "prepare"])
    parser.add_argument(
        "--timeout", type=float, default=300.0, help="seconds to wait for the model to load (after any build)"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    server = LocalLLMServer(settings.local_llm, log=lambda msg: print(msg, file=sys.stderr))
    if args.action == "start":
        status = server.start(timeout_s=args.timeout)
        text = f"up after {status.seconds}s: {status.describe()}"
        if not settings.local_llm.enabled:
            text += "\nset GRAPHWIKI_LLM=local for graphwiki commands to use it"
    elif args.action == "prepare":
        binary, model = server.prepare()
        emit(args, {"runtime": str(binary), "model": str(model)}, f"runtime {binary}\nmodel {model}")
        return 0
    elif args.action == "stop":
        status = server.stop()
        text = f"llama-server stopped (home {status.home})"
    else:
        status = server.status()
        text = status.describe()
    emit(args, status.as_dict(), text)
    return 0 if (args.action != "status" or status.running) else 3
