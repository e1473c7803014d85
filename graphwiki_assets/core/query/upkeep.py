"""What queries keep beside the graph, brought up to date after ingest writes.

Three things are derived from the graph for fast questions: the stored neighbourhood
signatures (``signatures.py``, incremental: only the concepts a batch touched), the GDS
projection (``projection.py``, rebuilt whole) and the FastRP node embeddings written from
it (``structure.py``, with every rebuild). The ingest pipeline calls
``refresh_after_batch`` after each committed batch; the Dagster assets of the query group
do the same after ``claim_links``. Signatures are refreshed every batch: those of the
concepts the batch touched, and on the last batch of a run every stale one (a full scan,
O(concepts), once a run instead of once a batch). Rebuilding the
projection costs seconds on a large graph, so between the first and the last batch of a
run it is rebuilt at most once per ``PROJECTION_INTERVAL_S``; the last batch always
rebuilds it. Queries in between answer from the previous build (nodes newer than it are
left out of PageRank, never an error).

A failed refresh never fails the ingest that called it: the graph is committed, and the
next refresh (or ``graphwiki ask --refresh``) catches up. The failure is logged.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from neo4j.exceptions import Neo4jError

from graphwiki_assets.core.query.projection import ProjectionStatus, current_projection, refresh_projection
from graphwiki_assets.core.query.signatures import refresh_signatures
from graphwiki_assets.core.query.structure import refresh_structure
from graphwiki_assets.core.store.driver import GraphStore

PROJECTION_INTERVAL_S = 60.0


def rebuild_projection(store: GraphStore) -> tuple[ProjectionStatus, dict]:
    """A new projection and the node embeddings written from it: always rebuilt together."""
    projection = refresh_projection(store)
    if not projection.exists:  # an empty graph: nothing to project, no vectors to write
        return projection, {"written": 0}
    return projection, refresh_structure(store)


def refresh_query_state(store: GraphStore) -> dict:
    """Signatures, then a new projection: everything a question reads besides the graph."""
    signatures = refresh_signatures(store)
    projection, structure = rebuild_projection(store)
    return {"signatures": signatures, "projection": projection.as_dict(), "structure": structure}


def _projection_age_s(store: GraphStore) -> float | None:
    found = current_projection(store)
    if found is None:
        return None
    return max(0.0, time.time() - found["created"].timestamp())


def refresh_after_batch(
    store: GraphStore,
    last: bool = True,
    log: Callable[[str], None] = lambda msg: None,
    touched: Iterable[str] | None = None,
) -> dict:
    """After an ingest batch: signatures always (of the concepts the batch ``touched`` when
    given, of every stale one on a run's last batch, which also catches what other writers
    changed); the projection on the last batch of a run, or when the current one is older
    than PROJECTION_INTERVAL_S (or missing)."""
    done: dict = {}
    try:
        done["signatures"] = refresh_signatures(store, None if last else touched)
        age = _projection_age_s(store)
        if last or age is None or age > PROJECTION_INTERVAL_S:
            projection, done["structure"] = rebuild_projection(store)
            done["projection"] = projection.as_dict()
    except Neo4jError as exc:
        log(
            f"query upkeep after the batch failed ({type(exc).__name__}: {exc}); queries answer from the "
            "previous signatures and projection until the next refresh"
        )
        done["error"] = str(exc)
    return done
