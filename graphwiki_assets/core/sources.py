"""Reading source files: what counts as a source, and clear refusals for bad input.

A refusal is a ``SourceRejected`` carrying the reason; the caller skips that one source
and records why, so one bad file never stops the others.
"""

from __future__ import annotations

import datetime as dt
import errno
import hashlib
import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from graphwiki_assets.core.documents import (
    SOURCE_SUFFIXES,
    TEXT,
    DocumentUnreadable,
    document_text,
    format_of,
    is_binary,
    read_binary,
    read_document,
)
from graphwiki_assets.core.documents.dates import OPENING_PASSAGES, document_date, source_date
from graphwiki_assets.core.documents.model import Document
from graphwiki_assets.core.settings import DEFAULT_MAX_SOURCE_BYTES

__all__ = ["SOURCE_SUFFIXES", "SourceDocument", "SourceRejected", "collect", "discover", "read_source"]
DEFAULT_MAX_BYTES = DEFAULT_MAX_SOURCE_BYTES
EMPTY = "empty file (nothing to ingest)"
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)


class SourceRejected(ValueError):
    """The file is not ingestible; ``reason`` says why in one line."""

    def __init__(self, path: str, reason: str, unread: bool = False):
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason
        self.unread = unread  # a file in a folder that no reader takes: reported, never an error


@dataclass(frozen=True)
class SourceDocument:
    path: str
    title: str
    text: str
    sha256: str
    # The date the source gives itself and where it came from ("front_matter", "file_name",
    # "file_time", or "" when unknown): see core/documents/dates.py.
    date: dt.date | None = None
    date_source: str = ""
    format: str = TEXT  # the reader its text is read with (core/documents): "markdown", "html", "text"
    modified: float | None = field(default=None, compare=False)  # the file's time when read
    # What the reader made of the text (``read``); None until then. Not part of its identity.
    document: Document | None = field(default=None, compare=False, repr=False)

    @property
    def source_id(self) -> str:
        # Content-addressed: the same bytes are the same Source wherever they live.
        return f"src-{self.sha256[:16]}"


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def title_of(text: str, fallback: str) -> str:
    match = _HEADING.search(text[:4000])
    if match:
        return match.group(1).strip()
    return fallback


def decode_text(raw: bytes, path: str) -> str:
    if not raw.strip():
        raise SourceRejected(path, EMPTY)
    sample = raw[:65536]
    if b"\x00" in sample:
        raise SourceRejected(path, "binary file (contains NUL bytes); only plain text is ingested")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SourceRejected(
            path, f"not valid UTF-8 (byte {exc.start}: {raw[exc.start : exc.start + 1]!r}); convert it to UTF-8 first"
        ) from exc
    controls = sum(1 for ch in text[:65536] if ord(ch) < 32 and ch not in "\n\r\t\f")
    if controls > 0.05 * min(len(text), 65536):
        raise SourceRejected(path, "looks binary (too many control characters)")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def read_source(
    path: Path, max_bytes: int = DEFAULT_MAX_BYTES, display: str | None = None, parse: bool = True
) -> SourceDocument:
    """A source file checked, decoded and hashed; with ``parse``, also read by its format's
    reader (``parsed``). Triage needs only the hash, so the ingest parses after it: an
    unchanged file is never parsed."""
    name = display or str(path)
    try:
        stat = path.stat()
        size = stat.st_size
    except FileNotFoundError as exc:
        raise SourceRejected(name, "file no longer exists (deleted or moved after it was discovered)") from exc
    except OSError as exc:  # a symlink loop, an unreadable folder on the way
        raise SourceRejected(name, f"cannot be read: {exc.strerror or exc}") from exc
    if path.is_dir():
        raise SourceRejected(name, "is a directory")
    if size > max_bytes:
        raise SourceRejected(
            name,
            f"too large ({size / 1e6:.1f} MB > {max_bytes / 1e6:.1f} MB limit): split it, or raise the limit "
            "with GRAPHWIKI_MAX_SOURCE_BYTES",
        )
    try:
        raw = path.read_bytes()
    except FileNotFoundError as exc:
        raise SourceRejected(name, "file no longer exists (deleted or moved after it was discovered)") from exc
    except OSError as exc:
        raise SourceRejected(name, f"cannot be read: {exc.strerror or exc}") from exc
    fmt = format_of(path.suffix)
    if is_binary(fmt):
        return _read_binary(raw, fmt, name, path, stat.st_mtime)
    text = decode_text(raw, name)
    doc = SourceDocument(
        path=name,
        title=title_of(text, path.stem) if fmt == TEXT else path.stem,
        text=text,
        sha256=sha256_text(text),
        format=fmt,
        modified=stat.st_mtime,
    )
    return parsed(doc) if parse else doc


