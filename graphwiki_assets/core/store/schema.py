"""The fixed graph schema, applied idempotently by every writer at start-up.

Nodes
  (:Source  {id, sha256, path, paths, title, text, embedding, status, ingested_at, last_seen_at,
             config_version, extraction_version, date, date_source})
      immutable text; id is content-addressed; a changed file makes a new Source and the
      old one gets status 'superseded' (never deleted). date (a DATE) is the date the source
      gives itself, date_source where it came from ('front_matter', 'file_name', 'file_time';
      older graphs recorded it as date_from, renamed in migrations.py); a Source written
      before sources had dates has neither, which reads as "date unknown".
  (:Concept {id, name, aliases, keys, type, extracted_type, summary, embedding, status, needs_review,
             source_count, independent_sources, corroborated_at, config_version, created_at, updated_at})
      type is a property, never a label: one of the schema config's types (graphwiki.yaml);
      extracted_type is the extractor's own, finer word (entity resolution compares those);
      config_version is the config it was last typed under; keys = normalised name +
      aliases for exact lookup. independent_sources counts distinct files; below the
      config's corroboration threshold the concept is flagged needs_review with
      AWAITING_CORROBORATION until another file states it.
      Derived for queries, rewritten by the query upkeep after ingest, never a fact:
      shape_entries, shape_counts, shape_tokens, shape_degree, shape_state, shape_at
      (the stored neighbourhood signature "shaped like X" matches against).
  (:Claim   {id, text, embedding, status, needs_review, created_at, updated_at,
             decided_by, decided_at, decision_reason})
  (:Judgment {id, mention, mention_context, candidate_id, candidate_name, verdict, score,
              backend, reason, reviewed, source_id, concept_id, created_at})
      the audit record of one stage-2 entity-resolution judgment.
  (:Community {id, size, level, top, title, summary, summary_kind, backend, prompt_version,
               fact_ids, source_ids, embedding, created_at, seen_at, reported_at})
      derived, never a source of a fact: a Leiden community of the concept graph, known by
      its members (id = hash of their ids), with the report written from its members' claims
      (summary_kind 'llm', or 'extractive' from the offline rules). See core/communities.
  (:Answer {id, question, text, shape, technique, backend, citations, fact_ids, embedding,
            needs_review, review_reason, derived, filed_at})
      derived, never knowledge: an answer filed back (``ask --file``); never DERIVED_FROM,
      so never a source, a claim or a corroboration. See core/query/filed.py.
  (:LogEntry {id, at, recorded_at, action, actor, backend, summary, inputs, outputs})
      the append-only audit log (ingest, question, filed answer, review, resolve, lint):
      created in the transaction of the work it records, never updated or deleted.
      See core/audit.
  (:Lease {name, holder, host, pid, purpose, acquired_at, expires_at})
      bookkeeping, not knowledge: which writer may resolve and commit right now.
  (:GraphwikiMeta {name: 'vectors', model, dimension, recorded_at})
      bookkeeping, not knowledge: the embedding model and dimension that made every
      ``embedding`` in the graph, recorded by the first writer; a writer or a query with
      another model is refused (see core/store/vector_model.py). A graph written before
      the record existed is adopted by the first writer whose dimension fits its indexes.

Relationships
  (Concept|Claim)-[:DERIVED_FROM]->(Source)            provenance: the citation
  (Claim)-[:ABOUT]->(Concept)                          what a claim is about
  (Concept)-[:RELATED_TO {claims, weight}]->(Concept)  co-stated in claims (weight = how many)
  (Claim)-[:CONTRADICTS]->(Claim)                      both 'disputed' until settled
  (Claim)-[:CORROBORATES]->(Claim)                     judged to say the same; with different
      files behind them, each corroborates the other (independent_sources)
  (Concept)-[:PART_OF]->(Concept)                      hierarchy / composition
  (Concept)-[:IN_COMMUNITY]->(Community)                membership, at every Leiden level
  (Community)-[:SUBCOMMUNITY_OF]->(Community)          the hierarchy of levels
  (Answer)-[:CITES]->(Source)   (Answer)-[:USED]->(Claim|Concept|Community)
  (Concept)-[:NOT_SAME_AS {judgment_id}]->(Concept)    a stage-2 verdict, not a fact: no
      retrieval, projection or impact walk follows it (the :Judgment is the record)

status is one of current | superseded | disputed; a node is in play unless superseded (in_play).
"""

from __future__ import annotations

from neo4j.exceptions import ClientError

from graphwiki_assets.core.store.driver import GraphStore
from graphwiki_assets.core.store.migrations import migrate
from graphwiki_assets.core.store.vector_model import CONSTRAINT as VECTOR_MODEL_CONSTRAINT
from graphwiki_assets.core.store.vector_model import claim_vector_model

STATUSES = ("current", "superseded", "disputed")
# The review_reason of a concept that one independent source states: kept, linked and
# searchable, but flagged until another file states it (see core/ingest/cypher.py).
AWAITING_CORROBORATION = "one independent source: awaiting corroboration"


def in_play(node: str) -> str:
    """Cypher true while ``node`` is still in play: any status but superseded, no status
    included (a bare ``status <> 'superseded'`` is null, so false, on a node without one).
    No index serves it, and none did before: an inequality only scans the status index, and
    a label scan was no slower (100k concepts). Every Cypher module filters with this text."""
    return f"coalesce({node}.status, 'current') <> 'superseded'"


