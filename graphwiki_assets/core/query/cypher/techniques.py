"""The techniques of a question's shape: what is X (traversal), what else relates to X
(Personalized PageRank), how X connects to Y (paths), a comparison, a topic by type, where
a claim comes from.
"""

from graphwiki_assets.core.store.schema import in_play

# -- "what is X": N-hop traversal, one hop per call, fan-out bounded per node -----------

# Claims about each concept that open with one of its names (an article before it allowed):
# the candidates for its definition (definitions.py reads their form), the most corroborated
# and the shortest first.
DEFINING_CANDIDATES = f"""
UNWIND range(0, size($ids) - 1) AS rank
MATCH (c:Concept {{id: $ids[rank]}})
WITH rank, c, [n IN [c.name] + coalesce(c.aliases, []) | toLower(n)] AS names
CALL (c, names) {{
  MATCH (cl:Claim)-[:ABOUT]->(c)
  WHERE {in_play("cl")}
  WITH cl, toLower(cl.text) AS text
  WHERE any(n IN names WHERE text STARTS WITH n OR text STARTS WITH 'the ' + n
                             OR text STARTS WITH 'a ' + n OR text STARTS WITH 'an ' + n)
  // the sentence the extractor read as the concept's definition ("A DCO is lightweight way ...")
  WITH cl, coalesce(c.definition, '') <> '' AND cl.text STARTS WITH left(c.definition, 80) AS stated
  RETURN cl, stated
  ORDER BY stated DESC, coalesce(cl.independent_sources, 1) DESC, size(cl.text), cl.id
  LIMIT $limit
}}
RETURN c.id AS concept, cl.id AS id, cl.text AS text, c.name AS name, coalesce(c.aliases, []) AS aliases,
       stated
ORDER BY rank
"""


TRAVERSAL_HOP = f"""
UNWIND $frontier AS fid
MATCH (c:Concept {{id: fid}})-[r:RELATED_TO|PART_OF]-(n:Concept)
WHERE NOT n.id IN $seen AND {in_play("n")}
WITH c, n, max(coalesce(r.weight, 1)) AS weight, collect(DISTINCT toLower(type(r))) AS kinds
WITH c, collect({{n: n, weight: weight, kinds: kinds}}) AS near
// Picks go by weight first, so none can weigh less than the fanout-th strongest edge: only
// those at or above it are scored against the question (one embedding read each), and a hub
// costs its strong edges, not its degree. The picks are exactly those of scoring them all.
CALL (near) {{
  UNWIND near AS x
  WITH x.weight AS w ORDER BY w DESC LIMIT $fanout
  RETURN min(w) AS cut
}}
UNWIND near AS x
WITH c, size(near) AS degree, x WHERE x.weight >= cut
WITH c, degree, x.n AS n, x.weight AS weight, x.kinds AS kinds,
     CASE WHEN x.n.embedding IS NULL THEN 0.0 ELSE vector.similarity.cosine(x.n.embedding, $question) END AS relevance
ORDER BY weight DESC, relevance DESC, n.id
WITH c, degree, collect({{id: n.id, kinds: kinds, weight: weight}})[..$fanout] AS picks
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

RELATED_PPR = f"""
CALL gds.pageRank.stream($graph, {{
  sourceNodes: $seeds, dampingFactor: $damping, relationshipWeightProperty: 'weight', tolerance: $tolerance
}})
YIELD nodeId, score
WITH nodeId, score WHERE score > 0 AND NOT nodeId IN $seeds
ORDER BY score DESC
LIMIT $limit
WITH gds.util.asNode(nodeId) AS c, score
WHERE {in_play("c")}
RETURN c.id AS id, score
"""

# The client's PageRank stream (``ppr_via="client"``) ranks graph ids; these are the concepts
# they are, in rank order, superseded ones left out as RELATED_PPR leaves them.
RANKED_CONCEPTS = f"""
UNWIND $ranked AS r
MATCH (c) WHERE id(c) = r.node_id
WITH c, r WHERE {in_play("c")}
RETURN c.id AS id, r.score AS score
ORDER BY r.rank
"""

# "what else relates to X" by local pushes (local_ppr.py): the concept layer as the projection
# holds it, read a few nodes at a time. A node's edge count comes from the store's degree
# counts, without reading its edges; this query gives the seeds' counts.
LAYER_DEGREES = """
UNWIND $ids AS id
MATCH (c:Concept {id: id})
RETURN c.id AS id, COUNT { (c)-[:RELATED_TO|PART_OF]-() } AS degree
"""

# Each neighbour with its own edge count, read where the match already holds it: looking
# ten thousand ids up again afterwards cost more than the neighbours themselves.
LAYER_NEIGHBOURS = """
UNWIND $ids AS id
MATCH (c:Concept {id: id})-[r:RELATED_TO|PART_OF]-(n:Concept)
RETURN c.id AS id,
       collect([n.id, toFloat(coalesce(r.weight, 1.0)), COUNT { (n)-[:RELATED_TO|PART_OF]-() }]) AS near
"""

CONCEPTS_IN_PLAY = f"""
UNWIND $ids AS id
MATCH (c:Concept {{id: id}})
WHERE {in_play("c")}
RETURN c.id AS id
"""

# Weighted personalisation by linearity: GDS weighs all sourceNodes of one run equally, so
# each group of equally weighted seeds is one run and the runs are summed with their weight.
WEIGHTED_PPR_SOURCES = f"""
UNWIND $groups AS g
CALL gds.pageRank.stream($graph, {{
  sourceNodes: g.nodes, dampingFactor: $damping, relationshipWeightProperty: 'weight',
  maxIterations: $iterations, concurrency: $concurrency
}})
YIELD nodeId, score
WITH nodeId, sum(g.weight * score) AS score
WHERE score > 0
ORDER BY score DESC
WITH gds.util.asNode(nodeId) AS n, score
WHERE n:Source AND {in_play("n")}
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

# -- comparison of two entities --------------------------------------------------------

NEIGHBOURS = f"""
UNWIND $ids AS id
MATCH (c:Concept {{id: id}})-[:RELATED_TO|PART_OF]-(n:Concept)
WHERE {in_play("n")}
RETURN c.id AS id, collect(DISTINCT n.id) AS neighbours
"""

# -- a topic by type ------------------------------------------------------------------

# A concept answers to its taxonomy type and to the finer type its extractor gave; `taxonomy`
# says whether some concept carries the type as its taxonomy's (not only as an extractor's word).
CONCEPT_TYPES = f"""
MATCH (c:Concept)
WHERE {in_play("c")}
UNWIND [[coalesce(c.type, 'Concept'), true]] + CASE WHEN coalesce(c.extracted_type, '') IN ['', c.type] THEN []
                                                    ELSE [[c.extracted_type, false]] END AS typed
RETURN typed[0] AS type, count(*) AS n, any(x IN collect(typed[1]) WHERE x) AS taxonomy
"""

CONCEPTS_OF_TYPES = f"""
MATCH (c:Concept)
WHERE (c.type IN $types OR c.extracted_type IN $types) AND {in_play("c")}
  AND (size($anchors) = 0 OR EXISTS {{ (c)-[:RELATED_TO|PART_OF]-(a:Concept) WHERE a.id IN $anchors }})
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
