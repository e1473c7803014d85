"""Stage 1 of entity resolution, the screen: exact names first, then the k nearest
concepts of the graph and of earlier sources of the batch, above a low floor.

The exact passes cost no vector: a normalised name or alias that matches a node (or an
earlier mention of the batch) with a compatible type settles the mention. The rest are
ranked by cosine; a rank cut transfers across domains where one cosine threshold did not.
Mentions of one source are candidates for each other only with lexical evidence of
identity (``overlap``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from graphwiki_assets.core.ingest import cypher
from graphwiki_assets.core.ingest.judging import JudgeConfig
from graphwiki_assets.core.ingest.mention_vectors import mixed
from graphwiki_assets.core.ingest.models import Mention
from graphwiki_assets.core.ingest.overlap import earlier_overlaps
from graphwiki_assets.core.ingest.timing import StageTimes
from graphwiki_assets.core.ingest.vectors import Vectors
from graphwiki_assets.core.store.driver import GraphStore
from graphwiki_assets.core.store.keys import key_query
from graphwiki_assets.core.text.type_names import GENERIC_TYPES, disjoint_types

GRAPH, BATCH, SOURCE = "graph", "batch", "source"  # where a stage-1 candidate comes from


@dataclass(frozen=True)
class Stage1Config:
    top_k: int = 5  # nearest existing concepts considered per mention
    # MiniLM-style models put unrelated text at cosine ~0-0.2; above that a name+context may
    # still be the same entity described from another angle, so only that band is screened.
    floor: float = 0.2
    judge: JudgeConfig = field(default_factory=JudgeConfig)

    @property
    def index_k(self) -> int:
        """How many neighbours to ask the vector index for. Its search is approximate (an HNSW
        graph whose shape depends on how the index was built); asking for twice as many and
        keeping the exact best ``top_k`` by score makes the screen the same however the
        index was built, after a crash and recovery as well."""
        return 2 * self.top_k


def types_compatible(a: str, b: str, taxonomy_a: str = "", taxonomy_b: str = "") -> bool:
    """Whether one name under two extracted types (and the config's types they were mapped
    to) may be one entity. Extractors word one thing's type differently from text to text
    ("Store", "Software", "Project"): two words the taxonomy maps to one specific type, or a
    specific word beside the fallback's, are the same kind; kinds known to be disjoint (a
    person and a place), two different specific types, or two unlisted words that both
    went to the fallback ("Planet", "Element") keep the names apart."""
    a, b = (a or "").strip().lower(), (b or "").strip().lower()
    if a in GENERIC_TYPES or b in GENERIC_TYPES or a == b:
        return True
    if disjoint_types(a, b):
        return False
    ta, tb = (taxonomy_a or "").strip().lower(), (taxonomy_b or "").strip().lower()
    if not ta or not tb:
        return False
    if ta in GENERIC_TYPES and tb in GENERIC_TYPES:
        return False
    return ta == tb or ta in GENERIC_TYPES or tb in GENERIC_TYPES


@dataclass
class Candidate:
    kind: str  # GRAPH, BATCH or SOURCE
    id: str  # the node's id, or the mention's index for in-batch candidates
    name: str
    type: str
    aliases: list[str]
    summary: str
    score: float
    other: int | None = None  # the candidate mention (BATCH and SOURCE)


@dataclass
class Stage1:
    exact_graph: dict[int, dict] = field(default_factory=dict)  # mention -> node row
    home: dict[int, int] = field(default_factory=dict)  # mention -> earlier mention of the same key
    candidates: dict[int, list[Candidate]] = field(default_factory=dict)
    considered: dict[int, int] = field(default_factory=dict)
    screened: dict[int, int] = field(default_factory=dict)


def exact_graph_matches(store: GraphStore, mentions: list[Mention]) -> dict[int, dict]:
    """The exact-key match of each mention, when its type does not contradict the node's; a
    type that is a recogniser's label alone contradicts nothing."""
    keyed = [
        row
        for row in ({"index": m.index, "keys": m.keys, "query": key_query(m.keys)} for m in mentions)
        if row["query"]
    ]
    found: dict[int, dict] = {}
    for row in store.query(cypher.EXACT_KEY_MATCHES, mentions=keyed) if keyed else []:
        mention = mentions[row["index"]]
        if row["index"] not in found and (
            mention.type_guessed
            or types_compatible(mention.type, row["type"], mention.taxonomy_type, row["taxonomy_type"] or "")
        ):
            found[row["index"]] = row
    return found


