"""All Cypher of the lint concern (read only). Every value arrives as a parameter.

Check queries share one shape so one function turns any of them into a ``CheckResult``:
they return a single row ``{total, count, rows}`` where ``rows`` is the (capped) list of
offenders, each a map whose ``id`` says which node or relationship it is.
"""

from __future__ import annotations

from graphwiki_assets.core.store.schema import in_play

# Checks look at nodes still in play (in_play): superseded nodes are history, not defects.

ORPHAN_CONCEPTS = f"""
CALL () {{ MATCH (c:Concept) WHERE {in_play("c")} RETURN count(c) AS total }}
CALL () {{
  MATCH (c:Concept) WHERE {in_play("c")} AND NOT EXISTS {{ (c)-[:ABOUT|RELATED_TO|PART_OF|DERIVED_FROM]-() }}
  WITH c ORDER BY c.id
  RETURN count(c) AS count, collect({{id: c.id, name: c.name, type: c.type}})[..$cap] AS rows
}}
RETURN total, count, rows
"""

OPEN_DISPUTES = f"""
CALL () {{ MATCH (:Claim)-[r:CONTRADICTS]->(:Claim) RETURN count(r) AS total }}
CALL () {{
  MATCH (a:Claim)-[r:CONTRADICTS]->(b:Claim)
  WHERE {in_play("a")} AND {in_play("b")}
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
CALL () {{ MATCH (c:Concept) WHERE {in_play("c")} RETURN count(c) AS total }}
CALL () {{
  MATCH (c:Concept) WHERE {in_play("c")}
  CALL (c) {{ OPTIONAL MATCH (c)-[:DERIVED_FROM]->(s:Source) RETURN max(s.last_seen_at) AS seen }}
  WITH c, CASE WHEN seen IS NULL OR c.updated_at > seen THEN c.updated_at ELSE seen END AS touched
  WHERE touched < $cutoff
  WITH c, touched ORDER BY touched, c.id
  RETURN count(c) AS count, collect({{id: c.id, name: c.name, touched_at: toString(touched),
                                      age_days: duration.inDays(touched, $now).days}})[..$cap] AS rows
}}
RETURN total, count, rows
"""

# Live claims whose newest dated source is older than the cutoff, counted, and a random sample
# of them; a claim none of whose sources is dated is not dated, so never counted as outdated.
POSSIBLY_OUTDATED = f"""
MATCH (c:Claim) WHERE {in_play("c")}
CALL (c) {{
  OPTIONAL MATCH (c)-[:DERIVED_FROM]->(s:Source) WHERE s.date IS NOT NULL
  WITH s ORDER BY s.date DESC, s.id
  RETURN max(s.date) AS stated, head(collect(s.path)) AS path
}}
WITH count(c) AS total, count(stated) AS dated,
     collect(CASE WHEN stated < $cutoff THEN {{id: c.id, text: left(c.text, 120), last_stated: toString(stated),
                                              age_days: duration.inDays(stated, $today).days, source: path}} END) AS old
UNWIND CASE WHEN old = [] THEN [null] ELSE old END AS row
WITH total, dated, size(old) AS count, row ORDER BY rand()
RETURN total, dated, count, [r IN collect(row) WHERE r IS NOT NULL][..$size] AS rows
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

DANGLING_REFERENCES = (
    _GRAPH_SIZE
    + """
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
"""
    + _WRONG_ENDPOINTS
    + """
  }
  WITH id, problem ORDER BY id, problem
  RETURN count(*) AS count, collect({id: id, problem: problem})[..$cap] AS rows
}
RETURN nodes + rels AS total, count, rows
"""
)

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
MATCH (c:Claim) WHERE {in_play("c")}
WITH c, coalesce(c.status, '') = 'disputed' AS flagged,
     COUNT {{ (c)-[:CONTRADICTS]-(o:Claim) WHERE {in_play("o")} }} AS open
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
CALL () {{ MATCH (c:Concept) WHERE {in_play("c")} RETURN count(c) AS total }}
CALL () {{
  MATCH (c:Concept) WHERE {in_play("c")}
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

# -- stage-2 judgments, as read for the sample and for review ---------------------------

_JUDGMENT_FIELDS = """j {.id, .verdict, .mention, .mention_context, .candidate_id, .candidate_name, .concept_id,
   .score, .backend, .reason, .source_id, .reviewed, .review_verdict}"""

# Every unreviewed judgment by id and verdict, in a fixed order: the sample is drawn from
# these in Python with a seeded generator, so one seed gives one sample (Cypher's rand() has none).
UNREVIEWED_JUDGMENTS = """
MATCH (j:Judgment) WHERE NOT coalesce(j.reviewed, false)
RETURN j.id AS id, coalesce(j.verdict, '') AS verdict
ORDER BY id
"""

JUDGMENTS_BY_ID = f"""
UNWIND $ids AS id
MATCH (j:Judgment {{id: id}})
OPTIONAL MATCH (s:Source {{id: j.source_id}})
RETURN {_JUDGMENT_FIELDS} AS j, s.path AS source_path
"""

JUDGMENT = f"""
MATCH (j:Judgment {{id: $id}})
OPTIONAL MATCH (s:Source {{id: j.source_id}})
RETURN {_JUDGMENT_FIELDS} AS j, s.path AS source_path
"""
