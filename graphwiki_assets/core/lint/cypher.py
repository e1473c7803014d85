"""All Cypher of the lint / review / resolve / impact concern. Every value arrives as a parameter.

Check queries share one shape so one function turns any of them into a ``CheckResult``:
they return a single row ``{total, count, rows}`` where ``rows`` is the (capped) list of
offenders, each a map whose ``id`` says which node or relationship it is.
"""

from __future__ import annotations

from graphwiki_assets.core.store.schema import in_play

# Checks look at nodes still in play (in_play): superseded nodes are history, not defects.

ORPHAN_CONCEPTS = f"""
CALL () {{ MATCH (c:Concept) WHERE {in_play('c')} RETURN count(c) AS total }}
CALL () {{
  MATCH (c:Concept) WHERE {in_play('c')} AND NOT EXISTS {{ (c)-[:ABOUT|RELATED_TO|PART_OF|DERIVED_FROM]-() }}
  WITH c ORDER BY c.id
  RETURN count(c) AS count, collect({{id: c.id, name: c.name, type: c.type}})[..$cap] AS rows
}}
RETURN total, count, rows
"""

OPEN_DISPUTES = f"""
CALL () {{ MATCH (:Claim)-[r:CONTRADICTS]->(:Claim) RETURN count(r) AS total }}
CALL () {{
  MATCH (a:Claim)-[r:CONTRADICTS]->(b:Claim)
  WHERE {in_play('a')} AND {in_play('b')}
  WITH a, b, coalesce(r.detected_at, a.created_at, b.created_at) AS since
  WITH a, b, since, CASE WHEN since IS NULL THEN null ELSE duration.inDays(since, $now).days END AS age
  ORDER BY age DESC, a.id, b.id
  RETURN count(*) AS count, collect({{
    id: a.id + ' vs ' + b.id, claim: a.id, opponent: b.id, age_days: age, since: toString(since),
    about: [(a)-[:ABOUT]->(c:Concept) | c.name],
    claim_text: a.text, opponent_text: b.text
  }})[..$cap] AS rows
}}
RETURN total, count, rows
"""

# -- staleness: "touched" = last seen by an ingest run ------------------------------

STALE_SOURCES = """
CALL () { MATCH (s:Source) WHERE coalesce(s.status, 'current') = 'current' RETURN count(s) AS total }
CALL () {
  MATCH (s:Source) WHERE coalesce(s.status, 'current') = 'current'
  WITH s, coalesce(s.last_seen_at, s.ingested_at) AS seen
  WHERE seen < $cutoff
  WITH s, seen ORDER BY seen, s.id
  RETURN count(s) AS count, collect({id: s.id, path: s.path, last_seen_at: toString(seen),
                                     age_days: duration.inDays(seen, $now).days})[..$cap] AS rows
}
RETURN total, count, rows
"""

# A concept counts as touched when it was updated or when any of its sources was re-seen.
STALE_CONCEPTS = f"""
CALL () {{ MATCH (c:Concept) WHERE {in_play('c')} RETURN count(c) AS total }}
CALL () {{
  MATCH (c:Concept) WHERE {in_play('c')}
  CALL (c) {{ OPTIONAL MATCH (c)-[:DERIVED_FROM]->(s:Source) RETURN max(s.last_seen_at) AS seen }}
  WITH c, CASE WHEN seen IS NULL OR c.updated_at > seen THEN c.updated_at ELSE seen END AS touched
  WHERE touched < $cutoff
  WITH c, touched ORDER BY touched, c.id
  RETURN count(c) AS count, collect({{id: c.id, name: c.name, touched_at: toString(touched),
                                      age_days: duration.inDays(touched, $now).days}})[..$cap] AS rows
}}
RETURN total, count, rows
"""

# A concept awaiting corroboration waits for evidence, not for a reviewer: never overdue.
STALE_NEEDS_REVIEW = """
CALL () {
  MATCH (n) WHERE (n:Concept OR n:Claim) AND n.needs_review = true AND coalesce(n.review_reason, '') <> $awaiting
  RETURN count(n) AS total
}
CALL () {
  MATCH (n) WHERE (n:Concept OR n:Claim) AND n.needs_review = true AND coalesce(n.review_reason, '') <> $awaiting
  WITH n, coalesce(n.needs_review_since, n.updated_at, n.created_at) AS since
  WHERE since IS NULL OR since < $cutoff
  WITH n, since ORDER BY since, n.id
  RETURN count(n) AS count, collect({id: n.id, label: labels(n)[0], since: toString(since),
                                     age_days: CASE WHEN since IS NULL THEN null
                                               ELSE duration.inDays(since, $now).days END,
                                     reason: n.review_reason})[..$cap] AS rows
}
RETURN total, count, rows
"""

# -- integrity ---------------------------------------------------------------------

_GRAPH_SIZE = """
CALL () { MATCH (n) RETURN count(n) AS nodes }
CALL () { MATCH ()-[r]->() RETURN count(r) AS rels }
"""

