"""Upgrades of graphs written by earlier versions, applied at start-up; each is idempotent.

Relationship types. Earlier graphs told three meanings apart by a ``kind`` property on one
type, ``RELATES_TO``: claim->concept ``about``, concept->concept ``association`` and the
stage-2 verdict ``not_same_as``. A walk that forgot to filter ``kind`` followed verdicts
as if they were facts, so each meaning now has its own type (``ABOUT``, ``RELATED_TO``,
``NOT_SAME_AS``) and no query needs to remember anything. An edge of an unknown kind is
left as it is; the lint reports it.

Source dates. Where a source's date came from was first recorded as ``date_from``; its
documented name is ``date_source``, so the property is renamed, values unchanged. A
``:Source`` written before sources were dated has no ``date`` and no ``date_source``, which
every reader takes as "date unknown"; its file is not read again to date it, because a file
time read now would not be the time the text was ingested, and the text itself is unchanged
(a changed file is a new Source, dated then).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from graphwiki_assets.core.store.driver import GraphStore
from graphwiki_assets.core.store.gds_client import GdsUnavailable, drop_graphs

# kind -> new type; the types are fixed identifiers (a type cannot be a parameter).
RELATES_TO_KINDS = {"about": "ABOUT", "association": "RELATED_TO", "not_same_as": "NOT_SAME_AS"}

_COUNT_OLD = "MATCH ()-[r:RELATES_TO]->() WHERE r.kind IN $kinds RETURN count(r) AS n"

_MOVE = """
MATCH (a)-[r:RELATES_TO {{kind: $kind}}]->(b)
CALL (a, r, b) {{
  MERGE (a)-[n:{new_type}]->(b)
  SET n += properties(r)
  REMOVE n.kind
  DELETE r
}} IN TRANSACTIONS OF 5000 ROWS
"""

# Stored neighbourhood signatures name the relation; they are rebuilt by the query upkeep.
_FORGET_SIGNATURES = """
MATCH (c:Concept) WHERE c.shape_at IS NOT NULL
CALL (c) { REMOVE c.shape_at } IN TRANSACTIONS OF 10000 ROWS
"""


_COUNT_DATE_FROM = "MATCH (s:Source) WHERE s.date_from IS NOT NULL RETURN count(s) AS n"

# A date_source already there is the newer writer's and is kept.
_RENAME_DATE_FROM = """
MATCH (s:Source) WHERE s.date_from IS NOT NULL
CALL (s) {
  SET s.date_source = coalesce(s.date_source, s.date_from)
  REMOVE s.date_from
} IN TRANSACTIONS OF 10000 ROWS
"""


@dataclass(frozen=True)
class MigrationReport:
    relationships: dict[str, int]
    source_dates: int = 0  # sources whose date_from became date_source

    @property
    def changed(self) -> bool:
        return any(self.relationships.values()) or self.source_dates > 0


def migrate_relationship_types(store: GraphStore) -> MigrationReport:
    """``RELATES_TO {kind}`` edges become edges of one type per meaning; a no-op when none is left."""
    if not store.query(_COUNT_OLD, kinds=list(RELATES_TO_KINDS))[0]["n"]:
        return MigrationReport(relationships={})
    moved: dict[str, int] = {}
    for kind, new_type in RELATES_TO_KINDS.items():
        before = store.query("MATCH ()-[r:RELATES_TO {kind: $kind}]->() RETURN count(r) AS n", kind=kind)[0]["n"]
        if before:
            store.query_batched(_MOVE.format(new_type=new_type), kind=kind)
        moved[new_type] = before
    store.query_batched(_FORGET_SIGNATURES)
    try:  # in-memory GDS projections hold the old types; the next query builds a new one
        drop_graphs(store, prefix="graphwiki")
    except GdsUnavailable:  # a server without GDS has no projections to drop
        pass
    return MigrationReport(relationships=moved)


def migrate_source_date_names(store: GraphStore) -> int:
    """``date_from`` on old sources becomes ``date_source``; how many sources changed (0 when none is left)."""
    renamed = store.query(_COUNT_DATE_FROM)[0]["n"]
    if renamed:
        store.query_batched(_RENAME_DATE_FROM)
    return renamed


def migrate(store: GraphStore) -> MigrationReport:
    """Every upgrade, in order."""
    report = migrate_relationship_types(store)
    return replace(report, source_dates=migrate_source_date_names(store))
