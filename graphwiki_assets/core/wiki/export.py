"""The wiki export: a page per corroborated concept, its picture, and the index, written
into a folder only where something changed.

A page is rewritten when its rendered text differs from the file's, a picture when what it
shows differs (a hash in the manifest), so an export over an unchanged graph writes no page.
A page whose concept no longer qualifies (merged away, superseded, no longer corroborated)
is removed; files the export did not write are never touched (core/wiki/manifest.py)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from graphwiki_assets.core.concepts import ConceptCard, concept_cards
from graphwiki_assets.core.config import SchemaConfig
from graphwiki_assets.core.overview import INDEX_TITLE, LOG_TITLE, build_overview, write_index
from graphwiki_assets.core.processes import file_lock
from graphwiki_assets.core.store.driver import GraphStore
from graphwiki_assets.core.store.schema import AWAITING_CORROBORATION
from graphwiki_assets.core.wiki import cypher
from graphwiki_assets.core.wiki.index import pages_section
from graphwiki_assets.core.wiki.manifest import (
    PAGES,
    PICTURES,
    Manifest,
    PageEntry,
    WikiError,
    foreign_stems,
    read_manifest,
    write_atomically,
    write_manifest,
)
from graphwiki_assets.core.wiki.names import Named, assign_stems
from graphwiki_assets.core.wiki.page import render_page
from graphwiki_assets.core.wiki.picture import draw_neighbourhood, picture_key

CARDS_PER_QUERY = 200
LOCK = ".graphwiki-export.lock"


@dataclass
class ExportReport:
    folder: Path
    pages: int = 0
    unchanged: int = 0
    written: list[dict] = field(default_factory=list)  # {page, concept, change: new | changed}
    removed: list[dict] = field(default_factory=list)  # {page, concept, change: removed}
    pictures: int = 0  # pictures drawn and written

    def counts(self) -> dict[str, int]:
        return {
            "pages": self.pages,
            "written": len(self.written),
            "unchanged": self.unchanged,
            "removed": len(self.removed),
            "pictures_written": self.pictures,
        }

    def changes(self) -> list[dict]:
        return self.written + self.removed

    def as_dict(self) -> dict:
        return {"folder": str(self.folder), **self.counts(), "changes": self.changes()}


def export_wiki(store: GraphStore, config: SchemaConfig, folder: Path, pictures: bool = True) -> ExportReport:
    """Bring ``folder`` up to date with the graph: pages, pictures, index.md and log.md.
    One export at a time per folder (the asset after an ingest and a command may overlap):
    each reads the manifest the one before it wrote."""
    folder = Path(folder)
    with file_lock(folder / LOCK):
        return _export(store, config, folder, pictures)


def _export(store: GraphStore, config: SchemaConfig, folder: Path, pictures: bool) -> ExportReport:
    # an unreadable manifest, or a note of one's own where the index goes, stops the export
    # before it writes anything
    old = read_manifest(folder)
    _check_index_is_ours(folder)
    rows = store.query(cypher.PAGE_CONCEPTS, awaiting=AWAITING_CORROBORATION)
    concepts = [Named(id=r["id"], name=r["name"] or r["id"], type=r["type"], weight=r["weight"]) for r in rows]
    stems = assign_stems(concepts, {e.id: e.stem for e in old.pages.values()}, foreign_stems(folder, old.owned()))
    planned = [f for stem in stems.values() for f in (page_file(stem), picture_file(stem))]
    write_manifest(folder, old.model_copy(update={"pending": sorted(old.owned() | set(planned))}))
    report = ExportReport(folder=folder, pages=len(stems))
    new = Manifest()
    ids = sorted(stems)
    for start in range(0, len(ids), CARDS_PER_QUERY):
        for card in concept_cards(store, ids[start : start + CARDS_PER_QUERY]):
            new.pages[card.id] = _write_page(folder, card, stems, old.pages.get(card.id), pictures, report)
    _remove_stale(folder, old, new, report)
    write_manifest(folder, new)
    write_index(store, build_overview(store, config), folder, pages=pages_section(new))
    return report


def _check_index_is_ours(folder: Path) -> None:
    """index.md and log.md are rewritten by every export: only when absent or written by one."""
    for name, title in (("index.md", INDEX_TITLE), ("log.md", LOG_TITLE)):
        path = folder / name
        if not path.is_file():
            continue
        with path.open(encoding="utf-8", errors="replace") as text:
            first = text.readline().rstrip("\n")
        if first != title:
            raise WikiError(
                f"{path} was not written by graphwiki (its first line is not {title!r}) and the export writes "
                f"its {name} there. Nothing was written: move that file, or export to another folder."
            )


def page_file(stem: str) -> str:
    return f"{PAGES}/{stem}.md"


def picture_file(stem: str) -> str:
    return f"{PICTURES}/{stem}.png"


def _write_page(
    folder: Path,
    card: ConceptCard,
    stems: dict[str, str],
    before: PageEntry | None,
    pictures: bool,
    report: ExportReport,
) -> PageEntry:
    stem = stems[card.id]
    key = picture_key(card, stems) if pictures else None
    picture = picture_file(stem) if key else None
    if picture:
        target = folder / picture
        if not (before and before.picture == picture and before.picture_key == key and target.exists()):
            write_atomically(target, draw_neighbourhood(card, stems))
            report.pictures += 1
    # the page links its picture relative to itself (both under PAGES)
    text = render_page(card, stems, picture.removeprefix(f"{PAGES}/") if picture else None)
    data = text.encode("utf-8")
    page = folder / page_file(stem)
    if page.exists() and page.read_bytes() == data:
        report.unchanged += 1
    else:
        change = "changed" if before and before.page == page_file(stem) else "new"
        write_atomically(page, data)
        report.written.append({"page": stem, "concept": card.id, "change": change})
    return PageEntry(
        id=card.id,
        name=card.name,
        type=card.type,
        stem=stem,
        page=page_file(stem),
        sha256=hashlib.sha256(data).hexdigest(),
        picture=picture,
        picture_key=key,
    )


def _remove_stale(folder: Path, old: Manifest, new: Manifest, report: ExportReport) -> None:
    """Delete the files earlier exports wrote that this one did not: the pages of concepts
    that no longer qualify, a page's old name after a rename, a picture no longer drawn."""
    keep = new.owned()
    for entry in old.pages.values():
        stale = [f for f in entry.files() if f not in keep]
        for name in stale:
            (folder / name).unlink(missing_ok=True)
        if entry.page in stale:
            report.removed.append({"page": entry.stem, "concept": entry.id, "change": "removed"})
    for name in set(old.pending) - keep:
        (folder / name).unlink(missing_ok=True)