# Which labels each relationship may join.
_WRONG_ENDPOINTS = """
MATCH (a)-[r:DERIVED_FROM|ABOUT|RELATED_TO|NOT_SAME_AS|CONTRADICTS|PART_OF]->(b)
WITH a, r, b, CASE type(r)
  WHEN 'DERIVED_FROM' THEN (a:Concept OR a:Claim) AND b:Source
  WHEN 'ABOUT' THEN a:Claim AND b:Concept
  WHEN 'CONTRADICTS' THEN a:Claim AND b:Claim
  ELSE a:Concept AND b:Concept
  END AS fits
WHERE NOT fits
RETURN coalesce(a.id, elementId(a)) + ' -[' + type(r) + ']-> '
       + coalesce(b.id, elementId(b)) AS id,
       'wrong endpoints: ' + coalesce(labels(a)[0], '?') + ' -> ' + coalesce(labels(b)[0], '?') AS problem
"""

DANGLING_REFERENCES = _GRAPH_SIZE + """
CALL () {
  CALL () {
    MATCH (j:Judgment)
    WITH j, [x IN [
      CASE WHEN j.candidate_id IS NOT NULL AND NOT EXISTS { MATCH (:Concept {id: j.candidate_id}) }
           THEN 'candidate_id -> ' + j.candidate_id END,
      CASE WHEN j.concept_id IS NOT NULL AND NOT EXISTS { MATCH (:Concept {id: j.concept_id}) }
           THEN 'concept_id -> ' + j.concept_id END,
      CASE WHEN j.source_id IS NOT NULL AND NOT EXISTS { MATCH (:Source {id: j.source_id}) }
           THEN 'source_id -> ' + j.source_id END] WHERE x IS NOT NULL] AS bad
    UNWIND bad AS problem
    RETURN j.id AS id, 'Judgment.' + problem + ' (missing)' AS problem
  UNION ALL
    MATCH (c:Concept) WHERE c.merged_into IS NOT NULL AND NOT EXISTS { MATCH (:Concept {id: c.merged_into}) }
    RETURN c.id AS id, 'Concept.merged_into -> ' + c.merged_into + ' (missing)' AS problem
  UNION ALL
    MATCH (c:Claim) WHERE c.superseded_by IS NOT NULL AND NOT EXISTS { MATCH (:Claim {id: c.superseded_by}) }
    RETURN c.id AS id, 'Claim.superseded_by -> ' + c.superseded_by + ' (missing)' AS problem
  UNION ALL
    MATCH (s:Source) WHERE s.superseded_by IS NOT NULL AND NOT EXISTS { MATCH (:Source {id: s.superseded_by}) }
    RETURN s.id AS id, 'Source.superseded_by -> ' + s.superseded_by + ' (missing)' AS problem
  UNION ALL
    MATCH (c:Claim) WHERE NOT EXISTS { (c)-[:ABOUT]->(:Concept) }
    RETURN c.id AS id, 'claim is about no concept' AS problem
  UNION ALL
""" + _WRONG_ENDPOINTS + """
  }
  WITH id, problem ORDER BY id, problem
  RETURN count(*) AS count, collect({id: id, problem: problem})[..$cap] AS rows
}
RETURN nodes + rels AS total, count, rows
"""

PROVENANCE = """
CALL () { MATCH (n) WHERE n:Concept OR n:Claim RETURN count(n) AS total }
CALL () {
  MATCH (n) WHERE (n:Concept OR n:Claim) AND NOT EXISTS { (n)-[:DERIVED_FROM]->(:Source) }
  WITH n ORDER BY n.id
  RETURN count(n) AS count, collect({id: n.id, label: labels(n)[0], name: coalesce(n.name, n.text)})[..$cap] AS rows
}
RETURN total, count, rows
"""

# disputed <=> an open CONTRADICTS (with a claim that is not superseded). total = the claims
# where the flag matters (flagged or contradicted), so 1 - ratio is the flag's accuracy.
DISPUTED_IFF_CONTRADICTED = f"""
MATCH (c:Claim) WHERE {in_play('c')}
WITH c, coalesce(c.status, '') = 'disputed' AS flagged,
     COUNT {{ (c)-[:CONTRADICTS]-(o:Claim) WHERE {in_play('o')} }} AS open
WHERE flagged OR open > 0
WITH c, flagged, open ORDER BY c.id
WITH count(c) AS total, collect(CASE WHEN flagged <> (open > 0) THEN
       {{id: c.id, status: c.status, open_contradictions: open,
        problem: CASE WHEN flagged THEN 'disputed but no open CONTRADICTS' ELSE 'open CONTRADICTS but not disputed' END}}
     END) AS wrong
RETURN total, size(wrong) AS count, wrong[..$cap] AS rows
"""

