"""Stage: two-stage entity resolution for a batch of sources, planned in memory (the
commit writes it later, in one transaction).

Sources of a batch are resolved in order, as if each earlier one had been committed
already: what an earlier source of the batch would create is a candidate for the later
ones, exactly as the graph's own concepts are.

- Cheap passes first: a normalised name or alias that matches a node (or an earlier
  mention of the batch) with a compatible type merges without an LLM call.
- Stage 1 is a rank-based screen: the k nearest concepts above a low floor, from the
  Neo4j vector index (one query for the whole batch) and among the new concepts of
  earlier sources. A rank cut transfers across domains where one cosine threshold did not.
- Stage 2 asks the LLM whether each candidate is the same real-world entity or just
  related, in a few large calls per batch (``judging``). A candidate of a kind the
  mention can never be (a person and a city) is ruled out before any call.
- Mentions of one source are candidates for each other only with lexical evidence of
  identity: one text names one thing one way, or states the other name.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import numpy as np

from graphwiki_assets.core.ingest import cypher
from graphwiki_assets.core.ingest.judging import JudgeConfig, judge_pairs, view
from graphwiki_assets.core.ingest.mention_vectors import mixed
from graphwiki_assets.core.ingest.models import Candidates, ConceptAction, JudgmentRecord, Mention, ResolutionPlan
from graphwiki_assets.core.ingest.overlap import earlier_overlaps
from graphwiki_assets.core.ingest.timing import StageTimes
from graphwiki_assets.core.ingest.vectors import Vectors
from graphwiki_assets.core.llm.calls import EntityView, Verdict
from graphwiki_assets.core.llm.client import LLMClient
from graphwiki_assets.core.store.driver import GraphStore
from graphwiki_assets.core.store.keys import key_query, keys_for, name_key
from graphwiki_assets.core.text.type_names import GENERIC_TYPES, disjoint_types

EXACT_BACKEND = "rules:exact-name"
TYPES_BACKEND = "rules:disjoint-types"
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


def _hash(*parts: str) -> str:
    return hashlib.sha1("\x1f".join(parts).encode()).hexdigest()[:16]


def concept_id_for(source_id: str, name: str) -> str:
    return f"concept-{_hash(source_id, name_key(name))}"


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


def mention_contexts(candidates: Candidates, limit: int = 240) -> dict[str, str]:
    """What the judge reads about a mention: its description, then claims about it."""
    # Claims by the names they are about, in source order: a long source has thousands of
    # concepts and claims, and scanning every claim for every concept is quadratic.
    about: dict[str, list[str]] = {}
    for claim in candidates.extraction.claims:
        for name in dict.fromkeys(claim.about):
            about.setdefault(name, []).append(claim.text)
    contexts: dict[str, str] = {}
    for concept in candidates.extraction.concepts:
        parts = [concept.description] if concept.description else []
        for text in about.get(concept.name, []):
            if len(" ".join(parts)) >= limit:
                break
            parts.append(text)
        contexts[concept.name] = " ".join(parts)[:limit]
    return contexts


def identity_contexts(candidates: Candidates) -> dict[str, str]:
    """What stage 1 embeds beside a name: what the thing is (its description, else the first
    claim about it), not everything the source says about it. More text makes the vector
    more about the topic than the entity, and costs embedding time in proportion."""
    first_claim: dict[str, str] = {}
    for claim in candidates.extraction.claims:
        for name in claim.about:
            first_claim.setdefault(name, claim.text)
    return {c.name: c.description or first_claim.get(c.name, "") for c in candidates.extraction.concepts}


def build_mentions(batch: list[Candidates]) -> list[Mention]:
    mentions: list[Mention] = []
    for doc, candidates in enumerate(batch):
        contexts, identity = mention_contexts(candidates), identity_contexts(candidates)
        for c in candidates.extraction.concepts:
            mentions.append(
                Mention(
                    index=len(mentions),
                    doc=doc,
                    source_id=candidates.source_id,
                    name=c.name,
                    type=c.extracted_type or c.type or "Concept",
                    taxonomy_type=c.type or "Concept",
                    description=c.description,
                    aliases=list(c.aliases),
                    context=contexts[c.name],
                    keys=keys_for(c.name, c.aliases),
                    identity=identity[c.name],
                )
            )
    return mentions


def mention_texts(store: GraphStore, batch: list[Candidates]) -> list[str]:
    """The mention texts stage 1 will likely compare: not those an exact name already settles
    (read before the lease; a mention that needs a vector after all gets it on demand)."""
    mentions = build_mentions(batch)
    exact = _exact_graph(store, mentions)
    home = _exact_batch(mentions, exact)
    return [t for m in mentions if m.index not in exact and m.index not in home for t in m.parts]


@dataclass
class _Candidate:
    kind: str  # GRAPH, BATCH or SOURCE
    id: str  # the node's id, or the mention's index for in-batch candidates
    name: str
    type: str
    aliases: list[str]
    summary: str
    score: float
    other: int | None = None  # the candidate mention (BATCH and SOURCE)


@dataclass
class _Stage1:
    exact_graph: dict[int, dict] = field(default_factory=dict)  # mention -> node row
    home: dict[int, int] = field(default_factory=dict)  # mention -> earlier mention of the same key
    candidates: dict[int, list[_Candidate]] = field(default_factory=dict)
    considered: dict[int, int] = field(default_factory=dict)
    screened: dict[int, int] = field(default_factory=dict)


def _exact_graph(store: GraphStore, mentions: list[Mention]) -> dict[int, dict]:
    """The exact-key match of each mention, when its type does not contradict the node's."""
    keyed = [
        row
        for row in ({"index": m.index, "keys": m.keys, "query": key_query(m.keys)} for m in mentions)
        if row["query"]
    ]
    found: dict[int, dict] = {}
    for row in store.query(cypher.EXACT_KEY_MATCHES, mentions=keyed) if keyed else []:
        mention = mentions[row["index"]]
        if row["index"] not in found and types_compatible(
            mention.type, row["type"], mention.taxonomy_type, row["taxonomy_type"] or ""
        ):
            found[row["index"]] = row
    return found


