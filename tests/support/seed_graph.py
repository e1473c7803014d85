"""A seed-style test graph written with Cypher exactly as schema.py describes it.

The query tests run on it: the Neo4j ecosystem of the seed's smoke test (Cypher, Neo4j,
GDS, PageRank, ...) with real embeddings, one CONTRADICTS pair (both claims disputed), a
superseded claim from a changed source, a concept flagged needs_review and a source not
seen for 400 days.
"""

from __future__ import annotations

from datetime import UTC, datetime

from graphwiki_assets.core.sources import sha256_text
from graphwiki_assets.core.store.keys import keys_for
from graphwiki_assets.core.store.schema import STATUSES

# id: (name, type, aliases, summary)
CONCEPTS = {
    "c-neo4j": ("Neo4j", "Database", [], "Neo4j is a graph database that stores a labelled property graph."),
    "c-cypher": (
        "Cypher",
        "Query Language",
        ["CQL", "Cypher Query Language"],
        "Cypher is the query language of the Neo4j database.",
    ),
    "c-gql": ("GQL", "Query Language", [], "GQL is the ISO standard graph query language."),
    "c-gds": (
        "Neo4j Graph Data Science",
        "Library",
        ["GDS", "Graph Data Science"],
        "Neo4j Graph Data Science is a library of graph algorithms for Neo4j.",
    ),
    "c-pagerank": ("PageRank", "Algorithm", [], "PageRank is a link-analysis algorithm."),
    "c-louvain": ("Louvain", "Algorithm", [], "Louvain is a community detection algorithm."),
    "c-apoc": ("APOC", "Library", ["Awesome Procedures On Cypher"], "APOC is a library of procedures for Neo4j."),
    "c-pandas": ("pandas", "Library", [], "pandas is a Python library for data frames."),
    "c-python": ("Python", "Programming Language", [], "Python is a programming language."),
    "c-java": ("Java", "Programming Language", [], "Java is a programming language."),
    "c-neo4j-inc": ("Neo4j, Inc.", "Organization", ["Neo Technology"], "Neo4j, Inc. is the company behind Neo4j."),
    "c-google": ("Google", "Organization", [], "Google is a technology company."),
    "c-docker": ("Docker", "Software", [], "Docker builds and runs software in containers."),
    "c-kubernetes": ("Kubernetes", "Software", ["K8s"], "Kubernetes orchestrates containers."),
    "c-bolt": ("Bolt", "Protocol", ["Bolt protocol"], "Bolt is the binary protocol of Neo4j drivers."),
}

# id: (title, path, status, days since last seen)
SOURCES = {
    "src-neo4j": ("Neo4j", "docs/neo4j.md", "current", 1),
    "src-neo4j-old": ("Neo4j", "docs/neo4j.md", "superseded", 200),
    "src-cypher": ("Cypher (query language)", "docs/cypher.md", "current", 1),
    "src-cql": ("Querying Neo4j", "docs/cql.md", "current", 1),
    "src-gds": ("Neo4j Graph Data Science", "docs/gds.md", "current", 1),
    "src-pagerank": ("PageRank", "docs/pagerank.md", "current", 1),
    "src-apoc": ("APOC", "docs/apoc.md", "current", 1),
    "src-pandas": ("pandas", "docs/pandas.md", "current", 1),
    "src-docker": ("Docker", "docs/docker.md", "current", 1),
    "src-kubernetes": ("Kubernetes", "docs/kubernetes.md", "current", 1),
    "src-bolt": ("Bolt protocol", "docs/bolt.md", "current", 1),
    "src-old-blog": ("A 2019 blog post on graph algorithms", "docs/blog-2019.md", "current", 400),
}

