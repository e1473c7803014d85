"""`graphwiki neo4j start|stop|status` — the local Neo4j + GDS launcher."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace

from graphwiki_assets.cli.output import add_common, emit
from graphwiki_assets.core.neo4j_server.server import Neo4jServer
from graphwiki_assets.core.settings import Settings
from graphwiki_assets.core.store.driver import GraphStore
from graphwiki_assets.core.store.migrations import migrate


def register(sub: argparse._SubParsersAction) -> None:
    parser = add_common(sub.add_parser("neo4j", help="start, stop or inspect the local Neo4j server"))
    parser.add_argument("action", choices=["start", "stop", "status"])
    parser.add_argument("--timeout", type=float, default=180.0, help="seconds to wait for Bolt")
    parser.set_defaults(handler=run)


def _upgrade(settings: Settings, bolt_uri: str) -> str:
    """A graph an earlier version wrote is upgraded as the server comes up (idempotent)."""
    with GraphStore(replace(settings.neo4j, uri=bolt_uri)) as store:
        report = migrate(store)
    return ", ".join(f"{n} {t}" for t, n in report.relationships.items() if n)


def run(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    server = Neo4jServer(settings.server, log=lambda msg: print(msg, file=sys.stderr))
    if args.action == "start":
        status = server.start(timeout_s=args.timeout)
        text = f"up after {status.seconds}s: {status.describe()}"
        upgraded = _upgrade(settings, status.bolt_uri) if status.running and not status.problem else ""
        if upgraded:
            text += f"; upgraded the graph: {upgraded}"
    elif args.action == "stop":
        status = server.stop()
        text = f"Neo4j stopped (home {status.home})"
    else:
        status = server.status()
        text = status.describe()
    emit(args, status.as_dict(), text)
    return 0 if (args.action != "status" or status.running) else 3
