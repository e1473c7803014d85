"""Loading the retrieved subgraph: concepts, claims and sources with their status, and the
claims about or linking the retrieved concepts.
"""

# A concept's summary cites at most $source_limit of its sources, current and newest first:
# a hub named by hundreds of sources would otherwise load (and cite) all of them.
# Sources are listed only for the concepts in $cite (those whose summary is cited).
# source_total is the concept's DERIVED_FROM degree: ingest MERGEs one edge per source and
# a concept derives from sources only, so the count store answers it without walking a hub.
LOAD_CONCEPTS = """
UNWIND $ids AS id
MATCH (c:Concept {id: id})
OPTIONAL CALL (c) {
  WITH c WHERE c.id IN $cite
  MATCH (c)-[:DERIVED_FROM]->(s:Source)
  WITH DISTINCT s
  ORDER BY s.status = 'superseded', s.ingested_at DESC, s.id
  RETURN collect(s.id)[..$source_limit] AS cited, toString(max(s.date)) AS stated
}
RETURN c.id AS id, c.name AS name, coalesce(c.type, 'Concept') AS type, coalesce(c.summary, '') AS summary,
       coalesce(c.status, 'current') AS status, coalesce(c.needs_review, false) AS needs_review,
       c.review_reason AS review_reason, coalesce(cited, []) AS sources, stated,
       COUNT { (c)-[:DERIVED_FROM]->() } AS source_total, coalesce(c.aliases, []) AS aliases
"""

LOAD_CLAIMS = """
UNWIND $ids AS id
MATCH (cl:Claim {id: id})
CALL (cl) {
  OPTIONAL MATCH (cl)-[d:DERIVED_FROM]->(s:Source)
  RETURN collect(DISTINCT s.id) AS sources, toString(max(s.date)) AS stated,
         [p IN collect(DISTINCT CASE WHEN d.section <> '' THEN {source: s.id, section: d.section} END)
          WHERE p IS NOT NULL] AS places
}
CALL (cl) { OPTIONAL MATCH (cl)-[:CONTRADICTS]-(o:Claim) RETURN collect(DISTINCT o.id) AS opponents }
CALL (cl) { OPTIONAL MATCH (cl)-[:ABOUT]->(c:Concept) RETURN collect(DISTINCT c.id) AS about }
RETURN cl.id AS id, cl.text AS text, coalesce(cl.status, 'current') AS status,
       coalesce(cl.needs_review, false) AS needs_review, cl.review_reason AS review_reason,
       cl.superseded_by AS superseded_by, cl.decided_by AS decided_by, toString(cl.decided_at) AS decided_at,
       sources, opponents, about, stated, places
"""

LOAD_SOURCES = """
UNWIND $ids AS id
MATCH (s:Source {id: id})
RETURN s.id AS id, coalesce(s.title, '') AS title, s.path AS path, coalesce(s.paths, [s.path]) AS paths,
       s.sha256 AS sha256, coalesce(s.status, 'current') AS status, s.superseded_by AS superseded_by,
       toString(s.ingested_at) AS ingested_at, toString(s.last_seen_at) AS last_seen_at,
       s.last_seen_at IS NOT NULL AND s.last_seen_at < datetime() - duration({days: $stale_days}) AS stale
"""

# Claims about some concepts, most relevant to the question first, at most $per_concept each.
CLAIMS_ABOUT = """
UNWIND $concepts AS c
CALL (c) {
  MATCH (cl:Claim)-[:ABOUT]->(:Concept {id: c.id})
  WITH cl, CASE WHEN cl.embedding IS NULL THEN 0.0
                ELSE vector.similarity.cosine(cl.embedding, $question) END AS relevance
  ORDER BY relevance DESC, cl.id
  WITH collect({claim: cl, relevance: relevance}) AS ranked
  UNWIND ranked[..c.limit] AS t
  RETURN t.claim AS cl, t.relevance AS relevance
}
RETURN cl.id AS id, min(c.rank) AS rank, max(relevance) AS relevance
ORDER BY rank, relevance DESC, id
"""

# Claims that state a link: about both ends of a pair, most relevant first.
CLAIMS_LINKING = """
UNWIND $pairs AS p
CALL (p) {
  MATCH (:Concept {id: p.a})<-[:ABOUT]-(cl:Claim)-[:ABOUT]->(:Concept {id: p.b})
  WITH cl, CASE WHEN cl.embedding IS NULL THEN 0.0
                ELSE vector.similarity.cosine(cl.embedding, $question) END AS relevance
  ORDER BY relevance DESC, cl.id
  LIMIT $per_pair
  RETURN cl, relevance
}
RETURN p.rank AS rank, p.a AS a, p.b AS b, cl.id AS id, relevance
ORDER BY rank, relevance DESC, id
"""
