"""All Cypher of the ingest concern. Every value arrives as a parameter."""

from graphwiki_assets.core.store.schema import in_play

# A text is done when it was ingested under the same purpose and taxonomy; one ingested
# under another (or before configs were recorded) is processed again.
SOURCES_BY_SHA = """
UNWIND $sha256s AS sha
MATCH (s:Source {sha256: sha})
WHERE s.extraction_version = $extraction_version
RETURN sha AS sha256, s.id AS id
"""

TOUCH_SOURCES = """
UNWIND $touches AS t
MATCH (s:Source {id: t.id})
SET s.last_seen_at = datetime($now),
    s.paths = CASE WHEN t.path IN coalesce(s.paths, []) THEN s.paths ELSE coalesce(s.paths, []) + t.path END
"""

# -- the ingest lease (see lease.py): the first statement of each writes, to take the lock --

LOCK_LEASE = """
MERGE (l:Lease {name: $name})
SET l.checked_at = datetime()
RETURN l.holder AS holder, l.host AS host, l.pid AS pid, l.purpose AS purpose,
       (l.expires_at IS NOT NULL AND l.expires_at < datetime()) AS expired
"""

TAKE_LEASE = """
MATCH (l:Lease {name: $name})
SET l.holder = $holder, l.host = $host, l.pid = $pid, l.purpose = $purpose,
    l.acquired_at = datetime(), l.expires_at = datetime() + duration({milliseconds: $ttl_ms})
"""

RENEW_LEASE = """
OPTIONAL MATCH (l:Lease {name: $name}) WHERE l.holder = $holder
SET l.expires_at = datetime() + duration({milliseconds: $ttl_ms})
RETURN l IS NOT NULL AS renewed
"""

CHECK_LEASE = """
OPTIONAL MATCH (l:Lease {name: $name})
SET l.checked_at = datetime()
RETURN coalesce(l.holder = $holder, false) AS held
"""

RELEASE_LEASE = """
MATCH (l:Lease {name: $name}) WHERE l.holder = $holder
SET l.holder = null, l.host = null, l.pid = null, l.expires_at = null, l.released_at = datetime()
"""

# keys hold only letters, digits and spaces, so quoting them makes a safe phrase query
EXACT_KEY_MATCHES = f"""
UNWIND $mentions AS m
CALL db.index.fulltext.queryNodes('concept_keys', m.query, {{limit: 50}}) YIELD node AS c
WITH m, c
WHERE {in_play("c")} AND any(k IN m.keys WHERE k IN c.keys)
RETURN m.index AS index, c.id AS id, c.name AS name, coalesce(c.extracted_type, c.type) AS type, c.aliases AS aliases,
       coalesce(c.summary, '') AS summary, c.type AS taxonomy_type
"""

# The index scores cosine as (1 + cos) / 2; callers compare plain cosines.
VECTOR_CANDIDATES = f"""
UNWIND $mentions AS m
CALL db.index.vector.queryNodes('concept_embedding', $k, m.embedding) YIELD node, score
WHERE {in_play("node")}
RETURN m.index AS index, node.id AS id, node.name AS name, coalesce(node.extracted_type, node.type) AS type,
       node.aliases AS aliases,
       coalesce(node.summary, '') AS summary, 2 * score - 1 AS score
"""

EXISTING_CLAIMS_ABOUT = f"""
UNWIND $concept_ids AS cid
MATCH (c:Concept {{id: cid}})<-[:ABOUT]-(cl:Claim)
WHERE {in_play("cl")} AND NOT EXISTS {{ (cl)-[:DERIVED_FROM]->(s:Source) WHERE s.id IN $source_ids }}
CALL (cl) {{
  OPTIONAL MATCH (cl)-[:DERIVED_FROM]->(s:Source)
  RETURN max(s.date) AS stated, [p IN collect(s.path) WHERE p IS NOT NULL] AS paths
}}
RETURN cid AS concept_id, c.name AS concept, coalesce(c.aliases, []) AS aliases, cl.id AS id, cl.text AS text, cl.status AS status,
       cl.embedding AS embedding, stated, paths
"""

# Each new claim's nearest claims by meaning, whatever concepts they are about, kept when
# they restate it ($similarity, a plain cosine) and another file states them: a claim of
# the same path (an earlier version of the file) is no independent evidence. The index
# scores cosine as (1 + cos) / 2. $k is wider than the pairs kept, as the copies in older
# versions of the same file come first.
RESTATED_CLAIMS = f"""
UNWIND $claims AS q
CALL db.index.vector.queryNodes('claim_embedding', $k, q.embedding) YIELD node AS cl, score
WITH q, cl, 2 * score - 1 AS similarity
WHERE similarity >= $similarity AND cl.id <> q.id AND {in_play("cl")}
CALL (cl) {{
  OPTIONAL MATCH (cl)-[:DERIVED_FROM]->(s:Source)
  RETURN max(s.date) AS stated, [p IN collect(s.path) WHERE p IS NOT NULL] AS paths, collect(s.id) AS sources
}}
WITH q, cl, similarity, stated, paths, sources
WHERE any(p IN paths WHERE p <> q.path) AND none(id IN sources WHERE id IN $source_ids)
RETURN q.id AS claim, cl.id AS id, cl.text AS text, cl.status AS status, stated, paths, similarity
"""

