"""The concept layer as GDS sees it: the named projection, its FastRP node embeddings, and
the sizes that tell whether it is current.
"""

from graphwiki_assets.core.store.schema import in_play

# -- node embeddings of the concept layer (structure.py; FastRP runs through the GDS client)

STRUCTURE_INDEX = """
CREATE VECTOR INDEX concept_structure IF NOT EXISTS FOR (n:Concept) ON (n.structure)
OPTIONS {indexConfig: {`vector.dimensions`: $dimension, `vector.similarity_function`: 'cosine'}}
"""

# Concepts placed like each seed: the nearest by structure, the seed itself included. A
# concept with no edge in the layer has an all-zero vector (FastRP describes a node by its
# neighbours only): it is placed nowhere, and the index cannot be asked with it.
STRUCTURE_NEIGHBOURS = f"""
UNWIND $seeds AS s
MATCH (c:Concept {{id: s.id}}) WHERE c.structure IS NOT NULL AND any(x IN c.structure WHERE x <> 0.0)
CALL db.index.vector.queryNodes('concept_structure', $k, c.structure) YIELD node AS n, score
WITH s, n, score WHERE {in_play("n")}
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

CORPUS_CHARACTERS = f"""
MATCH (s:Source)
WHERE {in_play("s")}
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
