"""The export's record of what it wrote (``.graphwiki-manifest.json`` in the wiki folder):
per concept its page name, the page and picture files and what they held. A file it does
not list is not the export's, and the export never writes over, moves or deletes it."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path, PurePosixPath

from pydantic import BaseModel, Field, ValidationError, field_validator

MANIFEST = ".graphwiki-manifest.json"
PAGES = "concepts"  # pages sit in their own folder: index.md and log.md, and a person's notes, beside them
PICTURES = "concepts/images"


class WikiError(Exception):
    """The wiki folder cannot be exported to as it is; the message says why and what to do."""


def _inside(path: str | None) -> str | None:
    """A manifest path must name a file under the pages folder (it is read from disk, so an
    edited manifest must not point the export at a file elsewhere)."""
    if path is None:
        return None
    pure = PurePosixPath(path)
    if pure.is_absolute() or ".." in pure.parts or pure.parts[:1] != (PAGES,) or pure.suffix not in (".md", ".png"):
        raise ValueError(f"{path!r} is not a page or picture under {PAGES}/")
    return path


class PageEntry(BaseModel):
    id: str
    name: str
    type: str | None = None
    stem: str
    page: str
    sha256: str
    picture: str | None = None
    picture_key: str | None = None

    @field_validator("page", "picture")
    @classmethod
    def _under_pages(cls, value: str | None) -> str | None:
        return _inside(value)

    def files(self) -> list[str]:
        return [self.page, *([self.picture] if self.picture else [])]


class Manifest(BaseModel):
    version: int = 1
    pages: dict[str, PageEntry] = Field(default_factory=dict)
    # files an export is about to write, listed first: one lost to a crash midway is still
    # known as the export's, not taken for a person's note
    pending: list[str] = Field(default_factory=list)

    @field_validator("pending")
    @classmethod
    def _pending_under_pages(cls, value: list[str]) -> list[str]:
        return [p for p in value if _inside(p)]

    def owned(self) -> set[str]:
        return {f for entry in self.pages.values() for f in entry.files()} | set(self.pending)


def read_manifest(folder: Path) -> Manifest:
    path = folder / MANIFEST
    if not path.exists():
        return Manifest()
    try:
        return Manifest.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except (ValueError, ValidationError) as exc:
        raise WikiError(
            f"{path} is not a wiki manifest this export can read ({exc.__class__.__name__}: "
            f"{str(exc).splitlines()[0]}). Nothing was written. Remove it to export afresh: the pages it "
            f"listed then count as files of your own and are left in place."
        ) from None


def write_manifest(folder: Path, manifest: Manifest) -> None:
    write_atomically(folder / MANIFEST, (manifest.model_dump_json(indent=1) + "\n").encode("utf-8"))


def write_atomically(path: Path, data: bytes) -> None:
    """The whole file or the old one: a reader (Obsidian, a sync tool) never sees half a page."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".graphwiki-", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def foreign_stems(folder: Path, owned: set[str]) -> set[str]:
    """The names of notes and pictures in the folder the export did not write: a page may
    not take one (Obsidian would not know which ``[[name]]`` means). Hidden folders
    (``.obsidian``, ``.git``) hold no notes."""
    if not folder.exists():
        return set()
    stems = set()
    for path in folder.rglob("*"):
        rel = path.relative_to(folder)
        if any(part.startswith(".") for part in rel.parts) or not path.is_file():
            continue
        if path.suffix == ".md" or (path.suffix == ".png" and rel.parent.as_posix() == PICTURES):
            if rel.as_posix() not in owned:
                stems.add(path.stem)
    return stems
