"""Leiden partitions of the concept layer, as communities known by their members."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from graphwiki_assets.core.communities import cypher
from graphwiki_assets.core.store.driver import GraphStore
from graphwiki_assets.core.store.gds_client import calls, gds, graph


@dataclass(frozen=True)
class CommunityConfig:
    min_size: int = 3  # smaller groups are not a theme: their concepts stay without a community
    seed: int = 19
    max_levels: int = 10
    gamma: float = 1.0  # Leiden's resolution: higher gives more, smaller communities
    max_members: int = 12  # members a report is written from (the most connected inside)
    max_facts: int = 12  # claims a report is written from (those tying most members together)
    per_call: int = 8  # communities reported in one LLM call

    def __post_init__(self) -> None:
        for name in ("min_size", "max_levels", "max_members", "max_facts", "per_call"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, not {getattr(self, name)!r}")
        if self.gamma <= 0:
            raise ValueError(f"gamma must be positive, not {self.gamma!r}")


@dataclass(frozen=True)
class Community:
    id: str
    members: tuple[str, ...]  # sorted concept ids
    level: int  # the finest Leiden level it appears at (0 = finest)
    top: bool  # part of the final, coarsest partition
    parent: str | None = None  # the smallest larger community holding it

    @property
    def size(self) -> int:
        return len(self.members)


@dataclass
class Partition:
    communities: dict[str, Community] = field(default_factory=dict)
    concepts: int = 0  # concepts Leiden placed (superseded ones left out)
    levels: int = 0

    def covered(self) -> int:
        """Concepts in at least one community of at least the minimum size."""
        return len({m for c in self.communities.values() if c.top for m in c.members})


def community_id(members: tuple[str, ...]) -> str:
    digest = hashlib.blake2b("\n".join(members).encode("utf-8"), digest_size=8).hexdigest()
    return f"community-{digest}"


def partition(rows: list[dict], min_size: int) -> Partition:
    """Communities from Leiden's rows (concept id, its community at each level, finest first).
    The same members at several levels are one community, at the finest of them."""
    out = Partition(concepts=len(rows), levels=max((len(r["levels"]) for r in rows), default=0))
    if not rows:
        return out
    groups_by_level: list[dict[int, list[str]]] = []
    for level in range(out.levels):
        groups: dict[int, list[str]] = {}
        for row in rows:
            ids = row["levels"]
            groups.setdefault(ids[min(level, len(ids) - 1)], []).append(row["id"])
        groups_by_level.append(groups)
    found: dict[str, dict] = {}
    chain: dict[tuple[int, int], str] = {}  # (level, leiden id) -> community id
    for level, groups in enumerate(groups_by_level):
        for leiden_id, members in groups.items():
            if len(members) < min_size:
                continue
            key = tuple(sorted(members))
            cid = community_id(key)
            chain[(level, leiden_id)] = cid
            entry = found.setdefault(cid, {"members": key, "level": level, "top": False})
            entry["top"] = entry["top"] or level == out.levels - 1
    parents: dict[str, str] = {}
    for row in rows:
        ids = row["levels"]
        kept = [chain.get((level, ids[min(level, len(ids) - 1)])) for level in range(out.levels)]
        path = [cid for cid in kept if cid]
        for child, parent in zip(path, path[1:]):
            if child != parent:
                parents.setdefault(child, parent)
    out.communities = {
        cid: Community(id=cid, members=e["members"], level=e["level"], top=e["top"], parent=parents.get(cid))
        for cid, e in found.items()
    }
    return out


def leiden(store: GraphStore, layer: str, config: CommunityConfig) -> list[dict]:
    """Leiden on the concept layer, every level it went through (finest first), per concept
    still in play, in the stream's order. One thread and a seed make the same graph give the
    same partition, so an unchanged graph costs no report."""
    with calls(store):
        found = gds(store).leiden.stream(
            graph(store, layer),
            relationship_weight_property="weight",
            include_intermediate_communities=True,
            random_seed=config.seed,
            concurrency=1,
            max_levels=config.max_levels,
            gamma=config.gamma,
        )
    if found.empty:
        return []
    concepts = {r["node_id"]: r["id"] for r in store.query(cypher.CONCEPTS_IN_PLAY, node_ids=found["nodeId"].tolist())}
    return [
        {"id": concepts[node], "levels": list(levels) if levels is not None else [community]}
        for node, community, levels in zip(
            *(found[c].tolist() for c in ("nodeId", "communityId", "intermediateCommunityIds"))
        )
        if node in concepts
    ]


def detect(store: GraphStore, layer: str, config: CommunityConfig) -> Partition:
    return partition(leiden(store, layer, config), config.min_size)
