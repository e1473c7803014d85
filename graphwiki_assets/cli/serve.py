"""`graphwiki serve` — one long-lived process answering over HTTP, models loaded once.

Binds 127.0.0.1 unless told otherwise; any other address needs a token (read from the
environment variable named by --token-env, GRAPHWIKI_SERVE_TOKEN by default), which every
route but /health then requires. While it runs, ``$GRAPHWIKI_HOME/serve.json`` tells
`graphwiki ask` where it is.
"""

from __future__ import annotations

import argparse
import ipaddress
import logging
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from graphwiki_assets.cli.output import at_least
from graphwiki_assets.server.client import TOKEN_ENV

DEFAULT_PORT = 8765


class UnsafeBind(ValueError):
    pass


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("serve", help="serve questions, concepts, the log and ingest over HTTP (JSON, OpenAPI)")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=at_least(1), default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    parser.add_argument(
        "--token-env",
        default=TOKEN_ENV,
        metavar="NAME",
        help=f"environment variable holding the bearer token (default {TOKEN_ENV}); required off loopback",
    )
    parser.add_argument("--debug", action="store_true", help="show tracebacks")
    parser.set_defaults(handler=run)


def is_loopback(host: str) -> bool:
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:  # a host name: it may resolve to anything
        return False


def client_url(host: str, port: int) -> str:
    """Where a client on this machine reaches a server bound to ``host``."""
    if host in ("0.0.0.0", ""):
        host = "127.0.0.1"
    elif host in ("::", "[::]"):
        host = "[::1]"
    elif ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{port}"


def token_for(host: str, token_env: str, env: dict[str, str] | os._Environ[str] = os.environ) -> str | None:
    """The configured token; refuses a non-loopback address without one."""
    token = (env.get(token_env) or "").strip() or None
    if token is None and not is_loopback(host):
        raise UnsafeBind(
            f"refusing to bind {host} without a token: anyone who can reach it could read the graph and add "
            f"sources. Set {token_env} to a long random secret, or bind 127.0.0.1."
        )
    return token


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from graphwiki_assets.core.service import Workspace
    from graphwiki_assets.core.settings import Settings
    from graphwiki_assets.server.client import remove_discovery, write_discovery
    from graphwiki_assets.server.http_app import build_app
    from graphwiki_assets.server.mcp_server import mount_mcp

    token = token_for(args.host, args.token_env)
    settings = Settings.from_env()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    print(f"graphwiki serve: loading models and reaching {settings.neo4j.uri} ...", file=sys.stderr, flush=True)
    url = client_url(args.host, args.port)

    @asynccontextmanager
    async def discovery(_app) -> AsyncIterator[None]:
        write_discovery(settings.home, url)
        try:
            yield
        finally:
            remove_discovery(settings.home)

    with Workspace.open(settings) as workspace:
        app = build_app(workspace, token=token, lifespans=[discovery])
        mount_mcp(app, workspace, host=args.host.strip("[]"))  # MCP over streamable HTTP at /mcp
        print(
            f"graphwiki serve: {url} (OpenAPI at {url}/docs, MCP at {url}/mcp; token {'required' if token else 'off'}; "
            f"discovery file {Path(settings.home) / 'serve.json'})",
            file=sys.stderr,
            flush=True,
        )
        try:
            uvicorn.run(app, host=args.host.strip("[]"), port=args.port, log_level="info")
        finally:
            remove_discovery(settings.home)
    return 0
