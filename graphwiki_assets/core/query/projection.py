"""The named GDS projection every PageRank query streams from.

Projecting takes seconds on a large graph and a query should take milliseconds, so the
projection is built after ingest (``refresh_projection``: the ``graph_projection`` asset,
the ingest pipeline after its batches, ``graphwiki ask --refresh``) and queries only
stream from it. It lives in server memory, so after a restart the first query that needs
it builds it once (``ensure_projection``); a query never rebuilds it because the graph
moved on: it answers from the last refresh (``stale`` says so), and nodes written since
are not in it (``ppr.stream_seeds`` leaves such seeds out rather than failing).

Refreshing must not pull the projection from under a running query, so every build gets
its own name (``graphwiki-query@<ns>``): the new one is complete before the older ones
are dropped, and queries take the newest. A query that still holds a dropped name is told the graph
is missing and asks again (``with_projection``). Builds racing each
other (askers of two processes after a restart, two writers) each make their own, and
each build's clean-up keeps only the newest.

Builds and drops go through the GDS client (``core/store/gds_client.py``); the catalog is
read with ``cypher.PROJECTIONS`` (inside a question's own read transaction, which the client
cannot join, and outside one alike: see ``_catalog``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import TypeVar

from neo4j.exceptions import ClientError

from graphwiki_assets.core.query import cypher
from graphwiki_assets.core.store.driver import Graph, GraphStore, Reader
from graphwiki_assets.core.store.gds_client import calls, drop_named, gds, store_gds

PROJECTION = "graphwiki-query"  # the prefix of every build's name
_SEPARATOR = "@"
# Each build comes with its concept layer (Concept nodes and the edges between them), the
# graph "what else relates to X" ranks on: filtering the whole projection to it on every
# PageRank call cost more than the ranking (675 against 320 ms at 100k concepts).
LAYER_SUFFIX = "-concepts"
# One build at a time per process: eight askers after a restart wait for one projection.
_BUILDING = threading.Lock()
T = TypeVar("T")


def concept_layer(prefix: str = PROJECTION) -> str:
    """The prefix of the concept layers of ``prefix``'s builds."""
    return prefix + LAYER_SUFFIX


@dataclass
class ProjectionStatus:
    name: str
    exists: bool
    nodes: int = 0
    relationships: int = 0
    graph_nodes: int = 0
    graph_relationships: int = 0
    types: list[str] = field(default_factory=list)  # relationship types present (GDS rejects absent ones)
    refreshed: bool = False
    seconds: float = 0.0  # how long the build took, when this call built it

    @property
    def stale(self) -> bool:
        return self.exists and (self.nodes, self.relationships) != (self.graph_nodes, self.graph_relationships)

    def as_dict(self) -> dict:
        return {**asdict(self), "stale": self.stale}


def missing_graph(exc: Exception) -> bool:
    """GDS's words for a projection that is not (or no longer) in the catalog
    (GraphNotFoundException: "Graph with name `x` does not exist on database `neo4j`")."""
    text = str(exc)
    return isinstance(exc, ClientError) and (
        "GraphNotFoundException" in text or ("Graph with name" in text and "does not exist" in text)
    )


def _catalog(store: Graph, prefix: str) -> list[dict]:
    """Every catalog graph whose name starts with ``prefix``, newest first.

    Listed with Cypher that yields names, counts and schema only: the client's listing yields
    every graph's degree distribution too, which GDS computes while it lists and which fails
    ("Cannot set degreeDistribution because graph ... does not exist") when a racing refresh
    drops a graph meanwhile.
    """
    if isinstance(store, GraphStore):
        store_gds(store)  # GdsUnavailable, with what to install, on a server without GDS
    return [{**r, "created": r["created"].to_native()} for r in store.query(cypher.PROJECTIONS, prefix=prefix)]


def builds(store: Graph, prefix: str) -> list[dict]:
    """This prefix's builds, newest first."""
    return [r for r in _catalog(store, prefix) if r["name"] == prefix or r["name"].startswith(prefix + _SEPARATOR)]


class EmptyGraph(LookupError):
    """There is nothing to project: no source has been ingested."""


