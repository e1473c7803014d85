"""Source retrieval for multi-hop questions: bridge, Personalized PageRank, traversal, hybrid, flat.

``bridge`` (the default) follows how a multi-hop question is answered by hand: the passage
nearest the question is the anchor (the chain's first hop); every concept it mentions is a
possible bridge entity; a passage that mentions the same concept is reached through it. A
passage scores its own cosine to the question plus, at best over its bridges, the anchor's
cosine divided by the number of passages the bridge concept occurs in (a concept in every
passage bridges nothing); the anchor, where the chain starts, counts its own cosine twice
and stays first. The passage that names the bridge entity and matches the rest of the
question (the "lighthouse" in "the lighthouse of the town where the Vell River meets the sea")
then ranks beside the anchor, where flat retrieval ranks it far down.

``ppr`` links the question to concepts three ways — concepts it names
verbatim (exact keys), the claims nearest to it (HippoRAG 2 matches the query against
facts; a Claim is our fact) and the concepts nearest to it (the vector index) — and seeds
Personalized PageRank with them, each weighted by its linking score divided by the number
of sources it derives from (specificity: a concept in every passage says little), plus
every dense passage score scaled down by ``passage_weight``. PPR runs on the named
projection of concepts, claims and sources (undirected), and Sources are ranked by
their PageRank. ``hybrid`` fuses, by reciprocal rank, the dense passage ranking with the
passages of the concepts placed like the linked ones in the graph (their nearest FastRP node
embeddings, ``structure.py``): text similarity and structural proximity, as the second seed
asks. ``flat_sources`` is the dense baseline.

GDS 2.13 weighs all ``sourceNodes`` of a run equally, but PPR is linear in its reset
vector, so seeds are grouped by weight (within a factor ``weight_ratio``), each group is
one stream and the streams are summed with the group's mean weight, in one statement.
"""

from __future__ import annotations

from dataclasses import dataclass

from graphwiki_assets.core.embeddings import Embedder
from graphwiki_assets.core.query import cypher
from graphwiki_assets.core.query.linking import link_question
from graphwiki_assets.core.query.models import cosine, vector_pool
from graphwiki_assets.core.query.ppr import node_ids, without_absent
from graphwiki_assets.core.query.projection import refresh_projection, with_projection
from graphwiki_assets.core.query.traversal import walk
from graphwiki_assets.core.store.driver import GraphStore

__all__ = ["GRAPH_METHODS", "METHODS", "RetrievalConfig", "flat_sources", "refresh_projection", "retrieve_sources"]
GRAPH_METHODS = ("bridge", "ppr", "traversal", "hybrid")
METHODS = (*GRAPH_METHODS, "flat")


@dataclass(frozen=True)
class RetrievalConfig:
    # bridge: how many of the nearest passages have their concepts followed. One: the best
    # match is the chain's first hop; more anchors also bridge between distractors that
    # resemble each other (the eval's sweep reports 1, 3, 5 and 10).
    anchors: int = 1
    max_bridge_degree: int = 200  # bridge: concepts in more passages than this are not followed
    damping: float = 0.5  # HippoRAG 2's damping: half the walk restarts at the seeds
    passage_weight: float = 0.05  # HippoRAG 2's passage_node_weight
    link_top_k: int = 5  # claims, and concepts, nearest the question that become seeds
    dense_candidates: int = 200  # passages with a dense seed weight (the rest would get ~0)
    weight_ratio: float = 2.0  # seeds within this factor share one PPR run
    min_weight_share: float = 1 / 64  # seeds lighter than this share of the heaviest are dropped
    iterations: int = 20  # GDS default; damping 0.5 halves the error each step
    small_graph: int = 50_000  # below this many nodes one thread beats GDS's thread start-up
    fanout: int = 10  # traversal method only
    max_nodes: int = 200
    structure_k: int = 10  # hybrid: concepts nearest each seed by FastRP structure
    rrf_k: int = 60  # hybrid: reciprocal rank fusion's constant (Cormack et al., 2009)


def flat_sources(store: GraphStore, embedder: Embedder, question: str, k: int) -> list[tuple[str, float]]:
    """Top-k Sources by cosine of question and source embedding."""
    return flat_by_vector(store, embedder.encode_one(question), k)


