"""The evals' own Neo4j: a separate launcher instance, never the user's graph.

By default it lives under ``$GRAPHWIKI_HOME/eval`` on Bolt port GRAPHWIKI_EVAL_BOLT_PORT
(7688) and is started on first use; GRAPHWIKI_EVAL_NEO4J_URI points at a disposable
server instead. Every eval wipes it first, so runs hold an exclusive file lock: two evals
(say, Dagster running two eval assets at once) never wipe each other's graph.

When another program holds the default port, a free one is chosen and remembered in
``$GRAPHWIKI_HOME/eval/bolt-port``. A server an eval started is stopped when the eval
ends (it holds a gigabyte of heap), unless GRAPHWIKI_EVAL_KEEP_NEO4J=1 or an enclosing
``eval_server`` keeps it up for a series of evals.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import socket
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, nullcontext
from dataclasses import replace
from pathlib import Path

from graphwiki_assets.core.settings import Settings
from graphwiki_assets.core.store.driver import GraphStore
from graphwiki_assets.core.store.gds_client import drop_graphs

DEFAULT_EVAL_BOLT_PORT = 7688


class EvalInstanceError(RuntimeError):
    pass


def eval_settings(base: Settings, env: Mapping[str, str] | None = None) -> Settings:
    """Settings for the eval instance, derived from the user's; refuses the user's own graph."""
    env = os.environ if env is None else env
    uri = env.get("GRAPHWIKI_EVAL_NEO4J_URI")
    if uri:
        neo4j = replace(
            base.neo4j,
            uri=uri,
            username=env.get("GRAPHWIKI_EVAL_NEO4J_USERNAME") or base.neo4j.username,
            password=env.get("GRAPHWIKI_EVAL_NEO4J_PASSWORD") or base.neo4j.password,
        )
        settings = replace(base, neo4j=neo4j)
    else:
        settings = base.with_instance(base.home / "eval", _eval_port(base, env))
    if settings.neo4j.uri == base.neo4j.uri:
        raise EvalInstanceError(
            f"the eval graph would be the user's graph ({base.neo4j.uri}); evals wipe their graph, "
            "so set GRAPHWIKI_EVAL_BOLT_PORT or GRAPHWIKI_EVAL_NEO4J_URI to another server."
        )
    return settings


def _port_file(eval_home: Path) -> Path:
    return eval_home / "bolt-port"


def _eval_port(base: Settings, env: Mapping[str, str]) -> int:
    if env.get("GRAPHWIKI_EVAL_BOLT_PORT"):
        return int(env["GRAPHWIKI_EVAL_BOLT_PORT"])
    try:
        return int(_port_file(base.home / "eval").read_text().strip())
    except (FileNotFoundError, ValueError):
        return DEFAULT_EVAL_BOLT_PORT


def free_port() -> int:
    """A port nothing on 127.0.0.1 listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _on_a_free_port(settings: Settings, log) -> Settings:
    """The eval instance, moved to a free port when another program holds its port (and the
    user did not choose that port)."""
    from graphwiki_assets.core.neo4j_server.server import Neo4jServer

    server = Neo4jServer(settings.server, log=log)
    if server.pid() is not None or not server._port_open() or os.environ.get("GRAPHWIKI_EVAL_BOLT_PORT"):
        return settings
    port = free_port()
    log(
        f"port {settings.server.bolt_port} is taken by another program; the eval Neo4j uses {port} "
        f"(remembered in {_port_file(settings.home)})"
    )
    settings.home.mkdir(parents=True, exist_ok=True)
    _port_file(settings.home).write_text(str(port))
    return settings.with_instance(settings.home, port)


def keep_running(env: Mapping[str, str] | None = None) -> bool:
    return (os.environ if env is None else env).get("GRAPHWIKI_EVAL_KEEP_NEO4J", "") not in ("", "0", "false")


@contextmanager
def _running(settings: Settings, log) -> Iterator[None]:
    """The eval instance up; stopped afterwards if it was started here (not if it was running
    before, nor when GRAPHWIKI_EVAL_KEEP_NEO4J=1)."""
    from graphwiki_assets.core.neo4j_server.server import Neo4jServer

    server = Neo4jServer(settings.server, log=log)
    ours = server.pid() is None
    server.start()
    try:
        yield
    finally:
        if ours and not keep_running():
            server.stop()
            log("stopped the eval Neo4j it started (GRAPHWIKI_EVAL_KEEP_NEO4J=1 keeps it running)")


@contextmanager
def eval_server(settings: Settings, log=lambda msg: None) -> Iterator[Settings]:
    """The eval instance up for a series of evals (``graphwiki bench``), stopped afterwards if
    it was started here; yields the settings to use (the port may have moved)."""
    if explicit_uri():
        yield settings
        return
    settings = _on_a_free_port(settings, log)
    with _running(settings, log):
        yield settings


def explicit_uri(env: Mapping[str, str] | None = None) -> bool:
    return bool((os.environ if env is None else env).get("GRAPHWIKI_EVAL_NEO4J_URI"))


def _lock_path(settings: Settings) -> Path:
    key = hashlib.sha1(settings.neo4j.uri.encode()).hexdigest()[:12]
    return Path(tempfile.gettempdir()) / f"graphwiki-eval-{key}.lock"


@contextmanager
def eval_store(settings: Settings, start: bool = True, log=lambda msg: None) -> Iterator[GraphStore]:
    """An exclusive, wiped-on-demand store on the eval instance (started here if needed)."""
    launch = start and not explicit_uri()
    if launch:
        settings = _on_a_free_port(settings, log)
    lock = open(_lock_path(settings), "w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        with _running(settings, log) if launch else nullcontext(), GraphStore(settings.neo4j) as store:
            yield store
    finally:
        fcntl.flock(lock, fcntl.LOCK_UN)
        lock.close()


def wipe(store: GraphStore) -> None:
    """Delete every node and GDS projection; the schema (constraints, indexes) stays."""
    store.query_batched("MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS")
    drop_projections(store)


def drop_projections(store: GraphStore) -> None:
    """Drop every GDS projection (built from a graph that has changed since)."""
    drop_graphs(store)
    store.memo.clear()  # what it remembered of the old graph