DISPUTE_OPPONENTS = f"""
UNWIND $ids AS id
MATCH (c:Claim {{id: id}})-[:CONTRADICTS]-(o:Claim)
WHERE {in_play("o")}
CALL (o) {{ OPTIONAL MATCH (o)-[:DERIVED_FROM]->(s:Source) RETURN max(s.date) AS opponent_stated }}
RETURN c.id AS claim, o.id AS opponent, opponent_stated
"""

# -- the one write transaction of a batch ---------------------------------------------
# Every list is in batch order, so a concept created by one source of the batch exists
# when a later source of the batch merges into it.

MERGE_SOURCES = """
UNWIND $sources AS src
MERGE (s:Source {id: src.id})
ON CREATE SET s.sha256 = src.sha256, s.path = src.path, s.title = src.title, s.text = src.text,
              s.embedding = src.embedding, s.paths = src.paths, s.status = 'current',
              s.ingested_at = datetime($now), s.last_seen_at = datetime($now),
              s.date = src.date, s.date_source = src.date_source
ON MATCH SET s.last_seen_at = datetime($now),
             s.paths = coalesce(s.paths, []) + [p IN src.paths WHERE NOT p IN coalesce(s.paths, [])]
SET s.config_version = $config_version, s.extraction_version = $extraction_version,
    s.scope = src.scope, s.scope_reason = src.scope_reason
"""

SUPERSEDE_OLD_VERSIONS = """
UNWIND $sources AS src
MATCH (old:Source {path: src.path})
WHERE old.id <> src.id AND old.status = 'current'
SET old.status = 'superseded', old.superseded_by = src.id, old.superseded_at = datetime($now)
WITH src, old
OPTIONAL MATCH (n)-[:DERIVED_FROM]->(old)
WHERE n:Concept OR n:Claim
SET n.needs_review = true, n.needs_review_since = datetime($now),
    n.review_reason = 'derived from a changed source: ' + old.path
WITH src, old, count(n) AS derived
// a filed answer that cites the old version may no longer hold
OPTIONAL MATCH (a:Answer)-[:CITES]->(old)
SET a.needs_review = true, a.needs_review_since = datetime($now),
    a.review_reason = 'a source it cites changed: ' + old.path
WITH src, old, derived, count(a) AS answers
RETURN src.id AS source_id, old.id AS id, derived + answers AS flagged
"""

# The corroboration rule, for a concept or a claim `c` with `independent` files behind it:
# below the threshold it is kept and linked but flagged; a later file stating it lifts that
# flag (and only that one: a flag with another reason stays).
_CORROBORATION_FLAG = """FOREACH (_ IN CASE WHEN independent < $corroboration AND NOT coalesce(c.needs_review, false) THEN [1] ELSE [] END |
  SET c.needs_review = true, c.review_reason = $awaiting, c.needs_review_since = datetime($now))
FOREACH (_ IN CASE WHEN independent >= $corroboration AND c.review_reason = $awaiting THEN [1] ELSE [] END |
  SET c.needs_review = false, c.review_reason = null, c.needs_review_since = null,
      c.corroborated_at = datetime($now))
"""

