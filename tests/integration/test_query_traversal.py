"""'What is X': claims come by distance, and a level too far to reach the answer is not read."""

from __future__ import annotations

from graphwiki_assets.core.query import cypher
from graphwiki_assets.core.query.models import QueryOptions
from graphwiki_assets.core.query.subgraph import claims_about
from graphwiki_assets.core.query.traversal import claims_by_distance

# x -- n1 -- m (two hops), x -- n2; each concept has claims of its own
GRAPH = """
UNWIND $concepts AS c
CREATE (:Concept {id: c, name: c, type: 'Concept', status: 'current'})
WITH count(*) AS made
UNWIND $edges AS e
MATCH (a:Concept {id: e[0]}), (b:Concept {id: e[1]})
CREATE (a)-[:RELATED_TO {weight: 1}]->(b)
WITH count(*) AS linked
UNWIND $claims AS cl
MATCH (c:Concept {id: cl[1]})
CREATE (:Claim {id: cl[0], text: cl[0], status: 'current'})-[:ABOUT]->(c)
"""
LEVEL = {"x": 0, "n1": 1, "n2": 1, "m": 2}


class CountingReads:
    """The real store, with the concepts each CLAIMS_ABOUT read asked for."""

    def __init__(self, store):
        self.store, self.asked = store, []

    def query(self, statement, **params):
        if statement == cypher.CLAIMS_ABOUT:
            self.asked.append({c["id"] for c in params["concepts"]})
        return self.store.query(statement, **params)


def _graph(store):
    store.query(
        GRAPH,
        concepts=list(LEVEL),
        edges=[["x", "n1"], ["x", "n2"], ["n1", "m"]],
        claims=[["cl-x1", "x"], ["cl-x2", "x"], ["cl-n1", "n1"], ["cl-n2", "n2"], ["cl-m", "m"]],
    )


def test_when_the_entity_and_its_neighbours_fill_the_answer_the_next_hop_is_not_read(store, embedder):
    _graph(store)
    reads = CountingReads(store)
    claims = claims_by_distance(reads, embedder.encode_one("What is x?"), LEVEL, QueryOptions(max_facts=3))
    assert claims[:2] == ["cl-x1", "cl-x2"] and set(claims) == {"cl-x1", "cl-x2", "cl-n1", "cl-n2"}
    assert reads.asked == [{"x", "n1", "n2"}]


def test_when_they_fall_short_the_next_hop_is_read_and_the_order_is_that_of_one_read(store, embedder):
    _graph(store)
    question, opts = embedder.encode_one("What is x?"), QueryOptions(max_facts=12)
    reads = CountingReads(store)
    claims = claims_by_distance(reads, question, LEVEL, opts)
    assert reads.asked == [{"x", "n1", "n2"}, {"m"}]
    at_once = claims_about(
        store, question, [(c, h, opts.max_facts if h == 0 else max(1, opts.per_concept // h)) for c, h in LEVEL.items()]
    )
    assert claims == at_once and claims[-1] == "cl-m"
