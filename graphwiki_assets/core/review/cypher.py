"""All Cypher of the review concern: what writes a decision back into the graph (a judgment
confirmed or undone, a dispute settled by hand, needs_review flagged on what a change reaches).
Every value arrives as a parameter.
"""

from __future__ import annotations

# -- impact analysis -----------------------------------------------------------------

FIND_SOURCE = """
MATCH (s:Source) WHERE s.id = $ref OR s.path = $ref OR $ref IN coalesce(s.paths, [])
RETURN s.id AS id, s.path AS path, s.status AS status
ORDER BY CASE WHEN s.id = $ref THEN 0 ELSE 1 END, s.ingested_at DESC
LIMIT 1
"""

IMPACT_TYPES = "DERIVED_FROM|ABOUT|RELATED_TO|CONTRADICTS|PART_OF"


def impact_query(depth: int | None) -> str:
    """Everything within ``depth`` hops of a source (None = unbounded), with its distance.

    A quantifier cannot be a parameter, so it is built from a validated int only. The
    path never enters another Source: a change flows to what derives from the source
    and on through the concepts and claims, not back out into other sources.
    """
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 1):
        raise ValueError(f"depth must be an int >= 1 or None (unbounded), not {depth!r}")
    quantifier = "{1,}" if depth is None else f"{{1,{depth}}}"
    return f"""
MATCH p = ANY SHORTEST (s:Source {{id: $id}})(()-[:{IMPACT_TYPES}]-(x WHERE NOT x:Source)){quantifier}(n)
RETURN n.id AS id, labels(n)[0] AS label, coalesce(n.name, n.text) AS name, n.status AS status,
       length(p) AS distance
ORDER BY distance, label, id
"""


FLAG_NEEDS_REVIEW = """
UNWIND $ids AS id
CALL (id) {
  MATCH (n:Concept {id: id}) RETURN n
  UNION
  MATCH (n:Claim {id: id}) RETURN n
}
SET n.needs_review_since = CASE WHEN n.needs_review = true THEN coalesce(n.needs_review_since, $now) ELSE $now END
SET n.needs_review = true, n.review_reason = $reason
RETURN n.id AS id
"""

# -- settling a dispute by hand ------------------------------------------------------

DISPUTE_PAIR = """
OPTIONAL MATCH (a:Claim {id: $claim})
OPTIONAL MATCH (b:Claim {id: $winner})
RETURN a IS NOT NULL AS claim_exists, b IS NOT NULL AS winner_exists, a.status AS claim_status,
       b.status AS winner_status, EXISTS { (a)-[:CONTRADICTS]-(b) } AS linked
"""

# Both keep their CONTRADICTS edge; then every claim the loser was contradicting is
# re-derived (disputed <=> an open CONTRADICTS), the winner among them.
SETTLE_BY_HAND = """
MATCH (loser:Claim {id: $loser}), (winner:Claim {id: $winner})
SET loser.status = 'superseded', loser.superseded_by = winner.id,
    loser.decided_by = $by, loser.decided_at = $now, loser.decision_reason = $reason,
    winner.decided_by = $by, winner.decided_at = $now, winner.decision_reason = $reason
WITH loser
MATCH (loser)-[:CONTRADICTS]-(o:Claim) WHERE coalesce(o.status, 'current') <> 'superseded'
WITH DISTINCT o
SET o.status = CASE WHEN EXISTS { (o)-[:CONTRADICTS]-(p:Claim) WHERE coalesce(p.status, 'current') <> 'superseded' }
                    THEN 'disputed' ELSE 'current' END
RETURN o.id AS id, o.status AS status
"""

# -- recording a review on a judgment -------------------------------------------------

CONCEPT = """
MATCH (c:Concept {id: $id})
RETURN c.id AS id, c.name AS name, c.type AS type, coalesce(c.aliases, []) AS aliases,
       coalesce(c.keys, []) AS keys, c.status AS status, c.merged_into AS merged_into
"""

MARK_REVIEWED = """
MATCH (j:Judgment {id: $id})
SET j.previous_concept_id = CASE WHEN $concept_id IS NULL OR $concept_id = j.concept_id
                                 THEN j.previous_concept_id ELSE j.concept_id END
SET j.concept_id = coalesce($concept_id, j.concept_id), j.reviewed = true, j.review_verdict = $verdict,
    j.review_action = $action, j.reviewed_by = $by, j.reviewed_at = $now, j.review_reason = $reason
"""

RECOUNT_SOURCES = """
UNWIND $ids AS id
MATCH (c:Concept {id: id})
SET c.source_count = COUNT { (c)-[:DERIVED_FROM]->(:Source) }
"""

# -- a rejected SAME: split the mention back out --------------------------------------

SPLIT_CONTEXT = """
MATCH (s:Source {id: $source_id})
RETURN s.text AS text,
       COLLECT { MATCH (cl:Claim)-[:DERIVED_FROM]->(s)
                 WHERE EXISTS { (cl)-[:ABOUT]->(:Concept {id: $concept_id}) }
                 RETURN cl {.id, .text} AS claim ORDER BY claim.id } AS claims,
       COUNT { (:Concept {id: $concept_id})-[:DERIVED_FROM]->(:Source) } AS sources
"""

