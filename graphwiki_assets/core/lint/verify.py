"""The verify gates: the hard subset of lint that must hold after every ingest commit.

Called by the ingest's blocking asset checks; each result passes when its count is 0.
"""

from __future__ import annotations

from typing import Sequence

from graphwiki_assets.core.lint import checks
from graphwiki_assets.core.lint.checks import CheckResult
from graphwiki_assets.core.store.driver import GraphStore

GATES = ("provenance_complete", "no_dangling_references", "disputed_iff_contradicted", "source_text_unchanged")


def verify_graph(store: GraphStore, source_ids: Sequence[str] | None = None) -> list[CheckResult]:
    """All gates over the whole graph; ``source_ids`` limits the text re-hash (the only costly
    gate: it reads every text) to the sources just written."""
    return [
        checks.provenance_complete(store),
        checks.no_dangling_references(store),
        checks.disputed_iff_contradicted(store),
        checks.source_text_unchanged(store, source_ids=source_ids),
    ]
