"""All Cypher of the query concern.

Every value, the question text included, arrives as a parameter: nothing here is ever
formatted, and tests check that this module holds string constants only. Path-length
bounds are literals because Cypher cannot take them as parameters. For the same reason the
filter that keeps nodes in play is written out, as ``store.schema.in_play`` gives it (a
test holds every copy to that text).
"""

# -- entity linking ---------------------------------------------------------------------

# Concept.keys holds the normalised name and aliases (see store.keys and normal_forms.name_key). The
# full-text index on it hands over candidates (a scan of every concept took 250 ms at 100k
# concepts); the WHERE keeps only exact keys. m.query also carries the key written without
# spaces and split in two, so "graph rag" and "graphrag" find each other.
CONCEPTS_BY_KEYS = """
UNWIND $mentions AS m
CALL (m) {
  CALL db.index.fulltext.queryNodes('concept_keys', m.query, {limit: $limit}) YIELD node AS c
  WHERE coalesce(c.status, 'current') <> 'superseded'
    AND (m.key IN c.keys OR any(k IN coalesce(c.keys, []) WHERE replace(k, ' ', '') = m.compact))
  RETURN c
}
RETURN m.index AS index, c.id AS id, c.name AS name, c.type AS type,
       coalesce(c.aliases, []) AS aliases, coalesce(c.source_count, 0) AS source_count
ORDER BY index, source_count DESC, c.id
"""

# Every concept one of the question's spans names exactly: one index lookup per span.
CONCEPTS_BY_ANY_KEY = """
UNWIND $keys AS key
CALL (key) {
  CALL db.index.fulltext.queryNodes('concept_keys', key.query, {limit: $limit}) YIELD node AS c
  WHERE coalesce(c.status, 'current') <> 'superseded' AND key.key IN c.keys
  RETURN c
}
WITH c, collect(key.key) AS keys
RETURN c.id AS id, c.name AS name, c.type AS type, keys, coalesce(c.source_count, 0) AS source_count
"""

# Vector searches ask the index for $pool candidates and keep the $k best by the exact cosine
# of the stored embeddings: the index is approximate (HNSW over int8-quantised vectors), and
# on its own it returned 90 % of the true top 5 passages of a 1,890-passage corpus; a pool
# of 50 re-scored exactly returned all of them. Scores are on the index's scale, (1 + cos) / 2.
CONCEPT_VECTOR_CANDIDATES = """
UNWIND $mentions AS m
CALL (m) {
  CALL db.index.vector.queryNodes('concept_embedding', $pool, m.embedding) YIELD node
  WITH node WHERE coalesce(node.status, 'current') <> 'superseded'
  WITH node, vector.similarity.cosine(node.embedding, m.embedding) AS score
  ORDER BY score DESC, node.id
  LIMIT $k
  RETURN node, score
}
RETURN m.index AS index, node.id AS id, node.name AS name, node.type AS type,
       coalesce(node.aliases, []) AS aliases, score
"""

CONCEPT_VECTOR = """
CALL db.index.vector.queryNodes('concept_embedding', $pool, $embedding) YIELD node
WITH node WHERE coalesce(node.status, 'current') <> 'superseded'
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

# -- loading the retrieved subgraph, with status ----------------------------------------

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
       COUNT { (c)-[:DERIVED_FROM]->() } AS source_total
"""