def _exact_batch(mentions: list[Mention], exact_graph: dict[int, dict]) -> dict[int, int]:
    """Earlier mentions of the batch that a mention names by the same key: one node, as if the
    earlier one were already in the graph. Keys of a group grow with its members' aliases."""
    owner: dict[str, int] = {}  # key -> the group's first mention
    group_type: dict[int, tuple[str, str]] = {}  # the group's (extracted, taxonomy) type
    home: dict[int, int] = {}
    for m in mentions:
        root = None
        if m.index not in exact_graph:
            root = next((owner[k] for k in m.keys if k in owner and _fits_group(group_type[owner[k]], m)), None)
        if root is None:
            root = m.index
            group_type[root] = (m.type, m.taxonomy_type)
        else:
            home[m.index] = root
            if group_type[root][0].lower() in GENERIC_TYPES:
                group_type[root] = (m.type, m.taxonomy_type)
        for key in m.keys:
            owner.setdefault(key, root)
    return home


def _fits_group(group: tuple[str, str], m: Mention) -> bool:
    return types_compatible(group[0], m.type, group[1], m.taxonomy_type)


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


def _stage1(
    store: GraphStore, mentions: list[Mention], vectors: Vectors, config: Stage1Config, times: StageTimes
) -> _Stage1:
    s = _Stage1()
    with times.stage("vector_search"):
        s.exact_graph = _exact_graph(store, mentions)
        s.home = _exact_batch(mentions, s.exact_graph)
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
    graph: dict[int, list[_Candidate]] = {}
    for row in rows:
        graph.setdefault(row["index"], []).append(
            _Candidate(
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
            _Candidate(
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
                        _Candidate(
                            SOURCE, f"mention:{o.index}", o.name, o.type, o.aliases, o.context, sim, other=o.index
                        )
                    )
        s.candidates[m.index] = kept
    return s


def resolve_batch(
    store: GraphStore,
    llm: LLMClient,
    batch: list[Candidates],
    vectors: Vectors,
    config: Stage1Config = Stage1Config(),
    times: StageTimes | None = None,
) -> list[ResolutionPlan]:
    times = times or StageTimes()
    mentions = build_mentions(batch)
    s = _stage1(store, mentions, vectors, config, times)

    pairs: list[tuple[Mention, _Candidate]] = []
    groups: list[list[int]] = []
    ruled: dict[int, Verdict] = {}  # pairs decided by rules, no call spent
    for m in mentions:
        group = []
        for cand in s.candidates.get(m.index, []):
            if cand.kind != SOURCE and disjoint_types(m.type, cand.type):
                ruled[len(pairs)] = Verdict(
                    pair_id=f"p{len(pairs)}",
                    verdict="DIFFERENT",
                    confidence=1.0,
                    reason=f"disjoint kinds: {m.type} vs {cand.type}",
                )
            else:
                group.append(len(pairs))
            pairs.append((m, cand))
        if group:
            groups.append(group)
    asked = [i for group in groups for i in group]
    with times.stage("judge"):
        views: list[tuple[EntityView, EntityView]] = [
            (
                view(pairs[i][0].name, pairs[i][0].type, pairs[i][0].aliases, pairs[i][0].context, config.judge),
                view(pairs[i][1].name, pairs[i][1].type, pairs[i][1].aliases, pairs[i][1].summary, config.judge),
            )
            for i in asked
        ]
        position = {i: n for n, i in enumerate(asked)}
        answers = judge_pairs(llm, views, config.judge, [[position[i] for i in group] for group in groups])
    verdicts = [ruled[i] if i in ruled else answers[position[i]] for i in range(len(pairs))]
    backends = [TYPES_BACKEND if i in ruled else llm.label for i in range(len(pairs))]
    return _decide(batch, mentions, s, pairs, verdicts, backends)


def _judgment_id(m: Mention, cand: _Candidate, mentions: list[Mention]) -> str:
    other = mentions[cand.other] if cand.other is not None else None
    key = cand.id if other is None else f"{other.source_id}/{other.name}"
    return f"judgment-{_hash(m.source_id, m.name, key)}"


def _decide(
    batch: list[Candidates],
    mentions: list[Mention],
    s: _Stage1,
    pairs: list[tuple[Mention, _Candidate]],
    verdicts: list[Verdict],
    backends: list[str],
) -> list[ResolutionPlan]:
    judged: dict[int, list[tuple[_Candidate, Verdict]]] = {}
    for (m, cand), verdict in zip(pairs, verdicts):
        judged.setdefault(m.index, []).append((cand, verdict))

    target: dict[int, str] = {}

    def concept_of(c: _Candidate) -> str:
        """A graph candidate's node, or the concept its mention went to (an earlier one's)."""
        return c.id if c.other is None else target[c.other]

    actions: list[ConceptAction] = []
    created_here: set[str] = set()
    for m in mentions:
        mine = judged.get(m.index, [])
        across = sorted(
            ((c, v) for c, v in mine if v.same and c.kind != SOURCE),
            key=lambda cv: (cv[1].confidence, cv[0].score),
            reverse=True,
        )
        local = [c for c, v in mine if v.same and c.kind == SOURCE]
        if m.index in s.exact_graph:
            concept_id = s.exact_graph[m.index]["id"]
        elif m.index in s.home:
            concept_id = target[s.home[m.index]]
        elif across:
            best = across[0][0]
            concept_id = concept_of(best)
        elif local:
            concept_id = concept_of(local[0])
        else:
            concept_id = concept_id_for(m.source_id, m.name)
        created = concept_id not in created_here and not (
            m.index in s.exact_graph or m.index in s.home or across or local
        )
        if created:
            created_here.add(concept_id)
        target[m.index] = concept_id
        not_same: dict[str, str] = {}  # the other concept -> the judgment that kept them apart
        related: dict[str, str] = {}  # the other concept -> why the judge found them related
        for c, v in mine:
            if v.same or c.kind == SOURCE:
                continue
            other = concept_of(c)
            if other != concept_id and other not in not_same:
                not_same[other] = _judgment_id(m, c, mentions)
                if v.verdict == "RELATED":
                    related[other] = v.reason
        actions.append(
            ConceptAction(
                source_id=m.source_id,
                mention_index=m.index - _first_of_doc(mentions, m.doc),
                concept_id=concept_id,
                created=created,
                name=m.name,
                type=m.taxonomy_type or m.type,
                extracted_type=m.type,
                description=m.description or m.context,
                aliases=list(dict.fromkeys([m.name, *m.aliases])),  # the surface form becomes an alias
                keys=m.keys,
                embedding=m.embedding,
                not_same_as=not_same,
                related_to=related,
            )
        )

    judgments: list[JudgmentRecord] = []
    for (m, cand), verdict, backend in zip(pairs, verdicts, backends):
        if cand.kind == SOURCE:
            continue
        judgments.append(
            JudgmentRecord(
                id=_judgment_id(m, cand, mentions),
                source_id=m.source_id,
                mention=m.name,
                mention_context=m.context,
                candidate_id=concept_of(cand),
                candidate_name=cand.name,
                verdict=verdict.verdict,
                score=round(float(cand.score), 4),
                backend=backend,
                reason=verdict.reason,
                concept_id=target[m.index],
            )
        )
    for m in mentions:
        if m.index in s.exact_graph:
            row = s.exact_graph[m.index]
            cand_id, cand_name = row["id"], row["name"]
        elif m.index in s.home:
            root = mentions[s.home[m.index]]
            cand_id, cand_name = target[root.index], root.name
        else:
            continue
        judgments.append(
            JudgmentRecord(
                id=f"judgment-{_hash(m.source_id, m.name, cand_id)}",
                source_id=m.source_id,
                mention=m.name,
                mention_context=m.context,
                candidate_id=cand_id,
                candidate_name=cand_name,
                verdict="SAME",
                score=1.0,
                backend=EXACT_BACKEND,
                reason="normalised name or alias is identical",
                concept_id=target[m.index],
            )
        )

    plans = []
    for doc, candidates in enumerate(batch):
        ids = {m.index for m in mentions if m.doc == doc}
        plans.append(
            ResolutionPlan(
                candidates=candidates,
                actions=[a for a in actions if a.source_id == candidates.source_id],
                judgments=[j for j in judgments if j.source_id == candidates.source_id],
                stage1_pairs=sum(s.considered.get(i, 0) for i in ids),
                stage1_screened=sum(s.screened.get(i, 0) for i in ids),
                exact_matches=sum(i in s.exact_graph or i in s.home for i in ids),
                judged_pairs=sum(
                    1 for (m, _), b in zip(pairs, backends) if m.index in ids and b not in (TYPES_BACKEND,)
                ),
            )
        )
    return plans


def _first_of_doc(mentions: list[Mention], doc: int) -> int:
    return next(m.index for m in mentions if m.doc == doc)
