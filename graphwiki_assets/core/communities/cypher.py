"""Every statement about communities (the concepts of a Leiden stream, membership, reports, reads)."""

from graphwiki_assets.core.store.schema import in_play

# The concepts behind the graph ids of a Leiden stream (the GDS client runs it), those still
# in play.
CONCEPTS_IN_PLAY = f"""
UNWIND $node_ids AS node_id
MATCH (c) WHERE id(c) = node_id
WITH c, node_id WHERE {in_play("c")}
RETURN node_id, c.id AS id
"""

EXISTING = """
MATCH (k:Community)
RETURN k.id AS id, coalesce(k.title, '') <> '' AND coalesce(k.summary, '') <> '' AS reported
"""

# New communities with their members. A community's id is its membership, so an existing
# one never changes members: only its place in the hierarchy is refreshed (PLACES).
WRITE = """
UNWIND $communities AS k
MERGE (m:Community {id: k.id})
ON CREATE SET m.size = k.size, m.created_at = datetime()
SET m.level = k.level, m.top = k.top, m.seen_at = datetime()
WITH m, k
CALL (m, k) {
  UNWIND k.members AS mid
  MATCH (c:Concept {id: mid})
  MERGE (c)-[:IN_COMMUNITY]->(m)
}
"""

PLACES = """
UNWIND $communities AS k
MATCH (m:Community {id: k.id})
SET m.level = k.level, m.top = k.top, m.seen_at = datetime()
"""

LINK_PARENTS = """
MATCH (:Community)-[r:SUBCOMMUNITY_OF]->(:Community) DELETE r
WITH count(*) AS cleared
UNWIND $links AS l
MATCH (child:Community {id: l.child}), (parent:Community {id: l.parent})
MERGE (child)-[:SUBCOMMUNITY_OF]->(parent)
"""

DROP_STALE = """
MATCH (k:Community) WHERE NOT k.id IN $keep
DETACH DELETE k
RETURN count(*) AS dropped
"""

# What a report is written from: the members most connected inside the community, and the
# claims that tie the most members together, with their sources.
CONTEXT = f"""
UNWIND $ids AS kid
MATCH (k:Community {{id: kid}})
CALL (k) {{
  MATCH (c:Concept)-[:IN_COMMUNITY]->(k)
  WITH c, COUNT {{ (c)-[:RELATED_TO|PART_OF]-(:Concept)-[:IN_COMMUNITY]->(k) }} AS inner
  ORDER BY inner DESC, c.id
  LIMIT $max_members
  RETURN collect({{id: c.id, name: c.name, type: coalesce(c.type, 'Concept'), summary: coalesce(c.summary, ''),
                  sources: [(c)-[:DERIVED_FROM]->(s:Source) WHERE {in_play("s")} | s.id][..3]}})
         AS members
}}
CALL (k) {{
  MATCH (c:Concept)-[:IN_COMMUNITY]->(k)
  MATCH (c)<-[:ABOUT]-(cl:Claim)
  WHERE {in_play("cl")}
  WITH cl, count(DISTINCT c) AS tied
  ORDER BY tied DESC, cl.id
  LIMIT $max_facts
  RETURN collect({{id: cl.id, text: cl.text,
                  sources: [(cl)-[:DERIVED_FROM]->(s:Source) WHERE {in_play("s")} | s.id]}})
         AS facts
}}
RETURN k.id AS id, members, facts
"""

WRITE_REPORTS = """
UNWIND $reports AS r
MATCH (k:Community {id: r.id})
SET k.title = r.title, k.summary = r.summary, k.summary_kind = r.kind, k.backend = r.backend,
    k.prompt_version = r.prompt_version, k.fact_ids = r.fact_ids, k.source_ids = r.source_ids,
    k.reported_at = datetime(), k.embedding = r.embedding
"""

LIST = """
MATCH (k:Community)
RETURN k.id AS id, k.level AS level, k.top AS top, k.size AS size, coalesce(k.title, '') AS title,
       coalesce(k.summary, '') AS summary, coalesce(k.summary_kind, '') AS kind, coalesce(k.source_ids, []) AS sources
ORDER BY k.top DESC, k.size DESC, k.id
"""