SOURCE_TEXTS_PAGE = """
MATCH (s:Source) WHERE s.id > $after AND ($ids IS NULL OR s.id IN $ids)
RETURN s.id AS id, s.text AS text, s.sha256 AS sha256, s.path AS path
ORDER BY s.id LIMIT $page
"""

# The latest Source of each path (the one a changed file would supersede).
LATEST_SOURCE_PER_PATH = """
MATCH (s:Source) WHERE s.path IS NOT NULL
WITH s ORDER BY s.ingested_at DESC, s.id
WITH s.path AS path, collect(s)[0] AS s
RETURN s.id AS id, path, s.sha256 AS sha256, COUNT { (n)-[:DERIVED_FROM]->(s) } AS dependents
ORDER BY path
"""

OVERSIZED_HUBS = f"""
CALL () {{ MATCH (c:Concept) WHERE {in_play('c')} RETURN count(c) AS total }}
CALL () {{
  MATCH (c:Concept) WHERE {in_play('c')}
  WITH c, COUNT {{ (c)--() }} AS degree WHERE degree > $limit
  WITH c, degree ORDER BY degree DESC, c.id
  RETURN count(c) AS count, collect({{id: c.id, name: c.name, degree: degree}})[..$cap] AS rows
}}
RETURN total, count, rows
"""

# $required: {label: [property]}; $allowed: {label: {property: [value]}}. A relationship of the
# old schema (RELATES_TO with a kind) left behind is reported too: the migration missed it.
MISSING_PROPERTIES = """
CALL () { MATCH (n) WHERE n:Source OR n:Concept OR n:Claim OR n:Judgment RETURN count(n) AS nodes }
CALL () {
  CALL () {
    MATCH (n) WHERE n:Source OR n:Concept OR n:Claim OR n:Judgment
    WITH n, [l IN labels(n) WHERE l IN keys($required)][0] AS label
    WITH n, label, coalesce($allowed[label], {}) AS allowed
    WITH n, label,
         [p IN $required[label] WHERE n[p] IS NULL | 'missing ' + p]
         + [p IN keys(allowed) WHERE n[p] IS NOT NULL AND NOT n[p] IN allowed[p]
            | 'invalid ' + p + '=' + toString(n[p])] AS problems
    WHERE size(problems) > 0
    RETURN n.id AS id, label, problems
  UNION ALL
    MATCH (a)-[r:RELATES_TO]->(b)
    RETURN coalesce(a.id, elementId(a)) + ' -[RELATES_TO]-> ' + coalesce(b.id, elementId(b)) AS id,
           'RELATES_TO' AS label, ['old relationship type, kind=' + coalesce(r.kind, 'null')] AS problems
  }
  WITH id, label, problems ORDER BY label, id
  RETURN count(*) AS count, collect({id: coalesce(id, '(no id)'), label: label, problems: problems})[..$cap] AS rows
}
RETURN nodes AS total, count, rows
"""

GRAPH_COUNTS = """
CALL () { MATCH (s:Source) RETURN count(s) AS sources }
CALL () { MATCH (c:Concept) RETURN count(c) AS concepts }
CALL () { MATCH (c:Claim) RETURN count(c) AS claims }
CALL () { MATCH (j:Judgment) RETURN count(j) AS judgments }
CALL () { MATCH ()-[r]->() RETURN count(r) AS relationships }
RETURN sources, concepts, claims, judgments, relationships
"""

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
    quantifier = "{1,}" if depth is None else "{1,%d}" % depth
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

# -- reviewing stage-2 judgments -------------------------------------------------------

_JUDGMENT_FIELDS = """j {.id, .verdict, .mention, .mention_context, .candidate_id, .candidate_name, .concept_id,
   .score, .backend, .reason, .source_id, .reviewed, .review_verdict}"""

JUDGMENT_COUNTS = """
MATCH (j:Judgment)
RETURN count(j) AS total, count(CASE WHEN NOT coalesce(j.reviewed, false) THEN 1 END) AS unreviewed
"""

# Up to $size of each verdict, so the calls that kept two apart are sampled as well as merges.
JUDGMENT_SAMPLE = f"""
UNWIND ['SAME', 'RELATED', 'DIFFERENT', 'NOT_SAME'] AS verdict
CALL (verdict) {{
  MATCH (j:Judgment {{verdict: verdict}}) WHERE NOT coalesce(j.reviewed, false)
  WITH j ORDER BY rand() LIMIT $size
  RETURN j
}}
OPTIONAL MATCH (s:Source {{id: j.source_id}})
RETURN {_JUDGMENT_FIELDS} AS j, s.path AS source_path
"""

JUDGMENT = f"""
MATCH (j:Judgment {{id: $id}})
OPTIONAL MATCH (s:Source {{id: j.source_id}})
RETURN {_JUDGMENT_FIELDS} AS j, s.path AS source_path
"""

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


MERGE_MOVES = ([_move("ABOUT", False)]
               + [_move(rel, out) for rel in ("RELATED_TO", "PART_OF", "NOT_SAME_AS") for out in (True, False)])

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
