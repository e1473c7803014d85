"""SHA256 drift, two kinds:

* stored text vs hash: a Source's ``text`` no longer hashes to its ``sha256`` (the
  immutable text was edited in place; corruption, a hard gate);
* file on disk vs its latest Source: the file changed since it was ingested, so what
  derived from that version needs review until it is re-ingested (flagged by
  ``core/review/impact.py``).

Hashing uses the ingest's own reader, so "same text" means the same thing on both sides.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from graphwiki_assets.core.lint import cypher
from graphwiki_assets.core.sources import SourceRejected, read_source, sha256_text
from graphwiki_assets.core.store.driver import GraphStore

PAGE = 500  # source texts fetched per round trip, so a large corpus never sits in memory at once


@dataclass(frozen=True)
class Drift:
    source_id: str
    path: str | None
    problem: str
    stored_sha256: str | None
    found_sha256: str | None = None
    dependents: int = 0

    def as_row(self) -> dict:
        return {
            "id": self.source_id,
            "path": self.path,
            "problem": self.problem,
            "stored_sha256": (self.stored_sha256 or "")[:12],
            "found_sha256": (self.found_sha256 or "")[:12],
            "dependents": self.dependents,
        }


@dataclass
class FileScan:
    checked: int = 0
    drifted: list[Drift] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # paths not found on disk


def text_drift(store: GraphStore, source_ids: Sequence[str] | None = None) -> tuple[int, list[Drift]]:
    """(sources checked, those whose text does not hash to their sha256)."""
    checked, drifted, after = 0, [], ""
    ids = list(source_ids) if source_ids is not None else None
    while True:
        page = store.query(cypher.SOURCE_TEXTS_PAGE, after=after, ids=ids, page=PAGE)
        for row in page:
            checked += 1
            found = sha256_text(row["text"]) if isinstance(row["text"], str) else None
            if found != row["sha256"]:
                problem = "text missing" if found is None else "text does not match sha256"
                drifted.append(Drift(row["id"], row["path"], problem, row["sha256"], found))
        if len(page) < PAGE:
            return checked, drifted
        after = page[-1]["id"]


def locate(path: str, sources_dir: Path | None) -> Path | None:
    """A Source path is absolute, relative to the sources folder (Dagster) or to the cwd (CLI)."""
    candidates = (
        [Path(path)] if Path(path).is_absolute() else ([sources_dir / path] if sources_dir else []) + [Path(path)]
    )
    return next((p for p in candidates if p.is_file()), None)


def file_drift(store: GraphStore, sources_dir: Path | None = None) -> FileScan:
    scan = FileScan()
    for row in store.query(cypher.LATEST_SOURCE_PER_PATH):
        found = locate(row["path"], Path(sources_dir) if sources_dir else None)
        if found is None:
            scan.missing.append(row["path"])
            continue
        scan.checked += 1
        try:
            sha, problem = read_source(found, parse=False).sha256, "file changed since ingest"
        except SourceRejected as exc:
            sha, problem = None, f"file unreadable: {exc.reason}"
        if sha != row["sha256"]:
            scan.drifted.append(Drift(row["id"], row["path"], problem, row["sha256"], sha, row["dependents"]))
    return scan
