"""`graphwiki bench fuzz`: the HTTP API of a running `graphwiki serve` fuzzed from its OpenAPI
document, and its MCP tools called with generated arguments (``server/fuzz.py``); JSON on
stdout, exit 1 on any 5xx, hang, broken session or refusal without a reason. It writes: requests that fit the schema include sources, which are ingested, so
point it at a server whose graph may take them (a scratch GRAPHWIKI_HOME and Neo4j)."""

from __future__ import annotations

import argparse
import json
import os
import sys

from graphwiki_assets.cli.output import at_least


def register(kinds: argparse._SubParsersAction, add_common) -> None:
    parser = add_common(
        kinds.add_parser("fuzz", help="fuzz a running `graphwiki serve` from its OpenAPI document (schemathesis)")
    )
    parser.add_argument("--url", help="the server (default: the one serving GRAPHWIKI_HOME, from serve.json)")
    parser.add_argument(
        "--examples", type=at_least(1), default=100, help="requests per operation, fitting and breaking (default 100)"
    )
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds before a request counts as hung")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from graphwiki_assets.core.settings import Settings
    from graphwiki_assets.server.client import TOKEN_ENV, read_discovery
    from graphwiki_assets.server.fuzz import fuzz_http, fuzz_mcp

    try:
        import schemathesis  # noqa: F401  (a development dependency)
    except ImportError:
        print("graphwiki bench fuzz needs schemathesis: pip install -e '.[dev]'", file=sys.stderr)
        return 2

    url = args.url or (read_discovery(Settings.from_env().home) or {}).get("url")
    if not url:
        print("graphwiki bench fuzz: no server found; start `graphwiki serve` or pass --url", file=sys.stderr)
        return 2
    import anyio

    token = os.environ.get(TOKEN_ENV) or None
    http = fuzz_http(url.rstrip("/"), args.examples, token, args.timeout)
    mcp = anyio.run(fuzz_mcp, f"{url.rstrip('/')}/mcp", args.examples, token, args.timeout)
    print(json.dumps({"http": http.as_dict(), "mcp": mcp.as_dict()}, indent=2))
    return 0 if http.clean and mcp.clean else 1
