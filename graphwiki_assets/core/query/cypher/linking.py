"""Entity linking: a question's names to concepts, by key, by spelling and by vector; and the ladder's
raw-source rungs, for names no concept carries.
"""

from graphwiki_assets.core.store.schema import in_play

# Concept.keys holds the normalised name and aliases (see store.keys and normal_forms.name_key). The
# full-text index on it hands over candidates (a scan of every concept took 250 ms at 100k
# concepts); the WHERE keeps only exact keys. m.query also carries the key written without
# spaces and split in two, so "graph rag" and "graphrag" find each other.
CONCEPTS_BY_KEYS = f"""
UNWIND $mentions AS m
CALL (m) {{
  CALL db.index.fulltext.queryNodes('concept_keys', m.query, {{limit: $limit}}) YIELD node AS c
  WHERE {in_play("c")}
    AND (m.key IN c.keys OR any(k IN coalesce(c.keys, []) WHERE replace(k, ' ', '') = m.compact))
  RETURN c
}}
RETURN m.index AS index, c.id AS id, c.name AS name, c.type AS type,
       coalesce(c.aliases, []) AS aliases, coalesce(c.source_count, 0) AS source_count
ORDER BY index, source_count DESC, c.id
"""

# Every concept one of the question's spans names exactly: one index lookup per span.
CONCEPTS_BY_ANY_KEY = f"""
UNWIND $keys AS key
CALL (key) {{
  CALL db.index.fulltext.queryNodes('concept_keys', key.query, {{limit: $limit}}) YIELD node AS c
  WHERE {in_play("c")} AND key.key IN c.keys
  RETURN c
}}
WITH c, collect(key.key) AS keys
RETURN c.id AS id, c.name AS name, c.type AS type, keys, coalesce(c.source_count, 0) AS source_count
"""

# The fuzzy pass's blocking (query/fuzzy.py): per mention, the concepts whose keys lie a few
# edits from its words or begin with their root, at most $limit of them, one index lookup each;
# the caller decides by spelling which, if any, the mention means.
CONCEPTS_BY_SPELLING = f"""
UNWIND $mentions AS m
CALL (m) {{
  CALL db.index.fulltext.queryNodes('concept_keys', m.query, {{limit: $limit}}) YIELD node AS c
  WHERE {in_play("c")}
  RETURN c
}}
RETURN m.index AS index, c.id AS id, c.name AS name, c.type AS type,
       coalesce(c.aliases, []) AS aliases, coalesce(c.source_count, 0) AS source_count
"""

# Vector searches ask the index for $pool candidates and keep the $k best by the exact cosine
# of the stored embeddings: the index is approximate (HNSW over int8-quantised vectors), and
# on its own it returned 90 % of the true top 5 passages of a 1,890-passage corpus; a pool
# of 50 re-scored exactly returned all of them. Scores are on the index's scale, (1 + cos) / 2.
CONCEPT_VECTOR_CANDIDATES = f"""
UNWIND $mentions AS m
CALL (m) {{
  CALL db.index.vector.queryNodes('concept_embedding', $pool, m.embedding) YIELD node
  WITH node WHERE {in_play("node")}
  WITH node, vector.similarity.cosine(node.embedding, m.embedding) AS score
  ORDER BY score DESC, node.id
  LIMIT $k
  RETURN node, score
}}
RETURN m.index AS index, node.id AS id, node.name AS name, node.type AS type,
       coalesce(node.aliases, []) AS aliases, score
"""

CONCEPT_VECTOR = f"""
CALL db.index.vector.queryNodes('concept_embedding', $pool, $embedding) YIELD node
WITH node WHERE {in_play("node")}
WITH node, vector.similarity.cosine(node.embedding, $embedding) AS score
ORDER BY score DESC, node.id
LIMIT $k
RETURN node.id AS id, score
"""

# The ladder's raw-source rung: current sources that name a missing term, and those close
# to the question (exact cosine, floor applied), phrase matches first.
RAW_SOURCES = """
CALL () {
  CALL db.index.vector.queryNodes('source_embedding', $pool, $embedding) YIELD node
  RETURN node AS s
  UNION
  MATCH (s:Source) WHERE s.id IN $phrase_ids
  RETURN s
}
WITH s, vector.similarity.cosine(s.embedding, $embedding) * 2 - 1 AS score
WHERE coalesce(s.status, 'current') = 'current' AND (s.id IN $phrase_ids OR score >= $floor)
RETURN s.id AS id, s.title AS title, s.path AS path, s.sha256 AS sha256, s.text AS text, score,
       coalesce(s.scope, 'in') = 'out' AS outside
ORDER BY s.id IN $phrase_ids DESC, score DESC, s.id
LIMIT $k
"""

# The un-promoted fallback: the term occurs in source text though no concept carries it.
SOURCES_MENTIONING = """
CALL db.index.fulltext.queryNodes('source_text', $phrase, {limit: $k}) YIELD node, score
RETURN node.id AS id, node.title AS title, score
"""
