"""Find something shaped like X: typed one-hop neighbourhood signatures, read, stored and
matched.
"""

from graphwiki_assets.core.store.schema import in_play

# A signature entry is relation + direction + neighbour type, e.g. 'related:Database',
# with the neighbours that realise it (their number is the entry's weight).
SIGNATURE_OF = f"""
MATCH (x:Concept {{id: $id}})-[r:RELATED_TO|PART_OF]-(m:Concept)
WHERE {in_play("m")}
WITH x, m, CASE WHEN type(r) = 'RELATED_TO' THEN 'related' WHEN startNode(r) = x THEN 'part_of>' ELSE 'part_of<' END
           + ':' + coalesce(m.type, 'Concept') AS entry
WITH x, entry, collect(DISTINCT m.id) AS members
RETURN x.type AS type, x.shape_at IS NOT NULL AS stored, collect({{entry: entry, members: members}}) AS signature
"""

# Stored signatures (see signatures.py): the same entries as SIGNATURE_OF, counted.
SIGNATURES_READ = f"""
UNWIND $ids AS id
MATCH (c:Concept {{id: id}})
CALL (c) {{
  OPTIONAL MATCH (c)-[r:RELATED_TO|PART_OF]-(m:Concept)
  WHERE {in_play("m")}
  WITH m, CASE WHEN type(r) = 'RELATED_TO' THEN 'related' WHEN startNode(r) = c THEN 'part_of>' ELSE 'part_of<' END
          + ':' + coalesce(m.type, 'Concept') AS entry
  WITH entry, count(DISTINCT m) AS n
  WHERE n > 0
  RETURN collect({{entry: entry, n: n}}) AS entries
}}
RETURN c.id AS id, coalesce(c.type, 'Concept') AS type, coalesce(c.status, 'current') AS status,
       coalesce(c.type, 'Concept') + '|' + coalesce(c.status, 'current') AS state,
       COUNT {{ (c)-[:RELATED_TO|PART_OF]-() }} AS degree, entries
"""

# Written only if the concept still has the edges and type it was read with.
SIGNATURES_WRITE = """
UNWIND $rows AS row
MATCH (c:Concept {id: row.id})
WHERE COUNT { (c)-[:RELATED_TO|PART_OF]-() } = row.degree
  AND coalesce(c.type, 'Concept') + '|' + coalesce(c.status, 'current') = row.state
SET c.shape_entries = row.entries, c.shape_counts = row.counts, c.shape_tokens = row.tokens,
    c.shape_degree = row.degree, c.shape_state = row.state, c.shape_at = datetime()
RETURN count(c) AS written
"""

# Missing or out of date: its edges or its type/status changed since ("moved": the type or
# status its neighbours' entries name). A summary or alias update changes neither.
SIGNATURES_STALE = """
MATCH (c:Concept)
WITH c, coalesce(c.type, 'Concept') + '|' + coalesce(c.status, 'current') AS state,
     COUNT { (c)-[:RELATED_TO|PART_OF]-() } AS degree
WHERE c.shape_at IS NULL OR c.shape_degree <> degree OR c.shape_state <> state
RETURN c.id AS id, c.shape_state IS NOT NULL AND c.shape_state <> state AS moved
"""

# The same check among the concepts a batch touched (its concepts and both ends of its new
# edges): a batch's refresh reads what it wrote, not every concept.
SIGNATURES_STALE_AMONG = """
UNWIND $ids AS id
MATCH (c:Concept {id: id})
WITH c, coalesce(c.type, 'Concept') + '|' + coalesce(c.status, 'current') AS state,
     COUNT { (c)-[:RELATED_TO|PART_OF]-() } AS degree
WHERE c.shape_at IS NULL OR c.shape_degree <> degree OR c.shape_state <> state
RETURN c.id AS id, c.shape_state IS NOT NULL AND c.shape_state <> state AS moved
"""

# Whether any concept has a stored signature (stops at the first).
ANY_SIGNATURE = """
OPTIONAL MATCH (c:Concept) WHERE c.shape_at IS NOT NULL
WITH c LIMIT 1
RETURN c IS NOT NULL AS stored
"""

# Candidates sharing X's entries, from the full-text index over the stored tokens.
SHAPE_CANDIDATES = f"""
CALL db.index.fulltext.queryNodes('concept_shapes', $tokens, {{limit: $pool}}) YIELD node, score
WHERE node.id <> $id AND {in_play("node")}
RETURN node.id AS id, node.shape_entries AS entries, node.shape_counts AS counts, score
"""

# Neighbours each candidate has in common with X (ties of the shape score).
SHARED_NEIGHBOURS = """
UNWIND $ids AS id
MATCH (y:Concept {id: id})
RETURN y.id AS id, COUNT {
  MATCH (y)-[r:RELATED_TO|PART_OF]-(m:Concept)
  WHERE m.id IN $neighbours
} AS shared
"""

# The neighbours realising each shared entry of a match, a few per entry (the evidence).
SHAPE_WITNESSES = f"""
UNWIND $matches AS t
MATCH (y:Concept {{id: t.id}})
CALL (y, t) {{
  MATCH (y)-[r:RELATED_TO|PART_OF]-(m:Concept)
  WHERE {in_play("m")}
  WITH m, CASE WHEN type(r) = 'RELATED_TO' THEN 'related' WHEN startNode(r) = y THEN 'part_of>' ELSE 'part_of<' END
          + ':' + coalesce(m.type, 'Concept') AS entry
  WHERE entry IN t.entries
  WITH entry, m ORDER BY m.id
  RETURN entry, collect(DISTINCT m.id)[..$per_entry] AS members
}}
RETURN y.id AS id, entry, members
"""
