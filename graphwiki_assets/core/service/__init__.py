"""The query side and source intake as one long-lived object: what ``graphwiki serve``
(HTTP), ``graphwiki mcp`` (Model Context Protocol) and the CLI call. Models are loaded
once per process; every operation takes a typed request and returns plain data."""

from graphwiki_assets.core.service.requests import UNAVAILABLE, AddSource, AskRequest, BadRequest, NotFound
from graphwiki_assets.core.service.workspace import Workspace

__all__ = ["UNAVAILABLE", "AddSource", "AskRequest", "BadRequest", "NotFound", "Workspace"]