CONSTRAINTS = [
    "CREATE CONSTRAINT source_id IF NOT EXISTS FOR (n:Source) REQUIRE n.id IS UNIQUE",
    "CREATE CONSTRAINT concept_id IF NOT EXISTS FOR (n:Concept) REQUIRE n.id IS UNIQUE",
    "CREATE CONSTRAINT claim_id IF NOT EXISTS FOR (n:Claim) REQUIRE n.id IS UNIQUE",
    "CREATE CONSTRAINT judgment_id IF NOT EXISTS FOR (n:Judgment) REQUIRE n.id IS UNIQUE",
    "CREATE CONSTRAINT lease_name IF NOT EXISTS FOR (n:Lease) REQUIRE n.name IS UNIQUE",
    "CREATE CONSTRAINT community_id IF NOT EXISTS FOR (n:Community) REQUIRE n.id IS UNIQUE",
    "CREATE CONSTRAINT answer_id IF NOT EXISTS FOR (n:Answer) REQUIRE n.id IS UNIQUE",
    "CREATE CONSTRAINT log_entry_id IF NOT EXISTS FOR (n:LogEntry) REQUIRE n.id IS UNIQUE",
    VECTOR_MODEL_CONSTRAINT,
]

INDEXES = [
    "CREATE INDEX source_sha256 IF NOT EXISTS FOR (n:Source) ON (n.sha256)",
    "CREATE INDEX source_path IF NOT EXISTS FOR (n:Source) ON (n.path)",
    "CREATE INDEX concept_type IF NOT EXISTS FOR (n:Concept) ON (n.type)",
    "CREATE INDEX concept_status IF NOT EXISTS FOR (n:Concept) ON (n.status)",
    "CREATE INDEX claim_status IF NOT EXISTS FOR (n:Claim) ON (n.status)",
    "CREATE INDEX judgment_reviewed IF NOT EXISTS FOR (n:Judgment) ON (n.reviewed)",
    "CREATE INDEX log_entry_at IF NOT EXISTS FOR (n:LogEntry) ON (n.at)",
    "CREATE INDEX log_entry_recorded IF NOT EXISTS FOR (n:LogEntry) ON (n.recorded_at)",
    "CREATE FULLTEXT INDEX concept_names IF NOT EXISTS FOR (n:Concept) ON EACH [n.name, n.aliases]",
    # exact-key lookups: a list property cannot use a range index, a full-text one can
    "CREATE FULLTEXT INDEX concept_keys IF NOT EXISTS FOR (n:Concept) ON EACH [n.keys]",
    "CREATE FULLTEXT INDEX source_text IF NOT EXISTS FOR (n:Source) ON EACH [n.title, n.text]",
    # "shaped like X": stored neighbourhood signatures as hex tokens, kept whole by the
    # whitespace analyser (see core/query/signatures.py)
    "CREATE FULLTEXT INDEX concept_shapes IF NOT EXISTS FOR (n:Concept) ON EACH [n.shape_tokens] "
    "OPTIONS {indexConfig: {`fulltext.analyzer`: 'whitespace'}}",
]

VECTOR_INDEXES = {
    "concept_embedding": "Concept",
    "claim_embedding": "Claim",
    "source_embedding": "Source",
    "community_embedding": "Community",
    "answer_embedding": "Answer",
}

_VECTOR_INDEX = (
    "CREATE VECTOR INDEX {name} IF NOT EXISTS FOR (n:{label}) ON (n.embedding) "
    "OPTIONS {{indexConfig: {{`vector.dimensions`: $dimension, `vector.similarity_function`: 'cosine'}}}}"
)


class SchemaMismatch(RuntimeError):
    pass


# What the server says when another writer created the same rule between this statement's
# check for it and its own creation: the rule this statement asked for exists, so it is done.
EQUIVALENT_RULE = "Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists"


def create_rule(store: GraphStore, statement: str, **params) -> None:
    """Run one ``CREATE ... IF NOT EXISTS``, safe against a concurrent writer.

    ``IF NOT EXISTS`` is checked when the statement starts, not when its schema transaction
    commits: two writers on an empty graph both pass the check, and the later commit fails
    with an equivalent-rule error although the graph ends as asked. Any other schema error
    (a rule of the same name but another definition) is real and raised."""
    try:
        store.query(statement, **params)
    except ClientError as exc:
        if exc.code != EQUIVALENT_RULE:
            raise


def ensure_schema(store: GraphStore, dimension: int, model: str | None = None) -> None:
    """Create constraints and indexes if missing, upgrade a graph an earlier version wrote;
    refuse a vector index of another dimension. With ``model`` (a writer's embedder), record
    it as the graph's vector model if none is recorded, and refuse it if another is."""
    for statement in CONSTRAINTS + INDEXES:
        create_rule(store, statement)
    for name, label in VECTOR_INDEXES.items():
        # Index and label names are fixed identifiers above, never user input.
        create_rule(store, _VECTOR_INDEX.format(name=name, label=label), dimension=dimension)
    existing = store.query(
        "SHOW VECTOR INDEXES YIELD name, options WHERE name IN $names "
        "RETURN name, options.indexConfig['vector.dimensions'] AS dimension",
        names=list(VECTOR_INDEXES),
    )
    wrong = {r["name"]: r["dimension"] for r in existing if r["dimension"] != dimension}
    if wrong:
        raise SchemaMismatch(
            f"vector indexes {wrong} were built for another embedding dimension than {dimension}; "
            "use a fresh GRAPHWIKI_HOME or the same embedding model."
        )
    store.query("CALL db.awaitIndexes(300)")
    migrate(store)
    if model is not None:
        claim_vector_model(store, model, dimension)
