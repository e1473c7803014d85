""" "How does X connect to Y": the shortest path; its inner nodes and claims explain it.

Concept-to-concept edges are tried first; only when no such chain exists does the path
run through claims and the sources that state them (co-occurrence evidence).
"""

from __future__ import annotations

from graphwiki_assets.core.query import cypher
from graphwiki_assets.core.query.models import QueryOptions, Retrieval
from graphwiki_assets.core.query.subgraph import claims_linking
from graphwiki_assets.core.store.driver import Graph


def shortest(store: Graph, starts: list[str], ends: list[str]) -> tuple[dict | None, str]:
    """The shortest concept chain over every (start, end) pair, else an evidence path."""
    pairs = [(a, b) for a in starts for b in ends if a != b]
    found = [row for a, b in pairs for row in store.query(cypher.CONCEPT_PATH, a=a, b=b)]
    if found:
        return min(found, key=lambda r: len(r["nodes"])), "concepts"
    found = [row for a, b in pairs for row in store.query(cypher.EVIDENCE_PATH, a=a, b=b)]
    if found:
        return min(found, key=lambda r: len(r["nodes"])), "evidence"
    return None, ""


def connect(store: Graph, question: list[float], starts: list[str], ends: list[str], opts: QueryOptions) -> Retrieval:
    path, kind = shortest(store, starts, ends)
    if path is None:
        return Retrieval(
            technique="shortest path",
            concepts=starts + ends,
            summaries=starts + ends,
            empty_reason="the graph holds no path between the two entities",
        )
    nodes = path["nodes"]
    concepts = [n["id"] for n in nodes if n["label"] == "Concept"]
    hops = [(a["id"], b["id"]) for a, b in zip(nodes, nodes[1:]) if a["label"] == b["label"] == "Concept"]
    evidence = [r["id"] for r in claims_linking(store, question, hops, per_pair=2)]
    on_path = [n["id"] for n in nodes if n["label"] == "Claim"]
    chain = " -> ".join(n["name"] for n in nodes)
    return Retrieval(
        technique="shortest path",
        concepts=concepts,
        claims=on_path + evidence,
        summaries=concepts[1:-1],
        sources=[n["id"] for n in nodes if n["label"] == "Source"],
        details={"path": nodes, "edges": path["kinds"], "through": kind, "length": len(nodes) - 1},
        explanation=f"path of {len(nodes) - 1} edge(s) through {kind}: {chain}",
    )
