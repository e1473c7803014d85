"""The command line's last word on a failure: one line, and a lost Neo4j connection named as
such with what to do, even when it reached the top outside the store's own calls."""

from __future__ import annotations

from neo4j.exceptions import ServiceUnavailable, SessionExpired

from graphwiki_assets.cli.main import _clear
from graphwiki_assets.core.store.driver import GraphUnavailable


def test_a_lost_connection_that_escaped_the_store_still_names_neo4j_and_what_to_do(monkeypatch):
    monkeypatch.setenv("NEO4J_URI", "bolt://127.0.0.1:7999")
    for raw in (ServiceUnavailable("Failed to establish connection (Connection refused)"), SessionExpired("gone")):
        clear = _clear(raw)
        assert isinstance(clear, GraphUnavailable)
        assert "Neo4j at bolt://127.0.0.1:7999" in str(clear) and "graphwiki neo4j start" in str(clear)


def test_other_failures_are_left_as_they_are():
    other = ValueError("the config file has no 'types'")
    assert _clear(other) is other