LOAD_CLAIMS = """
UNWIND $ids AS id
MATCH (cl:Claim {id: id})
CALL (cl) {
  OPTIONAL MATCH (cl)-[:DERIVED_FROM]->(s:Source)
  RETURN collect(DISTINCT s.id) AS sources, toString(max(s.date)) AS stated
}
CALL (cl) { OPTIONAL MATCH (cl)-[:CONTRADICTS]-(o:Claim) RETURN collect(DISTINCT o.id) AS opponents }
CALL (cl) { OPTIONAL MATCH (cl)-[:ABOUT]->(c:Concept) RETURN collect(DISTINCT c.id) AS about }
RETURN cl.id AS id, cl.text AS text, coalesce(cl.status, 'current') AS status,
       coalesce(cl.needs_review, false) AS needs_review, cl.review_reason AS review_reason,
       cl.superseded_by AS superseded_by, cl.decided_by AS decided_by, toString(cl.decided_at) AS decided_at,
       sources, opponents, about, stated
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

# -- "what is X": N-hop traversal, one hop per call, fan-out bounded per node -----------

# Claims about each concept that open with one of its names (an article before it allowed):
# the candidates for its definition (definitions.py reads their form), the most corroborated
# and the shortest first.
DEFINING_CANDIDATES = """
UNWIND range(0, size($ids) - 1) AS rank
MATCH (c:Concept {id: $ids[rank]})
WITH rank, c, [n IN [c.name] + coalesce(c.aliases, []) | toLower(n)] AS names
CALL (c, names) {
  MATCH (cl:Claim)-[:ABOUT]->(c)
  WHERE coalesce(cl.status, 'current') <> 'superseded'
  WITH cl, toLower(cl.text) AS text
  WHERE any(n IN names WHERE text STARTS WITH n OR text STARTS WITH 'the ' + n
                             OR text STARTS WITH 'a ' + n OR text STARTS WITH 'an ' + n)
  RETURN cl
  ORDER BY coalesce(cl.independent_sources, 1) DESC, size(cl.text), cl.id
  LIMIT $limit
}
RETURN c.id AS concept, cl.id AS id, cl.text AS text, c.name AS name, coalesce(c.aliases, []) AS aliases
ORDER BY rank
"""


TRAVERSAL_HOP = """
UNWIND $frontier AS fid
MATCH (c:Concept {id: fid})-[r:RELATED_TO|PART_OF]-(n:Concept)
WHERE NOT n.id IN $seen AND coalesce(n.status, 'current') <> 'superseded'
WITH c, n, max(coalesce(r.weight, 1)) AS weight, collect(DISTINCT toLower(type(r))) AS kinds
WITH c, collect({n: n, weight: weight, kinds: kinds}) AS near
// Picks go by weight first, so none can weigh less than the fanout-th strongest edge: only
// those at or above it are scored against the question (one embedding read each), and a hub
// costs its strong edges, not its degree. The picks are exactly those of scoring them all.
CALL (near) {
  UNWIND near AS x
  WITH x.weight AS w ORDER BY w DESC LIMIT $fanout
  RETURN min(w) AS cut
}
UNWIND near AS x
WITH c, size(near) AS degree, x WHERE x.weight >= cut
WITH c, degree, x.n AS n, x.weight AS weight, x.kinds AS kinds,
     CASE WHEN x.n.embedding IS NULL THEN 0.0 ELSE vector.similarity.cosine(x.n.embedding, $question) END AS relevance
ORDER BY weight DESC, relevance DESC, n.id
WITH c, degree, collect({id: n.id, kinds: kinds, weight: weight})[..$fanout] AS picks
UNWIND picks AS p
RETURN c.id AS parent, p.id AS id, p.kinds AS kinds, p.weight AS weight, degree
"""

# -- "what else relates to X": Personalized PageRank on the concept layer -----------------

NODE_IDS = """
UNWIND $ids AS id
MATCH (n {id: id})
WHERE n:Concept OR n:Claim OR n:Source
RETURN n.id AS id, id(n) AS node_id
"""

RELATED_PPR = """
CALL gds.pageRank.stream($graph, {
  sourceNodes: $seeds, dampingFactor: $damping, relationshipWeightProperty: 'weight', tolerance: $tolerance
})
YIELD nodeId, score
WITH nodeId, score WHERE score > 0 AND NOT nodeId IN $seeds
ORDER BY score DESC
LIMIT $limit
WITH gds.util.asNode(nodeId) AS c, score
WHERE coalesce(c.status, 'current') <> 'superseded'
RETURN c.id AS id, score
"""

# The client's PageRank stream (``ppr_via="client"``) ranks graph ids; these are the concepts
# they are, in rank order, superseded ones left out as RELATED_PPR leaves them.
RANKED_CONCEPTS = """
UNWIND $ranked AS r
MATCH (c) WHERE id(c) = r.node_id
WITH c, r WHERE coalesce(c.status, 'current') <> 'superseded'
RETURN c.id AS id, r.score AS score
ORDER BY r.rank
"""

# Weighted personalisation by linearity: GDS weighs all sourceNodes of one run equally, so
# each group of equally weighted seeds is one run and the runs are summed with their weight.
WEIGHTED_PPR_SOURCES = """
UNWIND $groups AS g
CALL gds.pageRank.stream($graph, {
  sourceNodes: g.nodes, dampingFactor: $damping, relationshipWeightProperty: 'weight',
  maxIterations: $iterations, concurrency: $concurrency
})
YIELD nodeId, score
WITH nodeId, sum(g.weight * score) AS score
WHERE score > 0
ORDER BY score DESC
WITH gds.util.asNode(nodeId) AS n, score
WHERE n:Source AND coalesce(n.status, 'current') <> 'superseded'
RETURN n.id AS id, score
LIMIT $k
"""

# -- "how does X connect to Y": shortest path, first over concepts only ----------------

CONCEPT_PATH = """
MATCH (a:Concept {id: $a}), (b:Concept {id: $b})
MATCH p = ALL SHORTEST (a) (()-[:RELATED_TO|PART_OF]-(:Concept)){1,8} (b)
WITH p, reduce(w = 0.0, r IN relationships(p) | w + coalesce(r.weight, 1)) AS strength
ORDER BY strength DESC
LIMIT 1
RETURN [n IN nodes(p) | {id: n.id, label: labels(n)[0], name: coalesce(n.name, n.title, n.text)}] AS nodes,
       [r IN relationships(p) | toLower(type(r))] AS kinds