MERGE_CONCEPTS = (
    """
UNWIND $actions AS a
MATCH (s:Source {id: a.source_id})
MERGE (c:Concept {id: a.concept_id})
ON CREATE SET c.name = a.name, c.type = a.type, c.extracted_type = a.extracted_type, c.summary = a.description,
              c.embedding = a.embedding, c.aliases = [], c.keys = [], c.status = 'current', c.needs_review = false,
              c.created_at = datetime($now), c.config_version = $config_version
// A node typed under another config takes this one's type afresh.
WITH a, s, c, coalesce(c.config_version, '') <> $config_version AS retyped
SET c.updated_at = datetime($now),
    // the mentions' types (the latest 100), each row adding its own to what the rows
    // before it added: the type is decided from all of them below
    // a vote that is only a recogniser's label is marked '~': it counts when it is repeated
    c.type_votes = (CASE WHEN retyped THEN [] ELSE coalesce(c.type_votes, []) END
                    + [CASE WHEN coalesce(a.type_guessed, false) THEN '~' + a.type ELSE a.type END])[-100..],
    c.extracted_type = CASE WHEN retyped OR coalesce(c.extracted_type, '') IN ['', 'Concept'] THEN a.extracted_type
                            ELSE c.extracted_type END,
    c.config_version = $config_version,
    // the first definition a source states stays the concept's: facts come and go, what it is stays
    c.definition = coalesce(c.definition, CASE WHEN coalesce(a.definition, '') <> '' THEN a.definition END),
    c.aliases = c.aliases + [x IN a.aliases WHERE x <> c.name AND NOT x IN c.aliases],
    c.keys = c.keys + [k IN a.keys WHERE NOT k IN c.keys]
MERGE (c)-[d:DERIVED_FROM]->(s)
ON CREATE SET d.created_at = datetime($now)
WITH DISTINCT c
// The type is the specific type most of the specific votes name, else the generic one: a
// mention with no type says nothing against one (a recogniser leaves most mentions of a
// country untyped), while two specific types that split the votes ("China" a person in one
// passage, a place in another) leave the question open. A type only a recogniser's labels
// give must also be named by half of all the votes: "Helm" a person in one source of 99 is a
// guess about a name it never saw, where "Neo4j is a graph database" in one source is said.
WITH c, [v IN c.type_votes | CASE WHEN v STARTS WITH '~' THEN substring(v, 1) ELSE v END] AS votes
WITH c, votes, [t IN votes WHERE NOT t IN ['', 'Concept', coalesce($fallback, 'Concept')]] AS specific
WITH c, votes, specific, reduce(seen = [], t IN specific | CASE WHEN t IN seen THEN seen ELSE seen + t END) AS kinds
SET c.type = coalesce(head([t IN kinds WHERE 2 * size([v IN specific WHERE v = t]) > size(specific)
                                         AND (t IN c.type_votes OR 2 * size([v IN specific WHERE v = t]) >= size(votes))]),
                      CASE WHEN size(specific) > 0 THEN coalesce($fallback, head(specific))
                           ELSE coalesce(head([t IN votes WHERE t <> '']), 'Concept') END)
WITH c
OPTIONAL MATCH (c)-[:DERIVED_FROM]->(src:Source)
// independent sources are distinct files: a changed version of a file is the same source
WITH c, count(DISTINCT src) AS n, count(DISTINCT src.path) AS independent
SET c.source_count = n, c.summary_dirty = (n > 1), c.independent_sources = independent
WITH c, independent
"""
    + _CORROBORATION_FLAG
)

MERGE_NOT_SAME = """
UNWIND $links AS l
MATCH (a:Concept {id: l.from}), (b:Concept {id: l.to})
MERGE (a)-[r:NOT_SAME_AS]->(b)
ON CREATE SET r.judgment_id = l.judgment_id, r.created_at = datetime($now)
"""

# A RELATED verdict is knowledge: the judge read a connection in the texts. The edge is
# the same RELATED_TO that claims state (either direction), with the judge's reason.
MERGE_JUDGED_RELATED = """
UNWIND $links AS l
MATCH (a:Concept {id: l.from}), (b:Concept {id: l.to})
MERGE (a)-[r:RELATED_TO]-(b)
ON CREATE SET r.claims = [], r.weight = 1, r.created_at = datetime($now)
SET r.judgment_id = coalesce(r.judgment_id, l.judgment_id), r.reason = coalesce(r.reason, l.reason)
"""

MERGE_JUDGMENTS = """
UNWIND $judgments AS j
MERGE (n:Judgment {id: j.id})
ON CREATE SET n += j, n.reviewed = false, n.created_at = datetime($now)
"""

SET_JUDGMENT_TARGETS = """
UNWIND $targets AS t
MATCH (n:Judgment {id: t.id})
SET n.concept_id = t.concept_id
"""

MERGE_CLAIMS = """
UNWIND $claims AS cl
MATCH (s:Source {id: cl.source_id})
MERGE (c:Claim {id: cl.id})
ON CREATE SET c.text = cl.text, c.embedding = cl.embedding, c.status = 'current', c.needs_review = false,
              c.created_at = datetime($now)
SET c.updated_at = datetime($now)
MERGE (c)-[d:DERIVED_FROM]->(s)
ON CREATE SET d.created_at = datetime($now)
// where in the source the claim is stated (a PDF's page, a heading path), when known
SET d.section = CASE WHEN coalesce(cl.section, '') = '' THEN d.section ELSE cl.section END
WITH c, cl
UNWIND cl.about AS cid
MATCH (k:Concept {id: cid})
MERGE (c)-[r:ABOUT]->(k)
ON CREATE SET r.created_at = datetime($now)
"""

