"""The index's list of pages: every page the last export wrote, by type, as ``[[links]]``."""

from __future__ import annotations

from itertools import groupby
from pathlib import Path

from graphwiki_assets.core.wiki.manifest import Manifest, WikiError, read_manifest
from graphwiki_assets.core.wiki.markup import inline, wiki_link
from graphwiki_assets.core.wiki.names import shown_as


def pages_section(manifest: Manifest) -> str:
    """Markdown listing every page, grouped by type (largest group first); empty with no page."""
    if not manifest.pages:
        return ""
    entries = sorted(manifest.pages.values(), key=lambda e: (e.type or "Concept", e.name.casefold(), e.id))
    groups = [(kind, list(group)) for kind, group in groupby(entries, key=lambda e: e.type or "Concept")]
    groups.sort(key=lambda g: (-len(g[1]), g[0]))
    lines = ["## Pages", "", f"_{len(entries)} concept pages, by type._", ""]
    for kind, group in groups:
        lines += [f"### {inline(kind)} ({len(group)})", ""]
        lines += [f"- {wiki_link(e.stem, shown_as(e.name, e.stem))}" for e in group]
        lines.append("")
    return "\n".join(lines)


def index_pages(folder: Path) -> str:
    """The pages section for the index in ``folder``, from its manifest (empty before the
    first export). An unreadable manifest says so in the index and stops nothing else: the
    overview does not depend on the pages."""
    try:
        return pages_section(read_manifest(folder))
    except WikiError as exc:
        return f"## Pages\n\n_The list of pages is unavailable: {inline(str(exc))}_\n"
