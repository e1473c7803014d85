"""Cypher of the evals and benchmarks that is not another concern's (every value a parameter).

The generated graph is written with ingest's own statements; what is here is only what
ingest never writes (PART_OF) and what the benchmarks read to draw questions and sizes.
"""

from graphwiki_assets.core.store.schema import in_play

# -- the generated graph ------------------------------------------------------------------

MERGE_PART_OF = """
UNWIND $links AS l
MATCH (a:Concept {id: l.part}), (b:Concept {id: l.whole})
MERGE (a)-[r:PART_OF]->(b)
ON CREATE SET r.created_at = datetime($now)
"""

SOURCES_PRESENT = """
UNWIND $ids AS id
MATCH (s:Source {id: id})
RETURN s.id AS id
"""

# Anything that is not this seed's generated graph (leases are bookkeeping, not a graph).
FOREIGN_NODES = """
MATCH (n)
WHERE NOT n:Lease AND NOT coalesce(n.id, '') STARTS WITH $prefix
RETURN count(n) AS n
"""

AWAIT_INDEXES = "CALL db.awaitIndexes(600)"

GRAPH_SIZE = """
CALL () { MATCH (n:Concept) RETURN count(n) AS concepts }
CALL () { MATCH (n:Claim) RETURN count(n) AS claims }
CALL () { MATCH (n:Source) RETURN count(n) AS sources }
CALL () { MATCH ()-[r]->() RETURN count(r) AS relationships }
CALL () { MATCH ()-[r:CONTRADICTS]->() RETURN count(r) AS contradictions }
RETURN concepts, claims, sources, relationships, contradictions
"""

# -- drawing benchmark questions from the graph -----------------------------------------------

SAMPLE_CONCEPTS = f"""
MATCH (c:Concept)
WHERE {in_play("c")} AND COUNT {{ (c)--() }} >= 2
RETURN c.id AS id, c.name AS name ORDER BY c.id
"""

# Pairs two concept hops apart and not adjacent, so a path has an intermediate to explain.
# Bounded per name ($via intermediates): a variable-length match from a hub would
# enumerate millions of paths.
CONNECTED_PAIRS = f"""
UNWIND $ids AS id
CALL (id) {{
  MATCH (a:Concept {{id: id}})-[:RELATED_TO|PART_OF]-(m:Concept)
  WITH a, m LIMIT $via
  MATCH (m)-[:RELATED_TO|PART_OF]-(b:Concept)
  WHERE b <> a AND {in_play("b")} AND NOT EXISTS {{ (a)-[:RELATED_TO|PART_OF]-(b) }}
  RETURN collect(DISTINCT b.name)[..3] AS others
}}
RETURN id, others
"""

# -- the eval on real documents ---------------------------------------------------------------

DOC_CONCEPTS = f"""
MATCH (c:Concept)
WHERE {in_play("c")}
RETURN c.id AS id, c.name AS name, c.type AS type, coalesce(c.extracted_type, '') AS extracted_type,
       coalesce(c.aliases, []) AS aliases, COUNT {{ (c)<-[:ABOUT]-(:Claim) }} AS claims
ORDER BY c.id
"""

# Each pair once (a -> b as stored), with both claims' sources and their dates when the
# reader records them (s.date is null before that).
DOC_CONTRADICTIONS = """
MATCH (a:Claim)-[r:CONTRADICTS]->(b:Claim)
CALL (a) { OPTIONAL MATCH (a)-[:DERIVED_FROM]->(s:Source)
           RETURN collect(DISTINCT coalesce(s.paths, [s.path])) AS a_paths, max(s.date) AS a_date }
CALL (b) { OPTIONAL MATCH (b)-[:DERIVED_FROM]->(s:Source)
           RETURN collect(DISTINCT coalesce(s.paths, [s.path])) AS b_paths, max(s.date) AS b_date }
RETURN a.id AS a, a.text AS a_text, coalesce(a.status, 'current') AS a_status, a_paths, a_date,
       b.id AS b, b.text AS b_text, coalesce(b.status, 'current') AS b_status, b_paths, b_date
ORDER BY a.id, b.id
"""

SOURCE_PATHS = """
MATCH (s:Source)
RETURN s.id AS id, coalesce(s.paths, [s.path]) AS paths
"""

# -- a source added while a benchmark asks ----------------------------------------------------

SOURCE_CLAIMS_BY_NAME = """
MATCH (s:Source) WHERE any(p IN coalesce(s.paths, [s.path]) WHERE p ENDS WITH $name)
OPTIONAL MATCH (c:Claim)-[:DERIVED_FROM]->(s)
RETURN s.id AS id, count(c) AS claims
"""

SOURCES_NAMED_LIKE = """
MATCH (s:Source) WHERE any(p IN coalesce(s.paths, [s.path]) WHERE p CONTAINS $fragment)
RETURN count(s) AS n
"""

# -- seeded background concepts (seed_concepts.py, lease_growth.py) ---------------------------
# A seeded node is marked by seeded_by = $marker. SET c = r replaces every property, so the
# same statement writes a seed and resets one a probe touched (dates set apart, as ingest
# sets them).

SEED_CONCEPTS = """
UNWIND $rows AS r
MERGE (c:Concept {id: r.id})
SET c = r, c.created_at = datetime($now), c.updated_at = datetime($now), c.shape_at = datetime($now),
    c.needs_review_since = CASE WHEN r.needs_review THEN datetime($now) END
"""

SEEDED_CONCEPTS = """
MATCH (c:Concept) WHERE c.seeded_by = $marker
RETURN count(c) AS n
"""

CONCEPT_COUNT = "MATCH (c:Concept) RETURN count(c) AS n"

# Seeds a probe wrote to: an edge (every seed is written without one) or a later update.
TOUCHED_SEEDS = """
MATCH (c:Concept) WHERE c.seeded_by = $marker
  AND (c.updated_at <> c.created_at OR EXISTS { (c)--() })
RETURN c.id AS id
"""

# Everything but the seeds and the bookkeeping (the lease, the graph's vector model); the
# coalesce keeps a node without the mark from reading as null, which NOT would keep.
DELETE_UNSEEDED = """
MATCH (n)
WHERE NOT n:Lease AND NOT n:GraphwikiMeta AND NOT (n:Concept AND coalesce(n.seeded_by, '') = $marker)
CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS
"""

DELETE_SEED_EDGES = """
MATCH (c:Concept)-[r]-() WHERE c.seeded_by = $marker
WITH DISTINCT r
DELETE r
"""

UNSEEDED_NODES = """
MATCH (n)
WHERE NOT n:Lease AND NOT n:GraphwikiMeta AND NOT (n:Concept AND coalesce(n.seeded_by, '') = $marker)
RETURN count(n) AS n
"""
