"""All Cypher of the overview. Read-only.

Independent sources: a concept or claim is stated by as many independent sources as it has
distinct files behind it. A changed version of a file is the same file (same path), and two
files with the same text are one :Source (same SHA256), so distinct paths count both ways.
"""

from graphwiki_assets.core.store.schema import in_play

# Corroborated concepts by type, best-supported first, $per_type of each type.
CONCEPTS_BY_TYPE = f"""
MATCH (c:Concept)-[:DERIVED_FROM]->(s:Source)
WHERE {in_play("c")}
WITH c, count(DISTINCT s.path) AS independent
WHERE independent >= $corroboration
WITH coalesce(c.type, 'Concept') AS type, c, independent
ORDER BY type, independent DESC, c.name
WITH type, count(c) AS total, collect({{id: c.id, name: c.name, summary: coalesce(c.summary, ''),
                                       sources: independent}})[..$per_type] AS concepts
RETURN type, total, concepts
ORDER BY total DESC, type
"""

SINGLE_SOURCE = f"""
MATCH (c:Concept)-[:DERIVED_FROM]->(s:Source)
WHERE {in_play("c")}
WITH c, count(DISTINCT s.path) AS independent
WHERE independent < $corroboration
RETURN count(c) AS n
"""

RECENT_SOURCES = """
MATCH (s:Source)
WHERE coalesce(s.status, 'current') = 'current'
OPTIONAL MATCH (c:Concept)-[:DERIVED_FROM]->(s)
WITH s, count(c) AS concepts
ORDER BY s.ingested_at DESC, s.path
LIMIT $limit
RETURN s.id AS id, s.path AS path, s.title AS title, toString(s.ingested_at) AS ingested_at, concepts
"""

ACTIVE_CONTRADICTIONS = """
MATCH (a:Claim)-[r:CONTRADICTS]->(b:Claim)
WHERE a.status = 'disputed' AND b.status = 'disputed'
WITH a, b, r ORDER BY r.detected_at DESC, a.id LIMIT $limit
RETURN a.id AS claim, a.text AS claim_text, b.id AS opponent, b.text AS opponent_text,
       [(a)-[:ABOUT]->(c:Concept) | c.name] AS about
"""

NEEDS_REVIEW = f"""
MATCH (n)
WHERE (n:Concept OR n:Claim OR n:Answer) AND n.needs_review = true AND {in_play("n")}
  AND coalesce(n.review_reason, '') <> $awaiting  // waiting for a second source is counted apart
WITH n, labels(n)[0] AS kind ORDER BY n.needs_review_since DESC, n.id LIMIT $limit
RETURN n.id AS id, kind, coalesce(n.name, n.text, n.question) AS what, coalesce(n.review_reason, '') AS reason
"""

WITHOUT_CLAIMS = f"""
MATCH (c:Concept)
WHERE {in_play("c")} AND NOT EXISTS {{ (:Claim)-[:ABOUT]->(c) }}
WITH c ORDER BY c.name
RETURN count(c) AS n, collect(c.name)[..$limit] AS names
"""
