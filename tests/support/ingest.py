"""Helpers shared by the ingest tests: run the real pipeline against the test graph."""

from __future__ import annotations

from pathlib import Path

from graphwiki_assets.core.ingest.pipeline import IngestConfig, Ingestor, ingest_documents, read_paths
from graphwiki_assets.core.llm.client import build_llm

SMOKE_TEXTS = {
    "cypher.md": (
        "# Cypher\n\nCypher is a declarative query language for property graphs. "
        "Cypher was created for Neo4j, a graph database. Queries in Cypher describe patterns of nodes "
        "and relationships."
    ),
    "cql.md": (
        "# Querying Neo4j\n\nCypher Query Language (CQL) is the language used to query Neo4j. "
        "CQL is an imperative language in which the user spells out each step. "
        "Neo4j stores data as nodes and relationships."
    ),
    "gds.md": (
        "# Graph algorithms\n\nNeo4j Graph Data Science (GDS) is a library of graph algorithms for Neo4j. "
        "Neo4j Graph Data Science runs PageRank and community detection on projected graphs. "
        "Neo4j Graph Data Science is installed as a plugin of Neo4j."
    ),
}


def write_sources(folder: Path, texts: dict[str, str]) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, text in texts.items():
        path = folder / name
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths


def ingest(store, embedder, settings, paths, cache=True, batch_size=32):
    llm = build_llm(settings.llm, settings.cache_dir if cache else None)
    ingestor = Ingestor(store=store, embedder=embedder, llm=llm, config=IngestConfig(batch_size=batch_size))
    return ingest_documents(ingestor, read_paths(paths))


def counts(store) -> dict:
    """Nodes and relationships of the knowledge graph (the audit log's entries aside)."""
    return store.query(
        "CALL () { MATCH (n) WHERE NOT n:LogEntry RETURN count(n) AS nodes } "
        "CALL () { MATCH ()-[r]->() RETURN count(r) AS rels } "
        "RETURN nodes, rels"
    )[0]


def concept_named(store, name: str) -> list[dict]:
    return store.query(
        "MATCH (c:Concept) WHERE toLower(c.name) = toLower($name) OR "
        "any(a IN c.aliases WHERE toLower(a) = toLower($name)) RETURN c.id AS id, c.name AS name, c.aliases AS aliases",
        name=name,
    )
