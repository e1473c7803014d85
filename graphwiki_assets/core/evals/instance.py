"""The evals' own Neo4j: a separate launcher instance, never the user's graph.

By default it lives under ``$GRAPHWIKI_HOME/eval`` on Bolt port GRAPHWIKI_EVAL_BOLT_PORT
(7688) and is started on first use; GRAPHWIKI_EVAL_NEO4J_URI points at a disposable
server instead. Every eval wipes it first, so runs hold an exclusive file lock: two evals
(say, Dagster running two eval assets at once) never wipe each other's graph.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from graphwiki_assets.core.settings import Settings
from graphwiki_assets.core.store.driver import GraphStore

DEFAULT_EVAL_BOLT_PORT = 7688


class EvalInstanceError(RuntimeError):
    pass


def eval_settings(base: Settings, env: Mapping[str, str] | None = None) -> Settings:
    """Settings for the eval instance, derived from the user's; refuses the user's own graph."""
    env = os.environ if env is None else env
    uri = env.get("GRAPHWIKI_EVAL_NEO4J_URI")
    if uri:
        neo4j = replace(base.neo4j, uri=uri,
                        username=env.get("GRAPHWIKI_EVAL_NEO4J_USERNAME") or base.neo4j.username,
                        password=env.get("GRAPHWIKI_EVAL_NEO4J_PASSWORD") or base.neo4j.password)
        settings = replace(base, neo4j=neo4j)
    else:
        port = int(env.get("GRAPHWIKI_EVAL_BOLT_PORT") or DEFAULT_EVAL_BOLT_PORT)
        settings = base.with_instance(base.home / "eval", port)
    if settings.neo4j.uri == base.neo4j.uri:
        raise EvalInstanceError(
            f"the eval graph would be the user's graph ({base.neo4j.uri}); evals wipe their graph, "
            "so set GRAPHWIKI_EVAL_BOLT_PORT or GRAPHWIKI_EVAL_NEO4J_URI to another server.")
    return settings


def explicit_uri(env: Mapping[str, str] | None = None) -> bool:
    return bool((os.environ if env is None else env).get("GRAPHWIKI_EVAL_NEO4J_URI"))


def _lock_path(settings: Settings) -> Path:
    key = hashlib.sha1(settings.neo4j.uri.encode()).hexdigest()[:12]
    return Path(tempfile.gettempdir()) / f"graphwiki-eval-{key}.lock"


@contextmanager
def eval_store(settings: Settings, start: bool = True, log=lambda msg: None) -> Iterator[GraphStore]:
    """An exclusive, wiped-on-demand store on the eval instance (started here if needed)."""
    lock = open(_lock_path(settings), "w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if start and not explicit_uri():
            from graphwiki_assets.core.neo4j_server.server import Neo4jServer

            Neo4jServer(settings.server, log=log).start()
        with GraphStore(settings.neo4j) as store:
            yield store
    finally:
        fcntl.flock(lock, fcntl.LOCK_UN)
        lock.close()


def wipe(store: GraphStore) -> None:
    """Delete every node and GDS projection; the schema (constraints, indexes) stays."""
    store.query_batched("MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS")
    for row in store.query("CALL gds.graph.list() YIELD graphName RETURN graphName"):
        store.query("CALL gds.graph.drop($name, false) YIELD graphName RETURN graphName", name=row["graphName"])
