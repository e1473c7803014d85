"""Impact analysis: what a change to one source can reach, and optionally flag it for review;
``flag_file_drift`` flags what every file changed on disk reaches.

Depth 0 is the source alone; depth N follows N hops over DERIVED_FROM / ABOUT / RELATED_TO /
CONTRADICTS / PART_OF (depth 1 = what derives from the source); ``None`` (``*``) is the
whole reachable subgraph. Only concepts and claims carry ``needs_review``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from graphwiki_assets.core.lint.drift import file_drift
from graphwiki_assets.core.review import cypher
from graphwiki_assets.core.store.driver import GraphStore

UNBOUNDED = None


class UnknownSource(LookupError):
    pass


def parse_depth(value: str | int | None) -> int | None:
    """'*' (or None) means unbounded; otherwise a non-negative int."""
    if value is None or value == "*":
        return UNBOUNDED
    problem = ValueError(f"depth must be a non-negative integer or '*', not {value!r}")
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise problem  # 1.5 or True must not quietly become a depth
    try:
        depth = int(value)
    except ValueError:
        raise problem from None
    if depth < 0:
        raise problem
    return depth


@dataclass(frozen=True)
class ImpactNode:
    id: str
    label: str
    name: str | None
    status: str | None
    distance: int


@dataclass
class ImpactResult:
    source_id: str
    path: str | None
    depth: int | None
    nodes: list[ImpactNode] = field(default_factory=list)  # without the source itself
    flagged: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {
            "source_id": self.source_id,
            "path": self.path,
            "depth": "*" if self.depth is None else self.depth,
            "reached": len(self.nodes),
            "nodes": [asdict(n) for n in self.nodes],
            "flagged": self.flagged,
        }


def impact(
    store: GraphStore,
    source: str,
    depth: int | str | None = 1,
    flag: bool = False,
    now: datetime | None = None,
    reason: str | None = None,
) -> ImpactResult:
    """``source`` is a Source id or a path (its latest version)."""
    depth = parse_depth(depth)
    found = store.query(cypher.FIND_SOURCE, ref=source)
    if not found:
        raise UnknownSource(f"no Source with id or path {source!r}")
    src = found[0]
    result = ImpactResult(source_id=src["id"], path=src["path"], depth=depth)
    if depth != 0:
        result.nodes = [ImpactNode(**row) for row in store.query(cypher.impact_query(depth), id=src["id"])]
    if flag and result.nodes:
        rows = store.query(
            cypher.FLAG_NEEDS_REVIEW,
            ids=[n.id for n in result.nodes],
            now=now or datetime.now(UTC),
            reason=reason or f"impact of a change to source {src['id']}",
        )
        result.flagged = sorted(r["id"] for r in rows)
    return result


def flag_file_drift(store: GraphStore, sources_dir: Path | None, now: datetime) -> dict[str, list[str]]:
    """Flag needs_review on the dependents of every drifted Source: {source id: flagged ids}."""
    flagged = {}
    for drift in file_drift(store, sources_dir).drifted:
        result = impact(
            store, drift.source_id, depth=1, flag=True, now=now, reason=f"source file changed on disk: {drift.path}"
        )
        flagged[drift.source_id] = result.flagged
    return flagged