MERGE_ASSOCIATIONS = """
UNWIND $pairs AS p
MATCH (a:Concept {id: p.a}), (b:Concept {id: p.b})
MERGE (a)-[r:RELATED_TO]-(b)
ON CREATE SET r.claims = [], r.created_at = datetime($now)
SET r.claims = CASE WHEN p.claim IN r.claims THEN r.claims ELSE r.claims + p.claim END,
    r.weight = size(CASE WHEN p.claim IN r.claims THEN r.claims ELSE r.claims + p.claim END)
"""

MERGE_CONTRADICTIONS = """
UNWIND $pairs AS p
MATCH (a:Claim {id: p.new_claim}), (b:Claim {id: p.existing_claim})
MERGE (a)-[r:CONTRADICTS]->(b)
ON CREATE SET r.detected_at = datetime($now), r.backend = $backend, r.reason = p.reason, r.source_id = p.source_id,
              r.newer_claim = p.newer_claim, r.order = p.order
"""

# A settlement the claims' dates forbade: the dispute stays open, with the reason on its edge.
HOLD_DISPUTES = """
UNWIND $held AS h
MATCH (:Claim {id: h.winner})-[r:CONTRADICTS]-(:Claim {id: h.loser})
SET r.kept_disputed = h.reason, r.kept_by = h.decided_by, r.kept_at = datetime($now)
"""

SETTLE = """
UNWIND $settlements AS st
MATCH (loser:Claim {id: st.loser}), (winner:Claim {id: st.winner})
SET loser.status = 'superseded', loser.decided_by = st.decided_by, loser.decided_at = datetime($now),
    loser.decision_reason = st.reason, loser.superseded_by = winner.id,
    winner.decided_by = st.decided_by, winner.decided_at = datetime($now), winner.decision_reason = st.reason
"""

# disputed <=> an open CONTRADICTS with a claim that is not superseded.
RECOMPUTE_CLAIM_STATUS = f"""
UNWIND $ids AS id
MATCH (c:Claim {{id: id}})
WHERE {in_play("c")}
OPTIONAL MATCH (c)-[:CONTRADICTS]-(o:Claim)
WHERE {in_play("o")}
WITH c, count(o) AS open
SET c.status = CASE WHEN open > 0 THEN 'disputed' ELSE 'current' END
"""

MERGE_CORROBORATES = """
UNWIND $pairs AS p
MATCH (a:Claim {id: p.claim}), (b:Claim {id: p.existing})
MERGE (a)-[r:CORROBORATES]->(b)
ON CREATE SET r.created_at = datetime($now), r.backend = $backend
"""

# A claim is stated by the files behind it and behind the claims found to say the same;
# the corroboration rule is the concepts'.
RECOMPUTE_CLAIM_CORROBORATION = (
    """
UNWIND $ids AS id
MATCH (c:Claim {id: id})
CALL (c) {
  MATCH (c)-[:CORROBORATES*0..1]-(:Claim)-[:DERIVED_FROM]->(s:Source)
  RETURN count(DISTINCT s.path) AS independent
}
SET c.independent_sources = independent
"""
    + _CORROBORATION_FLAG
)

CONTRADICTS_NEIGHBOURS = """
UNWIND $ids AS id
MATCH (:Claim {id: id})-[:CONTRADICTS]-(o:Claim)
RETURN DISTINCT o.id AS id
"""

# -- summaries ---------------------------------------------------------------------

DIRTY_SUMMARIES = f"""
MATCH (c:Concept {{summary_dirty: true}})
WHERE {in_play("c")} AND c.id > $after
WITH c ORDER BY c.id LIMIT $limit
OPTIONAL MATCH (cl:Claim)-[:ABOUT]->(c)
WHERE {in_play("cl")}
WITH c, cl ORDER BY cl.created_at DESC, cl.id  // ties (one batch's claims) in a fixed order: the same request each run
WITH c, collect(cl.text)[..$facts] AS facts
RETURN c.id AS id, c.name AS name, c.type AS type, coalesce(c.summary, '') AS summary,
       coalesce(c.definition, '') AS definition, facts
ORDER BY id
"""

SET_SUMMARIES = """
UNWIND $rows AS r
MATCH (c:Concept {id: r.id})
SET c.summary = r.summary, c.summary_dirty = false, c.summary_backend = $backend,
    c.summary_at = datetime($now), c.updated_at = datetime($now),
    c.summary_history = coalesce(c.summary_history, []) + datetime($now)
"""

GRAPH_COUNTS = """
CALL () { MATCH (n) RETURN count(n) AS nodes }
CALL () { MATCH ()-[r]->() RETURN count(r) AS relationships }
CALL () { MATCH (s:Source) RETURN count(s) AS sources }
CALL () { MATCH (c:Concept) RETURN count(c) AS concepts }
CALL () { MATCH (c:Claim) RETURN count(c) AS claims }
CALL () { MATCH ()-[r:CONTRADICTS]->() RETURN count(r) AS contradictions }
RETURN nodes, relationships, sources, concepts, claims, contradictions
"""