"""

# No concept chain: any path through claims and the sources that state them.
EVIDENCE_PATH = """
MATCH (a:Concept {id: $a}), (b:Concept {id: $b})
MATCH p = SHORTEST 1 (a)-[:RELATED_TO|PART_OF|ABOUT|DERIVED_FROM]-{1,10}(b)
RETURN [n IN nodes(p) | {id: n.id, label: labels(n)[0], name: coalesce(n.name, n.title, n.text)}] AS nodes,
       [r IN relationships(p) | toLower(type(r))] AS kinds
"""

# -- "find something shaped like X": typed one-hop neighbourhood signatures ---------------

# A signature entry is relation + direction + neighbour type, e.g. 'related:Database',
# with the neighbours that realise it (their number is the entry's weight).
SIGNATURE_OF = """
MATCH (x:Concept {id: $id})-[r:RELATED_TO|PART_OF]-(m:Concept)
WHERE coalesce(m.status, 'current') <> 'superseded'
WITH x, m, CASE WHEN type(r) = 'RELATED_TO' THEN 'related' WHEN startNode(r) = x THEN 'part_of>' ELSE 'part_of<' END
           + ':' + coalesce(m.type, 'Concept') AS entry
WITH x, entry, collect(DISTINCT m.id) AS members
RETURN x.type AS type, x.shape_at IS NOT NULL AS stored, collect({entry: entry, members: members}) AS signature
"""

# Stored signatures (see signatures.py): the same entries as SIGNATURE_OF, counted.
SIGNATURES_READ = """
UNWIND $ids AS id
MATCH (c:Concept {id: id})
CALL (c) {
  OPTIONAL MATCH (c)-[r:RELATED_TO|PART_OF]-(m:Concept)
  WHERE coalesce(m.status, 'current') <> 'superseded'
  WITH m, CASE WHEN type(r) = 'RELATED_TO' THEN 'related' WHEN startNode(r) = c THEN 'part_of>' ELSE 'part_of<' END
          + ':' + coalesce(m.type, 'Concept') AS entry
  WITH entry, count(DISTINCT m) AS n
  WHERE n > 0
  RETURN collect({entry: entry, n: n}) AS entries
}
RETURN c.id AS id, coalesce(c.type, 'Concept') AS type, coalesce(c.status, 'current') AS status,
       coalesce(c.type, 'Concept') + '|' + coalesce(c.status, 'current') AS state,
       COUNT { (c)-[:RELATED_TO|PART_OF]-() } AS degree, entries
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

# Whether any concept has a stored signature (stops at the first).
ANY_SIGNATURE = """
OPTIONAL MATCH (c:Concept) WHERE c.shape_at IS NOT NULL
WITH c LIMIT 1
RETURN c IS NOT NULL AS stored
"""