def exact_batch_homes(mentions: list[Mention], exact_graph: dict[int, dict]) -> dict[int, int]:
    """Earlier mentions of the batch that a mention names by the same key: one node, as if the
    earlier one were already in the graph. Keys of a group grow with its members' aliases."""
    owner: dict[str, int] = {}  # key -> the group's first mention
    group_type: dict[int, tuple[str, str, bool]] = {}  # the group's (extracted, taxonomy) type, guessed or not
    home: dict[int, int] = {}
    for m in mentions:
        root = None
        if m.index not in exact_graph:
            root = next((owner[k] for k in m.keys if k in owner and _fits_group(group_type[owner[k]], m)), None)
        if root is None:
            root = m.index
            group_type[root] = (m.type, m.taxonomy_type, m.type_guessed)
        else:
            home[m.index] = root
            if group_type[root][0].lower() in GENERIC_TYPES or (group_type[root][2] and not m.type_guessed):
                group_type[root] = (m.type, m.taxonomy_type, m.type_guessed)
        for key in m.keys:
            owner.setdefault(key, root)
    return home


def _fits_group(group: tuple[str, str, bool], m: Mention) -> bool:
    # a recogniser's label alone ("Helm 3" a place here, an organisation there) is no sign
    # that one name means two things
    return group[2] or m.type_guessed or types_compatible(group[0], m.type, group[1], m.taxonomy_type)


def _embed(mentions: list[Mention], need: list[Mention], vectors: Vectors, overlaps: dict[int, set[int]]) -> None:
    """Vectors for the mentions stage 1 compares: those it screens, and the earlier mentions
    of their own source that share a word with them (``overlaps``)."""
    wanted = {m.index for m in need}
    for m in need:
        wanted |= overlaps[m.index]
    vectors.ensure(t for i in sorted(wanted) for t in mentions[i].parts)
    for i in sorted(wanted):
        mentions[i].embedding = mixed(mentions[i].parts, [vectors[t] for t in mentions[i].parts]).tolist()


def _top(sims: np.ndarray, k: int) -> np.ndarray:
    """Positions of the k highest values, highest first; ties keep their order (as a stable
    sort by descending score would)."""
    return np.argsort(-sims, kind="stable")[:k]


def stage1(
    store: GraphStore, mentions: list[Mention], vectors: Vectors, config: Stage1Config, times: StageTimes
) -> Stage1:
    s = Stage1()
    with times.stage("vector_search"):
        s.exact_graph = exact_graph_matches(store, mentions)
        s.home = exact_batch_homes(mentions, s.exact_graph)
        need = [m for m in mentions if m.index not in s.exact_graph and m.index not in s.home]
    overlaps = earlier_overlaps(mentions)
    with times.stage("embed"):
        _embed(mentions, need, vectors, overlaps)
    with times.stage("vector_search"):
        rows = (
            store.query(
                cypher.VECTOR_CANDIDATES,
                k=config.index_k,
                mentions=[{"index": m.index, "embedding": m.embedding} for m in need],
            )
            if need
            else []
        )
    graph: dict[int, list[Candidate]] = {}
    for row in rows:
        graph.setdefault(row["index"], []).append(
            Candidate(
                GRAPH,
                row["id"],
                row["name"],
                row["type"] or "",
                row["aliases"] or [],
                row["summary"] or "",
                row["score"],
            )
        )
    if not need:
        return s
    dim = len(need[0].embedding or [])
    matrix = np.array([m.embedding or [0.0] * dim for m in mentions], dtype=np.float32)
    docs = np.array([m.doc for m in mentions])
    # Mentions that may become new nodes: what a later source of the batch could merge into.
    fresh = np.array([m.index for m in need])
    first_of_doc: dict[int, int] = {}  # a source's mentions are contiguous: its first index
    for m in mentions:
        first_of_doc.setdefault(m.doc, m.index)
    for m in need:
        # Vectorised: a long source has thousands of mentions, and a loop per pair is quadratic.
        earlier = fresh[docs[fresh] < m.doc]
        sims = matrix[earlier] @ matrix[m.index] if len(earlier) else np.empty(0, dtype=np.float32)
        batch = [
            Candidate(
                BATCH,
                f"mention:{i}",
                mentions[i].name,
                mentions[i].type,
                mentions[i].aliases,
                mentions[i].context,
                float(sims[j]),
                other=int(i),
            )
            for j, i in ((j, earlier[j]) for j in _top(sims, config.top_k))
        ]
        ranked = sorted(graph.get(m.index, []) + batch, key=lambda c: -c.score)[: config.top_k]
        kept = [c for c in ranked if c.score >= config.floor]
        s.considered[m.index] = len(ranked)
        s.screened[m.index] = len(ranked) - len(kept)
        # Within one source, earlier mentions with lexical evidence of identity.
        start = first_of_doc[m.doc]
        if start < m.index:
            local = matrix[start : m.index] @ matrix[m.index]
            for j in _top(local, config.top_k):
                o, sim = mentions[start + int(j)], float(local[j])
                if sim >= config.floor and o.embedding is not None and o.index in overlaps[m.index]:
                    kept.append(
                        Candidate(
                            SOURCE, f"mention:{o.index}", o.name, o.type, o.aliases, o.context, sim, other=o.index
                        )
                    )
        s.candidates[m.index] = kept
    return s