def current_projection(store: Graph, prefix: str = PROJECTION) -> dict | None:
    """The newest build (name, nodes, relationships, types, created), or None."""
    found = builds(store, prefix)
    return found[0] if found else None


def projection_status(store: Graph, prefix: str = PROJECTION) -> ProjectionStatus:
    """The newest build against what the graph holds now (``stale`` when they differ)."""
    expected = store.query(cypher.PROJECTABLE_COUNTS)[0]
    found = current_projection(store, prefix)
    status = ProjectionStatus(
        name=found["name"] if found else prefix,
        exists=bool(found),
        graph_nodes=expected["nodes"],
        graph_relationships=expected["relationships"],
    )
    if found:
        status.nodes, status.relationships, status.types = (
            found["nodes"],
            found["relationships"],
            sorted(found["types"]),
        )
    return status


def refresh_projection(store: GraphStore, prefix: str = PROJECTION) -> ProjectionStatus:
    """Build a new projection, then drop all but the newest build: call after ingest."""
    if prefix.endswith(LAYER_SUFFIX):  # a layer is built with its projection
        prefix = prefix[: -len(LAYER_SUFFIX)]
    started = time.monotonic()
    stamp = f"{_SEPARATOR}{time.time_ns()}"
    name, layer = prefix + stamp, concept_layer(prefix) + stamp
    client = gds(store)
    try:
        # An empty graph projects nothing (the aggregation sees no rows); the client would
        # take its empty answer for a malformed query.
        if store.query(cypher.PROJECTABLE_COUNTS)[0]["nodes"]:
            with calls(store):
                built = client.graph.project.cypher(cypher.PROJECTION_CREATE, graph=name)
                client.graph.filter(built.graph, layer, "n:Concept", "*")
    except ClientError as exc:
        if not _superseded(store, prefix, name, exc):
            raise
    # Keep the newest build only (ours, or a racing one that started later): a query
    # that still holds a dropped one asks again.
    drop_named(store, [b["name"] for b in builds(store, prefix)[1:] + builds(store, concept_layer(prefix))[1:]])
    status = projection_status(store, prefix)
    status.refreshed, status.seconds = True, round(time.monotonic() - started, 3)
    return status


def _superseded(store: GraphStore, prefix: str, name: str, exc: ClientError) -> bool:
    """Whether a failed build lost to a racing one, which leaves the catalog as it should be:
    a build of the very same name (GDS words it two ways), or a refresh that started later
    and, finishing first, dropped ours before its concept layer was filtered from it."""
    if "already exists" in str(exc) or "already loaded" in str(exc):
        return True
    listed = [b["name"] for b in builds(store, prefix)]
    return name not in listed and any(other > name for other in listed)


def ensure_projection(store: Graph, prefix: str = PROJECTION) -> dict:
    """The newest build, made now only if there is none (a restart, a fresh graph)."""
    found = current_projection(store, prefix)
    if found is not None:
        return found
    with _BUILDING:
        found = current_projection(store, prefix)  # another thread built it while we waited
        if found is None:
            refresh_projection(store_behind(store), prefix)
            found = current_projection(store, prefix)
    if found is None and not store.query(cypher.PROJECTABLE_COUNTS)[0]["nodes"]:
        raise EmptyGraph("the graph holds no concepts yet: ingest sources first (`graphwiki ingest PATH`)")
    if found is None:
        raise RuntimeError(
            f"the GDS projection {prefix!r} vanished right after it was built; "
            "is another process dropping graphs from the GDS catalog?"
        )
    return found


def store_behind(store: Graph) -> GraphStore:
    """The store itself, or the one behind a question's reader: builds and GDS client calls
    run outside its read transaction."""
    if isinstance(store, GraphStore):
        return store
    if isinstance(store, Reader):
        return store.store
    raise TypeError(f"no GraphStore behind {type(store).__name__}")


def with_projection(store: Graph, work: Callable[[dict], T], prefix: str = PROJECTION) -> T:
    """``work(projection)`` on the newest build; once more on a newer one if a refresh
    dropped it meanwhile."""
    for attempt in range(3):
        projection = ensure_projection(store, prefix)
        try:
            return work(projection)
        except ClientError as exc:
            if attempt == 2 or not missing_graph(exc):
                raise
    raise AssertionError("unreachable")
