"""The wiki's front page: what the graph knows by type, what is new, disputed, to review, missing."""

from graphwiki_assets.core.overview.build import (
    INDEX_TITLE,
    LOG_TITLE,
    Overview,
    build_overview,
    write_index,
    write_wiki,
)

__all__ = ["INDEX_TITLE", "LOG_TITLE", "Overview", "build_overview", "write_index", "write_wiki"]