def flat_by_vector(store: GraphStore, vector: list[float], k: int) -> list[tuple[str, float]]:
    """Top-k Sources by cosine to an embedded question (the vector-index query alone)."""
    rows = store.query(cypher.SOURCE_VECTOR, k=k, pool=vector_pool(k), embedding=vector)
    return [(r["id"], round(cosine(r["score"]), 6)) for r in rows]


def retrieve_sources(
    store: GraphStore,
    embedder: Embedder,
    question: str,
    k: int,
    hops: int = 2,
    method: str = "bridge",
    config: RetrievalConfig = RetrievalConfig(),
) -> list[tuple[str, float]]:
    """Top-k (source id, score). ``hops`` bounds the traversal method; PPR needs no depth."""
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, not {method!r}")
    if method == "flat":
        return flat_sources(store, embedder, question, k)
    vector = embedder.encode_one(question)
    if method == "bridge":
        return _bridge(store, vector, k, config)[:k]
    dense = _dense(store, vector, max(config.dense_candidates, k))
    seeds = concept_seeds(store, question, vector, config)
    if method == "traversal":
        ranked = _traverse(store, vector, seeds, dense, hops, config)
    elif method == "hybrid":
        ranked = _hybrid(store, seeds, dense, config)
    else:
        ranked = _personalized_pagerank(store, seeds, dense, k, config)
    # Passages the graph cannot reach still compete on their dense score.
    seen = {sid for sid, _ in ranked}
    ranked += [(sid, 0.0) for sid, _ in sorted(dense.items(), key=lambda t: -t[1]) if sid not in seen]
    return [(sid, round(score, 8)) for sid, score in ranked[:k]]


def _bridge(store: GraphStore, vector: list[float], k: int, config: RetrievalConfig) -> list[tuple[str, float]]:
    """Own cosine plus the best anchor cosine / bridge-concept passage count (see module doc)."""
    nearest = store.query(
        cypher.SOURCE_VECTOR, k=max(k, config.anchors), pool=vector_pool(max(k, config.anchors)), embedding=vector
    )
    scores = {r["id"]: cosine(r["score"]) for r in nearest}
    anchors = [{"id": r["id"], "score": scores[r["id"]]} for r in nearest[: config.anchors]]
    rows = store.query(cypher.BRIDGED_SOURCES, anchors=anchors, embedding=vector, max_degree=config.max_bridge_degree)
    for row in rows:
        scores[row["id"]] = cosine(row["relevance"]) + max(row["boost"], 0.0)
    for anchor in anchors:  # the chain starts at the anchor: it keeps its place above what it reaches
        scores[anchor["id"]] += anchor["score"]
    return [(sid, round(score, 8)) for sid, score in sorted(scores.items(), key=lambda t: (-t[1], t[0]))]


def _dense(store: GraphStore, vector: list[float], n: int) -> dict[str, float]:
    """Dense scores min-max normalised over the candidates, as HippoRAG 2 does."""
    rows = store.query(cypher.SOURCE_VECTOR, k=n, pool=vector_pool(n), embedding=vector)
    if not rows:
        return {}
    hi, lo = rows[0]["score"], rows[-1]["score"]
    span = hi - lo
    return {r["id"]: (r["score"] - lo) / span if span > 0 else 1.0 for r in rows}


def concept_seeds(store: GraphStore, question: str, vector: list[float], config: RetrievalConfig) -> dict[str, float]:
    """Concept id -> reset weight: linking score / number of sources (specificity)."""
    named = {link.concept_id: 1.0 for link in link_question(store, question)}
    scored: dict[str, float] = {}
    rows = store.query(
        cypher.CLAIM_VECTOR_CONCEPTS, k=config.link_top_k, pool=vector_pool(config.link_top_k), embedding=vector
    )
    rows += store.query(
        cypher.CONCEPT_VECTOR, k=config.link_top_k, pool=vector_pool(config.link_top_k), embedding=vector
    )
    for row in rows:
        scored[row["id"]] = max(scored.get(row["id"], 0.0), cosine(row["score"]))
    top = sorted((cid for cid in scored if cid not in named), key=lambda c: (-scored[c], c))[: config.link_top_k]
    linked = {**{cid: scored[cid] for cid in top}, **named}
    if not linked:
        return {}
    counts = {r["id"]: r["sources"] for r in store.query(cypher.CONCEPT_SOURCE_COUNTS, ids=list(linked))}
    return {cid: score / max(1, counts.get(cid, 1)) for cid, score in linked.items() if score > 0}


