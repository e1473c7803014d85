"""The verify gates: blocking checks run right after a source is committed."""

from __future__ import annotations

import dagster as dg

from graphwiki_assets.core.lint.verify import GATES, gate_description, verify_graph
from graphwiki_assets.core.store.driver import GraphStore

VERIFY_SPECS = [
    dg.AssetCheckSpec(name=name, asset="claim_links", description=gate_description(name), blocking=True)
    for name in GATES
]


def verify_results(store: GraphStore, source_ids: list[str] | None = None):
    """The gates over the whole graph; re-hashing texts is limited to the sources just written."""
    for result in verify_graph(store, source_ids=source_ids):
        yield dg.AssetCheckResult(
            check_name=result.name,
            passed=result.count == 0,
            severity=dg.AssetCheckSeverity.ERROR,
            metadata={"violations": result.count, "examples": dg.MetadataValue.json(list(result.offending)[:20])},
        )
