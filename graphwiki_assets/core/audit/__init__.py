"""The append-only audit log: what was done to the graph or asked of it, by whom, when."""

from graphwiki_assets.core.audit.log import ACTIONS, Entry, append, append_in, read_entries

__all__ = ["ACTIONS", "Entry", "append", "append_in", "read_entries"]