def seed_groups(weights: dict[int, float], ratio: float, min_share: float = 0.0) -> list[dict]:
    """Seeds grouped heaviest first, each group spanning at most a factor ``ratio``; a group
    runs once at its members' mean weight. Seeds under ``min_share`` of the heaviest add
    almost nothing and would cost a run each."""
    ranked = sorted(((w, n) for n, w in weights.items() if w > 0), reverse=True)
    floor = ranked[0][0] * min_share if ranked else 0.0
    groups: list[list[tuple[float, int]]] = []
    for weight, node in ranked:
        if weight < floor:
            break
        if groups and weight * ratio >= groups[-1][0][0]:
            groups[-1].append((weight, node))
        else:
            groups.append([(weight, node)])
    return [{"nodes": [n for _, n in g], "weight": sum(w for w, _ in g) / len(g)} for g in groups]


def _personalized_pagerank(
    store: GraphStore, seeds: dict[str, float], dense: dict[str, float], k: int, config: RetrievalConfig
) -> list[tuple[str, float]]:
    ids = node_ids(store, list(seeds) + list(dense))
    weights = {ids[c]: w for c, w in seeds.items() if c in ids}
    for sid, score in dense.items():
        if sid in ids:
            weights[ids[sid]] = weights.get(ids[sid], 0.0) + score * config.passage_weight

    def on(projection: dict) -> list[dict]:
        def run(excluded: set[int]) -> list[dict]:
            # nodes written since the last refresh are not in the projection: leave them out
            groups = seed_groups(
                {n: w for n, w in weights.items() if n not in excluded}, config.weight_ratio, config.min_weight_share
            )
            if not groups:
                return []
            return store.query(
                cypher.WEIGHTED_PPR_SOURCES,
                graph=projection["name"],
                groups=groups,
                damping=config.damping,
                iterations=config.iterations,
                k=k,
                concurrency=1 if projection["nodes"] < config.small_graph else 4,
            )

        return without_absent(run, len(weights))[0]

    return [(r["id"], r["score"]) for r in with_projection(store, on)]


def _traverse(
    store: GraphStore,
    vector: list[float],
    seeds: dict[str, float],
    dense: dict[str, float],
    hops: int,
    config: RetrievalConfig,
) -> list[tuple[str, float]]:
    """The seed's first graph method: entry concepts, N hops, their sources. A concept scores
    its seed weight halved per hop; a source, its best concept plus its dense share."""
    if not seeds:
        return []
    _, edges, _ = walk(store, vector, list(seeds), hops, config.fanout, config.max_nodes)
    scores = dict(seeds)
    for edge in edges:  # breadth-first order: a parent is scored before its children
        scores[edge["to"]] = max(scores.get(edge["to"], 0.0), scores[edge["from"]] / 2)
    concepts = [{"id": cid, "score": score} for cid, score in scores.items()]
    rows = store.query(cypher.SOURCES_OF_CONCEPTS, concepts=concepts)
    ranked = [(r["id"], r["score"] + config.passage_weight * dense.get(r["id"], 0.0)) for r in rows]
    return sorted(ranked, key=lambda t: (-t[1], t[0]))


def _hybrid(
    store: GraphStore, seeds: dict[str, float], dense: dict[str, float], config: RetrievalConfig
) -> list[tuple[str, float]]:
    """Text and structure fused by reciprocal rank: the dense passage ranking, and the
    passages of the concepts placed like the question's linked concepts (their FastRP
    neighbours, each scored by its seed's weight times the structural cosine)."""
    text = sorted(dense, key=lambda sid: (-dense[sid], sid))
    structural: list[str] = []
    if seeds:
        near = store.query(
            cypher.STRUCTURE_NEIGHBOURS,
            k=config.structure_k,
            seeds=[{"id": cid, "weight": w} for cid, w in seeds.items()],
        )
        rows = store.query(cypher.SOURCES_OF_CONCEPTS, concepts=[{"id": r["id"], "score": r["score"]} for r in near])
        structural = [r["id"] for r in sorted(rows, key=lambda r: (-r["score"], r["id"]))]
    fused: dict[str, float] = {}
    for ranking in (text, structural):
        for rank, sid in enumerate(ranking, start=1):
            fused[sid] = fused.get(sid, 0.0) + 1.0 / (config.rrf_k + rank)
    return sorted(fused.items(), key=lambda t: (-t[1], t[0]))