# id: (text, source, about, status)
CLAIMS = {
    "cl-cypher-declarative": (
        "Cypher is a declarative query language for property graphs.",
        "src-cypher",
        ["c-cypher"],
        "disputed",
    ),
    "cl-cql-imperative": (
        "CQL is an imperative language in which the user spells out each step.",
        "src-cql",
        ["c-cypher"],
        "disputed",
    ),
    "cl-cypher-neo4j": (
        "Cypher was created for Neo4j, a graph database.",
        "src-cypher",
        ["c-cypher", "c-neo4j"],
        "current",
    ),
    "cl-cypher-gql": (
        "Cypher was a major input to GQL, the ISO graph query language.",
        "src-cypher",
        ["c-cypher", "c-gql"],
        "current",
    ),
    "cl-neo4j-java": ("Neo4j is written in Java.", "src-neo4j", ["c-neo4j", "c-java"], "current"),
    "cl-neo4j-inc": (
        "Neo4j is developed by Neo4j, Inc., a company founded in 2007.",
        "src-neo4j",
        ["c-neo4j", "c-neo4j-inc"],
        "current",
    ),
    "cl-neo4j-lts": ("Neo4j 5.26 is a long-term-support release.", "src-neo4j", ["c-neo4j"], "current"),
    "cl-neo4j-lts-old": (
        "Neo4j 4.4 is the current long-term-support release.",
        "src-neo4j-old",
        ["c-neo4j"],
        "superseded",
    ),
    "cl-neo4j-bolt": (
        "Neo4j drivers talk to the server over the Bolt protocol.",
        "src-bolt",
        ["c-neo4j", "c-bolt"],
        "current",
    ),
    "cl-bolt-port": ("Bolt listens by default on TCP port 7687.", "src-bolt", ["c-bolt"], "current"),
    "cl-gds-neo4j": (
        "Neo4j Graph Data Science is a library of graph algorithms installed as a plugin of Neo4j.",
        "src-gds",
        ["c-gds", "c-neo4j"],
        "current",
    ),
    "cl-gds-pagerank": (
        "Neo4j Graph Data Science runs PageRank, personalised when a call passes sourceNodes.",
        "src-gds",
        ["c-gds", "c-pagerank"],
        "current",
    ),
    "cl-gds-louvain": (
        "Neo4j Graph Data Science includes community detection with Louvain.",
        "src-gds",
        ["c-gds", "c-louvain"],
        "current",
    ),
    "cl-gds-python": (
        "A Python client lets data scientists use Neo4j Graph Data Science from Python.",
        "src-gds",
        ["c-gds", "c-python"],
        "current",
    ),
    "cl-pagerank-google": (
        "PageRank formed the basis of the Google search engine.",
        "src-pagerank",
        ["c-pagerank", "c-google"],
        "current",
    ),
    "cl-pagerank-surfer": (
        "PageRank models a random surfer who follows a link with probability 0.85.",
        "src-pagerank",
        ["c-pagerank"],
        "current",
    ),
    "cl-apoc-neo4j": (
        "APOC is a library of procedures and functions for Neo4j.",
        "src-apoc",
        ["c-apoc", "c-neo4j"],
        "current",
    ),
    "cl-apoc-inc": (
        "APOC was started by Michael Hunger, an engineer at Neo4j, Inc.",
        "src-apoc",
        ["c-apoc", "c-neo4j-inc"],
        "current",
    ),
    "cl-apoc-java": ("APOC procedures are written in Java.", "src-apoc", ["c-apoc", "c-java"], "current"),
    "cl-pandas-python": (
        "pandas is a Python library for data frames.",
        "src-pandas",
        ["c-pandas", "c-python"],
        "current",
    ),
    "cl-docker-neo4j": (
        "Neo4j maintains an official neo4j image on Docker Hub.",
        "src-docker",
        ["c-docker", "c-neo4j"],
        "current",
    ),
    "cl-docker-go": ("Docker is written in Go.", "src-docker", ["c-docker"], "current"),
    "cl-docker-k8s": (
        "Images built with Docker run on Kubernetes unchanged.",
        "src-kubernetes",
        ["c-docker", "c-kubernetes"],
        "current",
    ),
    "cl-k8s-google": (
        "Kubernetes began as a Google project.",
        "src-kubernetes",
        ["c-kubernetes", "c-google"],
        "current",
    ),
    "cl-louvain-fastest": (
        "Louvain is the fastest community detection algorithm.",
        "src-old-blog",
        ["c-louvain"],
        "current",
    ),
}

CONTRADICTIONS = [("cl-cql-imperative", "cl-cypher-declarative")]
SUPERSEDED_BY = {"cl-neo4j-lts-old": "cl-neo4j-lts"}
NEEDS_REVIEW = {"c-bolt": "derived from a changed source: docs/bolt.md"}


def source_texts() -> dict[str, str]:
    texts: dict[str, list[str]] = {sid: [] for sid in SOURCES}
    for text, sid, _, _ in CLAIMS.values():
        texts[sid].append(text)
    return {sid: " ".join(parts) for sid, parts in texts.items()}


def concept_sources() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {cid: [] for cid in CONCEPTS}
    for _, sid, about, _ in CLAIMS.values():
        for cid in about:
            if sid not in found[cid]:
                found[cid].append(sid)
    return found


def associations() -> list[dict]:
    """Concept pairs co-stated by a claim, as ingest writes them (weight = number of claims)."""
    pairs: dict[tuple[str, str], list[str]] = {}
    for cl, (_, _, about, status) in CLAIMS.items():
        if status == "superseded":
            continue
        for i, a in enumerate(about):
            for b in about[i + 1 :]:
                pairs.setdefault((a, b), []).append(cl)
    return [{"a": a, "b": b, "claims": claims, "weight": len(claims)} for (a, b), claims in pairs.items()]


_VECTORS: dict[str, list] = {}


def _encode(embedder, texts: list[str]) -> list:
    """Real embeddings, computed once per session (the fixture is rebuilt for every test)."""
    missing = [t for t in dict.fromkeys(texts) if t not in _VECTORS]
    if missing:
        _VECTORS.update(zip(missing, embedder.encode(missing)))
    return [_VECTORS[t] for t in texts]


