"""`graphwiki mcp` — the knowledge base as a Model Context Protocol server over stdio, for an
agent or any MCP client to start as a subprocess.

The graph, the embedding model and the LLM are loaded once, before the first message, and
serve the whole session. Stdout is the protocol, so everything else this process says (the
models loading, ingest progress, logs) goes to stderr.

An MCP client's configuration starts it like this (Claude Desktop's ``claude_desktop_config.json``
and most clients take the same shape):

    {"mcpServers": {"graphwiki": {
        "command": "graphwiki", "args": ["mcp"],
        "env": {"NEO4J_URI": "bolt://127.0.0.1:7687", "NEO4J_PASSWORD": "...",
                "GRAPHWIKI_HOME": "/path/to/home"}}}}
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import sys


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "mcp", help="serve the knowledge base to MCP clients over stdio (tools: ask, search, concepts, add a source)"
    )
    parser.add_argument("--debug", action="store_true", help="show tracebacks")
    parser.add_argument(
        "--log-level", default="INFO", choices=["DEBUG", "INFO", "WARNING", "ERROR"], help="stderr log level"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from graphwiki_assets.core.service import Workspace
    from graphwiki_assets.server.mcp_server import build_mcp

    if sys.stdin.isatty():
        print(
            "graphwiki mcp speaks the Model Context Protocol on stdin/stdout: an MCP client starts it "
            '(command "graphwiki", args ["mcp"]). Ctrl-C to stop.',
            file=sys.stderr,
        )
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s", "%H:%M:%S"))
    logging.basicConfig(level=args.log_level, handlers=[handler], force=True)
    workspace = Workspace.open(warm=False)
    try:
        workspace.store.query("RETURN 1 AS ok")  # a graph out of reach fails now, not after the models load
        # Anything printed while the models load would reach the client as a broken message.
        with contextlib.redirect_stdout(sys.stderr):
            workspace.warm()
        workspace.jobs.start()  # and run what an ended server left queued
        logging.getLogger("graphwiki.mcp").info("graphwiki MCP server ready on stdio")
        build_mcp(workspace).run("stdio")
    finally:
        workspace.close()
    return 0
