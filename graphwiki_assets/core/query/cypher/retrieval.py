"""Multi-hop source retrieval for the evals."""

from graphwiki_assets.core.store.schema import in_play

SOURCE_VECTOR = f"""
CALL db.index.vector.queryNodes('source_embedding', $pool, $embedding) YIELD node
WITH node WHERE {in_play("node")}
WITH node, vector.similarity.cosine(node.embedding, $embedding) AS score
ORDER BY score DESC, node.id
LIMIT $k
RETURN node.id AS id, score
"""

# Claims nearest the question stand in for HippoRAG 2's query-to-triple matching.
CLAIM_VECTOR_CONCEPTS = f"""
CALL db.index.vector.queryNodes('claim_embedding', $pool, $embedding) YIELD node
WITH node WHERE {in_play("node")}
WITH node, vector.similarity.cosine(node.embedding, $embedding) AS score
ORDER BY score DESC, node.id
LIMIT $k
MATCH (node)-[:ABOUT]->(c:Concept)
WHERE {in_play("c")}
RETURN c.id AS id, max(score) AS score
"""

# Bridge retrieval: passages that share a concept with an anchor passage. A concept in many
# passages is a weak bridge (the boost is divided by its passage count); one past
# $max_degree is skipped so a hub cannot make a query scan the corpus.
BRIDGED_SOURCES = f"""
UNWIND $anchors AS a
MATCH (:Source {{id: a.id}})<-[:DERIVED_FROM]-(c:Concept)
WHERE {in_play("c")}
WITH a, c, COUNT {{ (c)-[:DERIVED_FROM]->(:Source) }} AS degree
WHERE 2 <= degree <= $max_degree
MATCH (c)-[:DERIVED_FROM]->(p:Source)
WHERE p.id <> a.id AND {in_play("p")} AND p.embedding IS NOT NULL
WITH p, max(a.score / degree) AS boost
RETURN p.id AS id, boost, vector.similarity.cosine(p.embedding, $embedding) AS relevance
"""

# Specificity: HippoRAG 2 divides a seed's weight by the number of passages it occurs in.
CONCEPT_SOURCE_COUNTS = """
UNWIND $ids AS id
MATCH (c:Concept {id: id})
RETURN c.id AS id, COUNT { (c)-[:DERIVED_FROM]->(:Source) } AS sources
"""

SOURCES_OF_CONCEPTS = f"""
UNWIND $concepts AS c
MATCH (:Concept {{id: c.id}})-[:DERIVED_FROM]->(s:Source)
WHERE {in_play("s")}
RETURN s.id AS id, max(c.score) AS score
"""
