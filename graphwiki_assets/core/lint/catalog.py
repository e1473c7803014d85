"""The lint's view of the GDS catalog, through the GDS client: the query projection against
what the graph holds, and builds left behind.

A refresh builds a new projection and then drops every older build; a run killed between
the two leaves builds that hold memory in the server until something drops them, and an
ingest whose query upkeep failed leaves questions answering from a projection that lags the
graph. A graph with no projection yet is fine: the first question builds one.
"""

from __future__ import annotations

from graphwiki_assets.core.lint.checks import CAP, CheckResult, make_result
from graphwiki_assets.core.query.projection import PROJECTION, builds, concept_layer, projection_status
from graphwiki_assets.core.store.driver import GraphStore
from graphwiki_assets.core.store.gds_client import GdsUnavailable

NAME = "gds_catalog"


def gds_catalog(store: GraphStore, cap: int = CAP) -> CheckResult:
    try:
        found = {prefix: builds(store, prefix) for prefix in (PROJECTION, concept_layer(PROJECTION))}
    except GdsUnavailable as exc:
        return make_result(NAME, 1, 1, [{"id": "gds", "problem": str(exc)}], cap=cap)
    rows = [
        {"id": b["name"], "problem": "an older build left behind (refresh the projection to drop it)"}
        for listed in found.values()
        for b in listed[1:]
    ]
    status = projection_status(store)
    if status.stale:
        rows.insert(
            0,
            {
                "id": status.name,
                "problem": (
                    f"holds {status.nodes} nodes and {status.relationships} relationships, the graph "
                    f"{status.graph_nodes} and {status.graph_relationships} (refresh the projection)"
                ),
            },
        )
    total = sum(len(listed) for listed in found.values())
    detail = "" if found[PROJECTION] else "no projection yet: the first question builds one"
    return make_result(NAME, len(rows), total, rows, detail, cap=cap)
