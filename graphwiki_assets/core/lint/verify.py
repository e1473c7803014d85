"""The verify gates: the hard subset of lint that must hold after every ingest commit.

Called by the ingest's blocking asset checks; each result passes when its count is 0. A
gate is a lint check: its name and description are the check's (``checks.CHECKS``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from graphwiki_assets.core.lint import checks
from graphwiki_assets.core.lint.checks import CheckResult
from graphwiki_assets.core.store.driver import GraphStore

# Each gate and how it runs; only the text re-hash takes the sources just written.
_RUNS: dict[str, Callable[[GraphStore, Sequence[str] | None], CheckResult]] = {
    "provenance_complete": lambda store, _ids: checks.provenance_complete(store),
    "no_dangling_references": lambda store, _ids: checks.no_dangling_references(store),
    "disputed_iff_contradicted": lambda store, _ids: checks.disputed_iff_contradicted(store),
    "source_text_unchanged": lambda store, ids: checks.source_text_unchanged(store, source_ids=ids),
}
GATES = tuple(_RUNS)


def gate_description(name: str) -> str:
    return checks.CHECKS[name][1]


def verify_graph(store: GraphStore, source_ids: Sequence[str] | None = None) -> list[CheckResult]:
    """All gates over the whole graph; ``source_ids`` limits the text re-hash (the only costly
    gate: it reads every text) to the sources just written."""
    return [run(store, source_ids) for run in _RUNS.values()]