# Candidates sharing X's entries, from the full-text index over the stored tokens.
SHAPE_CANDIDATES = """
CALL db.index.fulltext.queryNodes('concept_shapes', $tokens, {limit: $pool}) YIELD node, score
WHERE node.id <> $id AND coalesce(node.status, 'current') <> 'superseded'
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
SHAPE_WITNESSES = """
UNWIND $matches AS t
MATCH (y:Concept {id: t.id})
CALL (y, t) {
  MATCH (y)-[r:RELATED_TO|PART_OF]-(m:Concept)
  WHERE coalesce(m.status, 'current') <> 'superseded'
  WITH m, CASE WHEN type(r) = 'RELATED_TO' THEN 'related' WHEN startNode(r) = y THEN 'part_of>' ELSE 'part_of<' END
          + ':' + coalesce(m.type, 'Concept') AS entry
  WHERE entry IN t.entries
  WITH entry, m ORDER BY m.id
  RETURN entry, collect(DISTINCT m.id)[..$per_entry] AS members
}
RETURN y.id AS id, entry, members
"""

# -- comparison of two entities --------------------------------------------------------

NEIGHBOURS = """
UNWIND $ids AS id
MATCH (c:Concept {id: id})-[:RELATED_TO|PART_OF]-(n:Concept)
WHERE coalesce(n.status, 'current') <> 'superseded'
RETURN c.id AS id, collect(DISTINCT n.id) AS neighbours
"""

# -- a topic by type ------------------------------------------------------------------

# A concept answers to its taxonomy type and to the finer type its extractor gave.
CONCEPT_TYPES = """
MATCH (c:Concept)
WHERE coalesce(c.status, 'current') <> 'superseded'
UNWIND [coalesce(c.type, 'Concept')] + CASE WHEN coalesce(c.extracted_type, '') IN ['', c.type] THEN []
                                            ELSE [c.extracted_type] END AS type
RETURN type, count(*) AS n
"""

CONCEPTS_OF_TYPES = """
MATCH (c:Concept)
WHERE (c.type IN $types OR c.extracted_type IN $types) AND coalesce(c.status, 'current') <> 'superseded'
  AND (size($anchors) = 0 OR EXISTS { (c)-[:RELATED_TO|PART_OF]-(a:Concept) WHERE a.id IN $anchors })
RETURN c.id AS id
ORDER BY coalesce(c.source_count, 0) DESC, c.name
LIMIT $k
"""

# -- where does this claim come from ----------------------------------------------------

CLAIM_VECTOR = """
CALL db.index.vector.queryNodes('claim_embedding', $pool, $embedding) YIELD node
WITH node, vector.similarity.cosine(node.embedding, $embedding) AS score
ORDER BY score DESC, node.id
LIMIT $k
RETURN node.id AS id, score
"""

# -- retrieval for the multi-hop eval ---------------------------------------------------

SOURCE_VECTOR = """
CALL db.index.vector.queryNodes('source_embedding', $pool, $embedding) YIELD node
WITH node WHERE coalesce(node.status, 'current') <> 'superseded'
WITH node, vector.similarity.cosine(node.embedding, $embedding) AS score
ORDER BY score DESC, node.id
LIMIT $k
RETURN node.id AS id, score
"""

# Claims nearest the question stand in for HippoRAG 2's query-to-triple matching.
CLAIM_VECTOR_CONCEPTS = """
CALL db.index.vector.queryNodes('claim_embedding', $pool, $embedding) YIELD node
WITH node WHERE coalesce(node.status, 'current') <> 'superseded'
WITH node, vector.similarity.cosine(node.embedding, $embedding) AS score
ORDER BY score DESC, node.id
LIMIT $k
MATCH (node)-[:ABOUT]->(c:Concept)
WHERE coalesce(c.status, 'current') <> 'superseded'
RETURN c.id AS id, max(score) AS score
"""

# Bridge retrieval: passages that share a concept with an anchor passage. A concept in many
# passages is a weak bridge (the boost is divided by its passage count); one past
# $max_degree is skipped so a hub cannot make a query scan the corpus.
BRIDGED_SOURCES = """
UNWIND $anchors AS a
MATCH (:Source {id: a.id})<-[:DERIVED_FROM]-(c:Concept)
WHERE coalesce(c.status, 'current') <> 'superseded'
WITH a, c, COUNT { (c)-[:DERIVED_FROM]->(:Source) } AS degree
WHERE 2 <= degree <= $max_degree
MATCH (c)-[:DERIVED_FROM]->(p:Source)
WHERE p.id <> a.id AND coalesce(p.status, 'current') <> 'superseded' AND p.embedding IS NOT NULL
WITH p, max(a.score / degree) AS boost
RETURN p.id AS id, boost, vector.similarity.cosine(p.embedding, $embedding) AS relevance
"""

# Specificity: HippoRAG 2 divides a seed's weight by the number of passages it occurs in.
CONCEPT_SOURCE_COUNTS = """
UNWIND $ids AS id
MATCH (c:Concept {id: id})
RETURN c.id AS id, COUNT { (c)-[:DERIVED_FROM]->(:Source) } AS sources
"""

SOURCES_OF_CONCEPTS = """
UNWIND $concepts AS c
MATCH (:Concept {id: c.id})-[:DERIVED_FROM]->(s:Source)
WHERE coalesce(s.status, 'current') <> 'superseded'
RETURN s.id AS id, max(c.score) AS score
"""

# -- node embeddings of the concept layer (structure.py; FastRP runs through the GDS client)

STRUCTURE_INDEX = """
CREATE VECTOR INDEX concept_structure IF NOT EXISTS FOR (n:Concept) ON (n.structure)
OPTIONS {indexConfig: {`vector.dimensions`: $dimension, `vector.similarity_function`: 'cosine'}}
"""

# Concepts placed like each seed: the nearest by structure, the seed itself included. A
# concept with no edge in the layer has an all-zero vector (FastRP describes a node by its
# neighbours only): it is placed nowhere, and the index cannot be asked with it.
STRUCTURE_NEIGHBOURS = """
UNWIND $seeds AS s
MATCH (c:Concept {id: s.id}) WHERE c.structure IS NOT NULL AND any(x IN c.structure WHERE x <> 0.0)
CALL db.index.vector.queryNodes('concept_structure', $k, c.structure) YIELD node AS n, score
WITH s, n, score WHERE coalesce(n.status, 'current') <> 'superseded'
RETURN n.id AS id, max(s.weight * score) AS score
"""

# -- sizes: the retrieved context against the whole corpus ------------------------------

# Answered from the count store, without reading a node: whether the corpus changed, and
# whether any answer was filed.
GRAPH_COUNTS = """
CALL () { MATCH (s:Source) RETURN count(s) AS sources }
CALL () { MATCH (a:Answer) RETURN count(a) AS answers }
RETURN sources, answers
"""

CORPUS_CHARACTERS = """
MATCH (s:Source)
WHERE coalesce(s.status, 'current') <> 'superseded'
RETURN count(s) AS sources, coalesce(sum(size(s.text)), 0) AS characters
"""

# -- the named GDS projection ---------------------------------------------------------

# Every build of a projection prefix, newest first (the caller keeps exact prefix matches),
# read inside a question's transaction; outside one the GDS client lists the catalog.
PROJECTIONS = """
CALL gds.graph.list() YIELD graphName, nodeCount, relationshipCount, schema, creationTime
WITH graphName, nodeCount, relationshipCount, schema, creationTime
WHERE graphName STARTS WITH $prefix
RETURN graphName AS name, nodeCount AS nodes, relationshipCount AS relationships,
       keys(schema.relationships) AS types, creationTime AS created
