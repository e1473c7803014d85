"""Answers filed back."""

# Idempotent: the same question answered the same way is one node. An answer is derived: it
# cites sources and uses facts, and is never DERIVED_FROM a source like knowledge is.
FILE_ANSWER = """
MERGE (a:Answer {id: $id})
ON CREATE SET a.question = $question, a.text = $text, a.shape = $shape, a.technique = $technique,
              a.backend = $backend, a.citations = $citations, a.fact_ids = $fact_ids,
              a.embedding = $embedding, a.needs_review = false, a.derived = true, a.filed_at = datetime()
WITH a
CALL (a) {
  UNWIND $citations AS sid
  MATCH (s:Source {id: sid})
  MERGE (a)-[:CITES]->(s)
}
CALL (a) {
  UNWIND $fact_ids AS fid
  MATCH (n {id: fid}) WHERE n:Claim OR n:Concept OR n:Community
  MERGE (a)-[:USED]->(n)
}
RETURN a.id AS id
"""

# Filed answers to the same question, reworded: nearest by the question's embedding.
FILED_NEAR = """
CALL db.index.vector.queryNodes('answer_embedding', $pool, $embedding) YIELD node AS a, score
WHERE score >= $min_score
RETURN a.id AS id, a.question AS question, a.text AS text, a.citations AS citations,
       coalesce(a.needs_review, false) AS needs_review, a.review_reason AS review_reason,
       toString(a.filed_at) AS filed_at, score
ORDER BY score DESC, id
LIMIT $k
"""
