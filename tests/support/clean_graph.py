"""A small clean graph planted exactly as the ingest writes it: the lint and review tests
plant it and break one thing at a time."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from graphwiki_assets.core.sources import sha256_text

NOW = datetime(2025, 6, 1, 12, 0, tzinfo=UTC)
YESTERDAY = NOW - timedelta(days=1)

TEXTS = {
    "cypher.md": "# Cypher\n\nCypher is a declarative query language. Neo4j runs Cypher queries.",
    "cql.md": "# Querying\n\nCQL is an imperative language. CQL is used to query Neo4j.",
    "gds.md": "# GDS\n\nNeo4j Graph Data Science is a plugin of Neo4j.",
}


def source_id(path: str) -> str:
    return f"src-{sha256_text(TEXTS[path])[:16]}"


PLANT = """
UNWIND $sources AS s
CREATE (n:Source) SET n = s, n.paths = [s.path], n.status = 'current', n.ingested_at = $at, n.last_seen_at = $at
WITH count(*) AS _
UNWIND $concepts AS c
CREATE (n:Concept) SET n = c, n.status = 'current', n.needs_review = false, n.created_at = $at, n.updated_at = $at
WITH count(*) AS _
UNWIND $claims AS c
CREATE (n:Claim {id: c.id, text: c.text, status: c.status, needs_review: false, created_at: $at, updated_at: $at})
WITH n, c
MATCH (s:Source {id: c.source})
CREATE (n)-[:DERIVED_FROM {created_at: $at}]->(s)
WITH n, c
UNWIND c.about AS about
MATCH (k:Concept {id: about})
CREATE (n)-[:ABOUT {created_at: $at}]->(k)
WITH count(*) AS _
UNWIND $cites AS pair
MATCH (c:Concept {id: pair[0]}), (s:Source {id: pair[1]})
CREATE (c)-[:DERIVED_FROM {created_at: $at}]->(s)
WITH count(*) AS _
UNWIND $judgments AS j
CREATE (n:Judgment) SET n = j, n.reviewed = false, n.created_at = $at
"""

LINKS = """
MATCH (cy:Concept {id: 'cypher'}), (neo:Concept {id: 'neo4j'}), (gds:Concept {id: 'gds'})
MATCH (c1:Claim {id: 'claim-declarative'}), (c2:Claim {id: 'claim-imperative'})
CREATE (c2)-[:CONTRADICTS {detected_at: $detected, backend: 'offline', reason: 'declarative vs imperative'}]->(c1)
CREATE (cy)-[:RELATED_TO {claims: ['claim-cql-queries'], weight: 1, created_at: $at}]->(neo)
CREATE (gds)-[:RELATED_TO {claims: ['claim-gds-plugin'], weight: 1, created_at: $at}]->(neo)
CREATE (gds)-[:NOT_SAME_AS {created_at: $at}]->(neo)
CREATE (gds)-[:PART_OF {created_at: $at}]->(neo)
"""


def plant_clean_graph(store, at: datetime = YESTERDAY) -> dict[str, str]:
    """Three sources, three concepts (CQL merged into Cypher, GDS judged NOT_SAME as Neo4j),
    four claims (one open dispute), two unreviewed judgments. Returns the source ids by path."""
    ids = {path: source_id(path) for path in TEXTS}
    sources = [{"id": ids[p], "path": p, "title": p, "text": t, "sha256": sha256_text(t)} for p, t in TEXTS.items()]
    concepts = [
        {
            "id": "cypher",
            "name": "Cypher",
            "type": "Language",
            "aliases": ["CQL"],
            "keys": ["cypher", "cql"],
            "summary": "a graph query language",
            "source_count": 2,
        },
        {"id": "neo4j", "name": "Neo4j", "type": "Database", "aliases": [], "keys": ["neo4j"], "source_count": 3},
        {
            "id": "gds",
            "name": "Neo4j Graph Data Science",
            "type": "Library",
            "aliases": [],
            "keys": ["neo4j graph data science"],
            "source_count": 1,
        },
    ]
    claims = [
        {
            "id": "claim-declarative",
            "text": "Cypher is a declarative query language.",
            "status": "disputed",
            "source": ids["cypher.md"],
            "about": ["cypher"],
        },
        {
            "id": "claim-imperative",
            "text": "CQL is an imperative language.",
            "status": "disputed",
            "source": ids["cql.md"],
            "about": ["cypher"],
        },
        {
            "id": "claim-cql-queries",
            "text": "CQL is used to query Neo4j.",
            "status": "current",
            "source": ids["cql.md"],
            "about": ["cypher", "neo4j"],
        },
        {
            "id": "claim-gds-plugin",
            "text": "Neo4j Graph Data Science is a plugin of Neo4j.",
            "status": "current",
            "source": ids["gds.md"],
            "about": ["gds", "neo4j"],
        },
    ]
    cites = [
        ["cypher", ids["cypher.md"]],
        ["cypher", ids["cql.md"]],
        ["neo4j", ids["cypher.md"]],
        ["neo4j", ids["cql.md"]],
        ["neo4j", ids["gds.md"]],
        ["gds", ids["gds.md"]],
    ]
    judgments = [
        {
            "id": "judgment-cql",
            "mention": "CQL",
            "mention_context": "CQL is an imperative language.",
            "candidate_id": "cypher",
            "candidate_name": "Cypher",
            "verdict": "SAME",
            "score": 0.81,
            "backend": "offline",
            "reason": "acronym",
            "source_id": ids["cql.md"],
            "concept_id": "cypher",
        },
        {
            "id": "judgment-gds",
            "mention": "Neo4j Graph Data Science",
            "mention_context": "a plugin of Neo4j",
            "candidate_id": "neo4j",
            "candidate_name": "Neo4j",
            "verdict": "NOT_SAME",
            "score": 0.93,
            "backend": "offline",
            "reason": "a library of Neo4j, not Neo4j",
            "source_id": ids["gds.md"],
            "concept_id": "gds",
        },
    ]
    store.query(PLANT, sources=sources, concepts=concepts, claims=claims, cites=cites, judgments=judgments, at=at)
    store.query(LINKS, at=at, detected=at - timedelta(days=9))
    return ids


# The checks that report a defect; a clean graph has none (the other two list deliberate states).
DEFECT_CHECKS = {
    "provenance_complete",
    "no_dangling_references",
    "disputed_iff_contradicted",
    "source_text_unchanged",
    "source_files_unchanged",
    "orphan_concepts",
    "missing_properties",
    "stale_needs_review",
    "stale_sources",
    "stale_concepts",
    "oversized_hubs",
    "gds_catalog",
}