SPLIT_CREATE = """
MATCH (c:Concept {id: $concept_id}), (s:Source {id: $source_id})
MERGE (n:Concept {id: $new.id})
ON CREATE SET n += $new, n.status = 'current', n.needs_review = false, n.summary_dirty = false,
              n.created_at = $now
SET n.updated_at = $now
MERGE (n)-[d:DERIVED_FROM]->(s) ON CREATE SET d.created_at = $now
MERGE (n)-[r:NOT_SAME_AS]->(c) ON CREATE SET r.judgment_id = $judgment_id, r.created_at = $now
SET c.aliases = $aliases, c.keys = $keys, c.updated_at = $now, c.summary_dirty = true
"""

# $claims: [{id, move}]; a moved claim leaves the old node, a shared one is about both.
SPLIT_MOVE_CLAIMS = """
MATCH (n:Concept {id: $new_id}), (c:Concept {id: $concept_id})
UNWIND $claims AS m
MATCH (cl:Claim {id: m.id})
MERGE (cl)-[a:ABOUT]->(n) ON CREATE SET a.created_at = $now
WITH cl, c, m
OPTIONAL MATCH (cl)-[old:ABOUT]->(c) WHERE m.move
DELETE old
"""

# Associations (co-stated in a claim) follow their claims: carried to the new node for
# moved and shared claims, dropped from the old one for moved claims.
SPLIT_MOVE_ASSOCIATIONS = """
MATCH (c:Concept {id: $concept_id})-[r:RELATED_TO]-(o:Concept), (n:Concept {id: $new_id})
WHERE o <> n AND any(x IN coalesce(r.claims, []) WHERE x IN $moved OR x IN $shared)
WITH n, o, r, startNode(r) = c AS outgoing, [x IN r.claims WHERE x IN $moved OR x IN $shared] AS carried,
     [x IN r.claims WHERE NOT x IN $moved] AS kept
CALL (n, o, outgoing, carried) {
  WITH * WHERE outgoing
  MERGE (n)-[a:RELATED_TO]->(o) ON CREATE SET a.claims = [], a.created_at = $now
  SET a.claims = a.claims + [x IN carried WHERE NOT x IN a.claims]
  SET a.weight = size(a.claims)
}
CALL (n, o, outgoing, carried) {
  WITH * WHERE NOT outgoing
  MERGE (o)-[a:RELATED_TO]->(n) ON CREATE SET a.claims = [], a.created_at = $now
  SET a.claims = a.claims + [x IN carried WHERE NOT x IN a.claims]
  SET a.weight = size(a.claims)
}
SET r.claims = kept, r.weight = size(kept)
WITH r, kept WHERE size(kept) = 0
DELETE r
"""

# The old node no longer cites the source, unless that was its only citation.
SPLIT_DROP_CITATION = """
MATCH (c:Concept {id: $concept_id})-[d:DERIVED_FROM]->(:Source {id: $source_id})
WHERE COUNT { (c)-[:DERIVED_FROM]->(:Source) } > 1
DELETE d
"""

# -- a rejected NOT_SAME: merge the mention's node into the candidate -----------------


def _move(rel: str, outgoing: bool) -> str:
    """Re-point one relationship type of the absorbed node at the survivor (fixed identifiers only)."""
    old = f"(x)-[r:{rel}]->(o)" if outgoing else f"(o)-[r:{rel}]->(x)"
    new = f"(s)-[m:{rel}]->(o)" if outgoing else f"(o)-[m:{rel}]->(s)"
    return f"""
MATCH (x:Concept {{id: $absorbed}}), (s:Concept {{id: $survivor}})
MATCH {old} WHERE o <> s AND o <> x
MERGE {new}
ON CREATE SET m = properties(r)
ON MATCH SET m.claims = CASE WHEN r.claims IS NULL THEN m.claims
                             ELSE coalesce(m.claims, []) + [c IN r.claims WHERE NOT c IN coalesce(m.claims, [])] END
SET m.weight = CASE WHEN m.claims IS NULL THEN m.weight ELSE size(m.claims) END
DELETE r
"""


MERGE_MOVES = [_move("ABOUT", False)] + [
    _move(rel, out) for rel in ("RELATED_TO", "PART_OF", "NOT_SAME_AS") for out in (True, False)
]

# Links between the two would become self-loops; the judgment keeps that history.
MERGE_DROP_LINKS = """
MATCH (:Concept {id: $absorbed})-[r:RELATED_TO|PART_OF|NOT_SAME_AS]-(:Concept {id: $survivor})
DELETE r
"""

# Citations are copied, not moved: the absorbed node keeps its own provenance as history.
MERGE_COPY_CITATIONS = """
MATCH (x:Concept {id: $absorbed})-[:DERIVED_FROM]->(src:Source), (s:Concept {id: $survivor})
MERGE (s)-[d:DERIVED_FROM]->(src) ON CREATE SET d.created_at = $now
"""

MERGE_MARK = """
MATCH (x:Concept {id: $absorbed}), (s:Concept {id: $survivor})
SET s.aliases = $aliases, s.keys = $keys, s.updated_at = $now, s.summary_dirty = true,
    x.status = 'superseded', x.merged_into = s.id, x.merged_at = $now, x.merged_by = $by,
    x.needs_review = false, x.updated_at = $now
"""
