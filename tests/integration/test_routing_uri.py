"""A routing URI (`neo4j://`, as a Neo4j cluster or Aura is addressed) works with graphwiki's store.

A single server answers the routing table with itself in every role, so the driver that a
cluster would use, and graphwiki's write and read transactions through it, run here for real.
"""

from __future__ import annotations

from dataclasses import replace
from urllib.parse import urlsplit

from neo4j import Neo4jDriver

from graphwiki_assets.core.audit.log import Entry, append, read_entries
from graphwiki_assets.core.store.driver import GraphStore


def _routing(settings):
    address = urlsplit(settings.neo4j.uri).netloc
    return replace(settings.neo4j, uri=f"neo4j://{address}")


def test_a_write_and_reads_go_through_a_routing_driver(settings, store):
    with GraphStore(_routing(settings)) as routed:
        assert isinstance(routed.driver, Neo4jDriver)  # routing, not a direct Bolt driver
        entry = Entry(action="lint", actor="routing-test", summary="written through neo4j://")
        append(routed, entry)  # a write transaction: the routing table's writer
        with routed.reading() as reader:  # a read transaction: a reader (a follower in a cluster)
            seen = read_entries(reader, action="lint")
        assert [e.id for e in seen] == [entry.id]
        assert [e.summary for e in read_entries(routed, action="lint")] == ["written through neo4j://"]
    # the direct connection the rest of the suite uses sees the same committed entry
    assert [e.id for e in read_entries(store, action="lint")] == [entry.id]
