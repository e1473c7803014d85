"""The one named GDS projection every PageRank query streams from.

Projecting takes seconds on a large graph and a query should take milliseconds, so the
projection is built once and refreshed after ingest (the ``graph_projection`` asset, or
``refresh_projection`` from Python); queries only call ``gds.pageRank.stream`` on it.
It lives in server memory, so after a restart ``ensure_projection`` builds it again, and
when the graph's counts no longer match it (an ingest since the last refresh) it is
rebuilt once rather than silently answering from an old graph.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from neo4j.exceptions import ClientError

from graphwiki_assets.core.query import cypher
from graphwiki_assets.core.store.driver import GraphStore

PROJECTION = "graphwiki-query"


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

    @property
    def stale(self) -> bool:
        return self.exists and (self.nodes, self.relationships) != (self.graph_nodes, self.graph_relationships)

    def as_dict(self) -> dict:
        return {**asdict(self), "stale": self.stale}


def projection_status(store: GraphStore, name: str = PROJECTION) -> ProjectionStatus:
    expected = store.query(cypher.PROJECTABLE_COUNTS)[0]
    found = store.query(cypher.PROJECTION_INFO, graph=name)
    status = ProjectionStatus(name=name, exists=bool(found), graph_nodes=expected["nodes"],
                              graph_relationships=expected["relationships"])
    if found:
        status.nodes, status.relationships = found[0]["nodes"], found[0]["relationships"]
        status.types = sorted(found[0]["types"])
    return status


def refresh_projection(store: GraphStore, name: str = PROJECTION) -> ProjectionStatus:
    """Drop and project again: call after ingest (cheap to call when nothing changed)."""
    store.query(cypher.PROJECTION_DROP, graph=name)
    return _project(store, name)


def ensure_projection(store: GraphStore, name: str = PROJECTION, refresh_stale: bool = True) -> ProjectionStatus:
    """The projection, built if missing and (by default) rebuilt if the graph moved on."""
    status = projection_status(store, name)
    if not status.exists:
        return _project(store, name)
    if refresh_stale and status.stale:
        return refresh_projection(store, name)
    return status


def _project(store: GraphStore, name: str) -> ProjectionStatus:
    try:
        store.query(cypher.PROJECTION_CREATE, graph=name)
    except ClientError as exc:
        # Another query projected it between our check and now: theirs is as good.
        if "already exists" not in str(exc):
            raise
    status = projection_status(store, name)
    status.refreshed = True
    return status
