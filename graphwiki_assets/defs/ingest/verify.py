"""The verify gates: blocking checks run right after a source is committed."""

from __future__ import annotations

import dagster as dg

from graphwiki_assets.core.store.driver import GraphStore

GATES = {
    "provenance_complete": "every Concept and Claim has a DERIVED_FROM to a Source",
    "no_dangling_references": "no judgment, merge or relationship points at a missing or wrong node",
    "disputed_iff_contradicted": "a claim is disputed exactly when it has an open CONTRADICTS",
    "source_text_unchanged": "every Source's text still hashes to its sha256",
}

VERIFY_SPECS = [
    dg.AssetCheckSpec(name=name, asset="claim_links", description=text, blocking=True)
    for name, text in GATES.items()
]


def verify_results(store: GraphStore, source_ids: list[str] | None = None):
    """The gates over the whole graph; re-hashing texts is limited to the sources just written."""
    from graphwiki_assets.core.lint.verify import verify_graph

    results = {r.name: r for r in verify_graph(store, source_ids=source_ids)}
    for name in GATES:
        result = results.get(name)
        if result is None:
            yield dg.AssetCheckResult(check_name=name, passed=False, severity=dg.AssetCheckSeverity.ERROR,
                                      metadata={"error": "gate not implemented by core.lint.verify"})
            continue
        yield dg.AssetCheckResult(
            check_name=name, passed=result.count == 0, severity=dg.AssetCheckSeverity.ERROR,
            metadata={"violations": result.count, "examples": dg.MetadataValue.json(list(result.offending)[:20])},
        )
