"""The wiki: one markdown page per corroborated concept (summary with citations, claims
with status, related concepts as ``[[links]]``, sources with dates, a picture of its
neighbourhood) plus the index, for Obsidian or any markdown viewer; rewritten only where
the graph changed."""

from graphwiki_assets.core.wiki.export import ExportReport, export_wiki
from graphwiki_assets.core.wiki.index import index_pages
from graphwiki_assets.core.wiki.manifest import WikiError

__all__ = ["ExportReport", "WikiError", "export_wiki", "index_pages"]
