"""Global questions: community reports."""

from graphwiki_assets.core.store.schema import in_play

COMMUNITIES_REPORTED = """
MATCH (k:Community) WHERE coalesce(k.summary, '') <> ''
RETURN count(k) AS reported
"""

# "What are the main topics?": the top-level communities, largest first.
COMMUNITIES_TOP = """
MATCH (k:Community) WHERE k.top AND coalesce(k.summary, '') <> ''
RETURN k.id AS id, k.size AS size
ORDER BY k.size DESC, k.id
LIMIT $k
"""

# "What does the corpus say about T?": reports nearest the question, at any level.
COMMUNITY_VECTOR = """
CALL db.index.vector.queryNodes('community_embedding', $pool, $embedding) YIELD node, score
RETURN node.id AS id, score
ORDER BY score DESC, id
LIMIT $k
"""

# The communities the subject's concepts belong to, scored like the vector hits.
COMMUNITIES_OF = """
UNWIND $ids AS cid
MATCH (:Concept {id: cid})-[:IN_COMMUNITY]->(k:Community)
WHERE coalesce(k.summary, '') <> '' AND k.embedding IS NOT NULL
WITH DISTINCT k
RETURN k.id AS id, vector.similarity.cosine(k.embedding, $embedding) AS score
"""

# Claims nearest the question that are about members of the chosen communities.
COMMUNITY_CLAIMS = f"""
CALL db.index.vector.queryNodes('claim_embedding', $pool, $embedding) YIELD node AS cl, score
WHERE {in_play("cl")}
  AND EXISTS {{ (cl)-[:ABOUT]->(:Concept)-[:IN_COMMUNITY]->(k:Community) WHERE k.id IN $communities }}
RETURN cl.id AS id, score
ORDER BY score DESC, id
LIMIT $k
"""

# A report cites the first sources it was written from (those of the claims tying most members
# together come first), as a concept's summary cites its newest: not all of a large community's.
LOAD_COMMUNITIES = """
UNWIND $ids AS id
MATCH (k:Community {id: id})
RETURN k.id AS id, coalesce(k.title, '') AS title, coalesce(k.summary, '') AS summary,
       coalesce(k.summary_kind, '') AS kind, k.size AS size, coalesce(k.top, false) AS top,
       coalesce(k.source_ids, [])[..$source_limit] AS sources
"""
