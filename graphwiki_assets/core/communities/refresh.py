"""Bring the communities up to date with the graph: detect, store, report what is new.

Run after the projection is refreshed (the ``communities`` asset depends on it; the CLI
refreshes a stale projection itself). Communities are known by their members: one that
Leiden finds again keeps its node and its report, one it no longer finds is deleted with its
membership edges, and only communities without a report cost LLM calls. Reports that fail
leave their communities unreported; the next run asks again.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

from graphwiki_assets.core.communities import cypher
from graphwiki_assets.core.communities.detect import CommunityConfig, Partition, detect
from graphwiki_assets.core.communities.reports import write_reports
from graphwiki_assets.core.embeddings import vector_model_name
from graphwiki_assets.core.query.projection import concept_layer, projection_status, with_projection
from graphwiki_assets.core.query.upkeep import rebuild_projection
from graphwiki_assets.core.store.driver import GraphStore
from graphwiki_assets.core.store.schema import ensure_schema


class CommunityReportsFailed(RuntimeError):
    """Some communities were left without a report (their LLM calls failed)."""


@dataclass
class CommunityRun:
    concepts: int = 0  # concepts Leiden placed
    covered: int = 0  # of them, in a top-level community of at least the minimum size
    levels: int = 0
    communities: int = 0
    top: int = 0
    new: int = 0
    kept: int = 0
    dropped: int = 0
    reported: int = 0
    failed: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    llm_calls: int = 0
    prompt_tokens: int = 0
    seconds: float = 0.0
    top_sizes: list[int] = field(default_factory=list)

    def as_dict(self) -> dict:
        return asdict(self)

    def raise_for_failures(self) -> None:
        if self.failed:
            raise CommunityReportsFailed(
                f"{len(self.failed)} of {self.communities} communities have no report (their LLM calls failed: "
                f"{'; '.join(self.errors[:3]) or 'no report returned'}); run again to ask for them"
            )


def _placed(store: GraphStore, config: CommunityConfig) -> Partition:
    def on(layer: dict) -> Partition:
        if not layer.get("nodes"):
            return Partition()
        return detect(store, layer["name"], config)

    return with_projection(store, on, concept_layer())


def refresh_communities(
    store: GraphStore,
    embedder,
    llm,
    config: CommunityConfig = CommunityConfig(),
    log: Callable[[str], None] = lambda msg: None,
) -> CommunityRun:
    started = time.monotonic()
    ensure_schema(store, embedder.dimension, vector_model_name(embedder))
    status = projection_status(store)
    if not status.exists or status.stale:
        log("the projection is missing or behind the graph: rebuilding it first")
        rebuild_projection(store)
    found = _placed(store, config)
    existing = {r["id"]: r["reported"] for r in store.query(cypher.EXISTING)}
    communities = list(found.communities.values())
    new = [c for c in communities if c.id not in existing]
    rows = [{"id": c.id, "size": c.size, "level": c.level, "top": c.top, "members": list(c.members)} for c in new]
    for i in range(0, len(rows), 500):
        store.query(cypher.WRITE, communities=rows[i : i + 500])
    store.query(
        cypher.PLACES,
        communities=[{"id": c.id, "level": c.level, "top": c.top} for c in communities if c.id in existing],
    )
    dropped = store.query(cypher.DROP_STALE, keep=[c.id for c in communities])[0]["dropped"]
    store.query(cypher.LINK_PARENTS, links=[{"child": c.id, "parent": c.parent} for c in communities if c.parent])
    unreported = [c.id for c in sorted(communities, key=lambda c: (-c.size, c.id)) if not existing.get(c.id, False)]
    log(f"{len(communities)} communities ({len(new)} new, {dropped} gone); {len(unreported)} to report")
    before = llm.usage.snapshot()
    reports = write_reports(store, embedder, llm, unreported, config)
    used = llm.usage.snapshot() - before
    return CommunityRun(
        concepts=found.concepts,
        covered=found.covered(),
        levels=found.levels,
        communities=len(communities),
        top=sum(c.top for c in communities),
        new=len(new),
        kept=len(communities) - len(new),
        dropped=dropped,
        reported=reports.written,
        failed=reports.failed,
        errors=reports.errors,
        llm_calls=used.calls,
        prompt_tokens=used.prompt_tokens,
        seconds=round(time.monotonic() - started, 2),
        top_sizes=sorted((c.size for c in communities if c.top), reverse=True),
    )


def list_communities(store: GraphStore) -> list[dict]:
    """Every stored community, top-level ones first, largest first."""
    return store.query(cypher.LIST)
