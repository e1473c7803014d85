"""The Cypher of reading concepts: a card by id or spelled name, and search by name or meaning."""

from graphwiki_assets.core.store.schema import in_play

# An id first; else a name or alias, compared on the stored keys (normalised spellings).
CONCEPT_BY_KEY = """
OPTIONAL MATCH (byId:Concept {id: $key})
CALL (byId) {
  WITH byId WHERE byId IS NULL
  CALL db.index.fulltext.queryNodes('concept_keys', $keys_query) YIELD node
  WHERE $name_key IN node.keys
  RETURN node ORDER BY node.source_count DESC, node.id LIMIT 1
  UNION
  WITH byId WHERE byId IS NOT NULL
  RETURN byId AS node
}
RETURN node.id AS id
"""

# A card's body, after a match that binds ``c``; one concept (CARD) or a page of them (CARDS).
_CARD_OF_C = f"""
CALL (c) {{
  OPTIONAL MATCH (cl:Claim)-[:ABOUT]->(c)
  WITH cl WHERE cl IS NOT NULL
  OPTIONAL MATCH (cl)-[d:DERIVED_FROM]->(s:Source)
  OPTIONAL MATCH (cl)-[:CONTRADICTS]-(other:Claim)
  WITH cl, collect(DISTINCT s.id) AS sources, collect(DISTINCT other) AS others,
       collect(DISTINCT CASE WHEN d.section <> '' THEN {{source: s.id, section: d.section}} END) AS places
  RETURN collect({{id: cl.id, text: cl.text, status: coalesce(cl.status, 'current'),
                  needs_review: coalesce(cl.needs_review, false), review_reason: cl.review_reason,
                  independent_sources: coalesce(cl.independent_sources, 0), superseded_by: cl.superseded_by,
                  sources: sources, places: places, contradicts: [o IN others | o.id],
                  opponents: [o IN others | {{id: o.id, text: o.text, status: coalesce(o.status, 'current')}}]}}) AS claims
}}
CALL (c) {{
  OPTIONAL MATCH (c)-[r:RELATED_TO]-(n:Concept) WHERE {in_play("n")}
  WITH n, sum(coalesce(r.weight, 1)) AS weight WHERE n IS NOT NULL
  ORDER BY weight DESC, n.name LIMIT $related
  RETURN collect({{id: n.id, name: n.name, type: n.type, weight: weight}}) AS related
}}
CALL (c) {{
  OPTIONAL MATCH (c)-[:PART_OF]->(p:Concept)
  RETURN collect(DISTINCT {{id: p.id, name: p.name}}) AS part_of
}}
CALL (c) {{
  OPTIONAL MATCH (c)-[:DERIVED_FROM]->(s:Source)
  WITH s WHERE s IS NOT NULL ORDER BY s.path
  RETURN collect({{id: s.id, title: s.title, path: s.path, status: coalesce(s.status, 'current'),
                  date: toString(s.date), ingested_at: toString(s.ingested_at),
                  last_seen_at: toString(s.last_seen_at)}}) AS sources
}}
RETURN c.id AS id, c.name AS name, c.type AS type, coalesce(c.aliases, []) AS aliases,
       coalesce(c.summary, '') AS summary, coalesce(c.status, 'current') AS status,
       coalesce(c.needs_review, false) AS needs_review, c.review_reason AS review_reason,
       coalesce(c.independent_sources, c.source_count, 0) AS independent_sources,
       toString(c.updated_at) AS updated_at, claims, related, [p IN part_of WHERE p.id IS NOT NULL] AS part_of,
       sources
"""

CARD = "MATCH (c:Concept {id: $id})" + _CARD_OF_C
CARDS = "UNWIND $ids AS id MATCH (c:Concept {id: id})" + _CARD_OF_C

SEARCH_BY_NAME = f"""
CALL db.index.fulltext.queryNodes('concept_names', $query) YIELD node, score
WHERE {in_play("node")}
RETURN node.id AS id, node.name AS name, node.type AS type, coalesce(node.summary, '') AS summary,
       score, 'name' AS matched
ORDER BY score DESC, node.id LIMIT $k
"""

SEARCH_BY_MEANING = f"""
CALL db.index.vector.queryNodes('concept_embedding', $pool, $embedding) YIELD node, score
WHERE {in_play("node")}
RETURN node.id AS id, node.name AS name, node.type AS type, coalesce(node.summary, '') AS summary,
       score, 'meaning' AS matched
ORDER BY score DESC, node.id LIMIT $k
"""