ORDER BY created DESC, name DESC
"""

# Concepts, claims and sources with the edges between them, all undirected (HippoRAG runs
# PPR on an undirected graph); edges without a weight count once. Only knowledge edges: a
# stage-2 verdict (NOT_SAME_AS) is not a fact, so no walk follows it. The GDS client runs
# it (``gds.graph.project.cypher``), which wants the projection's own map as the one column.
PROJECTION_CREATE = """
MATCH (n) WHERE n:Concept OR n:Claim OR n:Source
OPTIONAL MATCH (n)-[r:ABOUT|RELATED_TO|DERIVED_FROM|PART_OF]->(m)
WHERE m:Concept OR m:Claim OR m:Source
RETURN gds.graph.project($graph, n, m, {
  sourceNodeLabels: labels(n), targetNodeLabels: labels(m), relationshipType: type(r),
  relationshipProperties: {weight: toFloat(coalesce(r.weight, 1.0))}
}, {undirectedRelationshipTypes: ['*']})
"""

# What the projection should hold now; undirected edges count twice in GDS.
PROJECTABLE_COUNTS = """
CALL () { MATCH (n:Concept) RETURN count(n) AS concepts }
CALL () { MATCH (n:Claim) RETURN count(n) AS claims }
CALL () { MATCH (n:Source) RETURN count(n) AS sources }
CALL () { MATCH ()-[r:ABOUT|RELATED_TO]->() RETURN count(r) AS relates }
CALL () { MATCH ()-[r:DERIVED_FROM]->() RETURN count(r) AS derived }
CALL () { MATCH ()-[r:PART_OF]->() RETURN count(r) AS parts }
RETURN concepts + claims + sources AS nodes, 2 * (relates + derived + parts) AS relationships
"""

# -- global questions: community reports ------------------------------------------------

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
COMMUNITY_CLAIMS = """
CALL db.index.vector.queryNodes('claim_embedding', $pool, $embedding) YIELD node AS cl, score
WHERE coalesce(cl.status, 'current') <> 'superseded'
  AND EXISTS { (cl)-[:ABOUT]->(:Concept)-[:IN_COMMUNITY]->(k:Community) WHERE k.id IN $communities }
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

# -- answers filed back -------------------------------------------------------------------

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