def build_seed_graph(store, embedder) -> None:
    texts = source_texts()
    src_vecs = _encode(embedder, [f"{SOURCES[s][0]}. {texts[s]}" for s in SOURCES])
    store.query(
        "UNWIND $rows AS r CREATE (s:Source) SET s = r.props, "
        "s.ingested_at = datetime($now) - duration({days: r.age + 1}), "
        "s.last_seen_at = datetime($now) - duration({days: r.age})",
        now=datetime.now(UTC).isoformat(),
        rows=[
            {
                "age": age,
                "props": {
                    "id": sid,
                    "title": title,
                    "path": path,
                    "paths": [path],
                    "text": texts[sid],
                    "sha256": sha256_text(texts[sid]),
                    "status": status,
                    "embedding": vec.tolist(),
                    **({"superseded_by": "src-neo4j"} if status == "superseded" else {}),
                },
            }
            for (sid, (title, path, status, age)), vec in zip(SOURCES.items(), src_vecs)
        ],
    )
    sources = concept_sources()
    c_vecs = _encode(embedder, [f"{name}. {summary}" for name, _, _, summary in CONCEPTS.values()])
    create_concepts(store, CONCEPTS, c_vecs, sources, NEEDS_REVIEW)
    cl_vecs = _encode(embedder, [text for text, _, _, _ in CLAIMS.values()])
    store.query(
        "UNWIND $rows AS r MATCH (s:Source {id: r.source}) "
        "CREATE (cl:Claim)-[:DERIVED_FROM]->(s) SET cl = r.props, cl.created_at = datetime(), cl.updated_at = datetime() "
        "WITH cl, r UNWIND r.about AS cid MATCH (c:Concept {id: cid}) CREATE (cl)-[:ABOUT]->(c)",
        rows=[
            {
                "source": sid,
                "about": about,
                "props": {
                    "id": cl,
                    "text": text,
                    "embedding": vec.tolist(),
                    "status": status,
                    "needs_review": SOURCES[sid][2] == "superseded",
                    **(
                        {
                            "superseded_by": SUPERSEDED_BY[cl],
                            "decided_by": "human (graphwiki resolve)",
                            "decision_reason": "5.26 replaced 4.4 as LTS",
                        }
                        if cl in SUPERSEDED_BY
                        else {}
                    ),
                },
            }
            for (cl, (text, sid, about, status)), vec in zip(CLAIMS.items(), cl_vecs)
        ],
    )
    store.query(
        "UNWIND $pairs AS p MATCH (a:Concept {id: p.a}), (b:Concept {id: p.b}) "
        "CREATE (a)-[:RELATED_TO {claims: p.claims, weight: p.weight}]->(b)",
        pairs=associations(),
    )
    store.query(
        "UNWIND $pairs AS p MATCH (a:Claim {id: p[0]}), (b:Claim {id: p[1]}) "
        "CREATE (a)-[:CONTRADICTS {detected_at: datetime(), backend: 'test'}]->(b)",
        pairs=[list(p) for p in CONTRADICTIONS],
    )
    store.query("CALL db.awaitIndexes(60)")


def assert_schema(store) -> None:
    """What schema.py promises of any graph: provenance, claims about concepts, known statuses,
    type a property (never a label)."""
    assert (
        store.query(
            "MATCH (n) WHERE (n:Concept OR n:Claim) AND NOT (n)-[:DERIVED_FROM]->(:Source) RETURN count(n) AS n"
        )[0]["n"]
        == 0
    )
    assert store.query("MATCH (c:Claim) WHERE NOT (c)-[:ABOUT]->(:Concept) RETURN count(c) AS n")[0]["n"] == 0
    statuses = {
        r["s"] for r in store.query("MATCH (n) WHERE n:Concept OR n:Claim OR n:Source RETURN DISTINCT n.status AS s")
    }
    assert statuses <= set(STATUSES)
    assert (
        store.query("MATCH (c:Concept) WHERE c.type IS NULL OR size(labels(c)) > 1 RETURN count(c) AS n")[0]["n"] == 0
    )


def create_concepts(store, concepts: dict, vectors, sources: dict, needs_review: dict | None = None) -> None:
    """Concept nodes as ingest writes them (keys, summary, embedding, provenance), from
    ``{id: (name, type, aliases, summary)}`` with one vector each and ``{id: [source ids]}``."""
    needs_review = needs_review or {}
    store.query(
        "UNWIND $rows AS r CREATE (c:Concept) SET c = r.props, c.created_at = datetime(), c.updated_at = datetime() "
        "WITH c, r UNWIND r.sources AS sid MATCH (s:Source {id: sid}) CREATE (c)-[:DERIVED_FROM]->(s)",
        rows=[
            {
                "sources": sources[cid],
                "props": {
                    "id": cid,
                    "name": name,
                    "type": ctype,
                    "aliases": aliases,
                    "keys": keys_for(name, aliases),
                    "summary": summary,
                    "embedding": vec.tolist(),
                    "status": "current",
                    "needs_review": cid in needs_review,
                    "source_count": len(sources[cid]),
                    **({"review_reason": needs_review[cid]} if cid in needs_review else {}),
                },
            }
            for (cid, (name, ctype, aliases, summary)), vec in zip(concepts.items(), vectors)
        ],
    )