def _read_binary(raw: bytes, fmt: str, name: str, path: Path, modified: float) -> SourceDocument:
    """A PDF or Word file, read by its reader at once: its text is what the reader finds,
    and the source is addressed by that text as any other is (a file saved again with the
    same text is the same source; the lint's drift check holds for it too)."""
    if not raw.strip():
        raise SourceRejected(name, EMPTY)
    try:
        document = read_binary(raw, fmt)
    except DocumentUnreadable as exc:
        raise SourceRejected(name, str(exc)) from exc
    opening = [document.title, *(p.text for p in document.passages[:OPENING_PASSAGES])]
    date, date_source = document_date(document.metadata, opening, name, modified)
    text = document_text(document)
    return SourceDocument(
        path=name,
        title=document.title or path.stem,
        text=text,
        sha256=sha256_text(text),
        date=date,
        date_source=date_source,
        format=fmt,
        modified=modified,
        document=document,
    )


def parsed(doc: SourceDocument) -> SourceDocument:
    """The document as its format's reader reads it: the reading kept for extraction, the
    title it names (front matter, first heading, ``<h1>``), and its date (front matter, file
    name, file time; a date already given is kept)."""
    if doc.document is not None:
        return doc
    document = read_document(doc.text, doc.format)
    date, date_source = (
        (doc.date, doc.date_source) if doc.date_source else source_date(document.metadata, doc.path, doc.modified)
    )
    title = document.title if doc.format != TEXT and document.title else doc.title
    return replace(doc, title=title, date=date, date_source=date_source, document=document)


def collect(paths: list[Path]) -> tuple[list[Path], list[SourceRejected], set[str]]:
    """The files to ingest from paths named by a user (files, or folders searched with
    ``discover``), the named paths that cannot be used and why, and which files were named
    themselves (a named file that fails is the user's business; a bad file found inside a
    folder is only reported)."""
    files: list[Path] = []
    refused: list[SourceRejected] = []
    named: set[str] = set()
    for path in paths:
        try:
            is_dir = path.is_dir()
            exists = is_dir or path.exists()
        except OSError as exc:  # a symlink loop, a path through an unreadable folder
            refused.append(SourceRejected(str(path), f"cannot be read: {exc.strerror or exc}"))
            continue
        if not exists:
            refused.append(SourceRejected(str(path), _missing(path)))
        elif is_dir:
            try:
                next(iter(path.iterdir()), None)
            except OSError as exc:
                refused.append(SourceRejected(str(path), f"folder cannot be read: {exc.strerror or exc}"))
                continue
            readable, unreadable = sort_out(path)
            files.extend(readable)
            refused.extend(
                SourceRejected(str(p), f"no reader takes {p.suffix or 'files without a suffix'} files", unread=True)
                for p in unreadable
            )
        else:
            files.append(path)
            named.add(str(path))
    return files, refused, named


def _missing(path: Path) -> str:
    if not path.is_symlink():
        return "no such file or folder"
    try:
        os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "symbolic link loop (the link points back to itself)"
    return "broken symbolic link (its target does not exist)"


def discover(folder: Path) -> list[Path]:
    """Ingestible files under a folder, sorted, hidden files and folders skipped."""
    return sort_out(folder)[0]


def sort_out(folder: Path) -> tuple[list[Path], list[Path]]:
    """The visible files under a folder, sorted, in one walk: those a reader takes, and those
    none takes (an image, a spreadsheet), which the ingest names in its report instead of
    passing over them in silence."""
    read: list[Path] = []
    unread: list[Path] = []
    for path in _visible_files(folder):
        (read if path.suffix.lower() in SOURCE_SUFFIXES else unread).append(path)
    return read, unread


def _visible_files(folder: Path) -> list[Path]:
    if not folder.exists():
        return []
    found = []
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if any(part.startswith(".") for part in rel.parts):
            continue
        if path.is_file():
            found.append(path)
    return found


def partition_key(path: Path, folder: Path) -> str:
    """A stable, readable partition key: the path relative to the sources folder."""
    try:
        return path.resolve().relative_to(folder.resolve()).as_posix()
    except ValueError:
        return path.resolve().as_posix()
