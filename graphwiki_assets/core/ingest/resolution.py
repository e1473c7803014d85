"""Stage: two-stage entity resolution, planned in memory (written later in one transaction).

Cheap passes first: a normalised-name/alias match with a compatible type merges without
an LLM call. Stage 1 is a rank-based screen over the Neo4j vector index: the k nearest
concepts above a low floor are candidates (a rank cut transfers across domains where one
cosine threshold did not). Stage 2 asks the LLM, in batches per source, whether each
candidate is the same real-world entity or just related. Mentions of one source are
candidates for each other too.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np

from graphwiki_assets.core.embeddings import Embedder
from graphwiki_assets.core.ingest import cypher
from graphwiki_assets.core.ingest.keys import keys_for, name_key
from graphwiki_assets.core.ingest.models import Candidates, ConceptAction, JudgmentRecord, Mention, ResolutionPlan
from graphwiki_assets.core.llm.client import LLMClient
from graphwiki_assets.core.llm.requests import EntityView, JudgePair, JudgeRequest, Verdict
from graphwiki_assets.core.store.driver import GraphStore

GENERIC_TYPES = {"", "concept", "entity", "thing", "term"}
EXACT_BACKEND = "rules:exact-name"


@dataclass(frozen=True)
class Stage1Config:
    top_k: int = 5  # nearest existing concepts considered per mention
    # MiniLM-style models put unrelated text at cosine ~0-0.2; above that a name+context may
    # still be the same entity described from another angle, so only that band is screened.
    floor: float = 0.2
    judge_batch: int = 16  # pairs per stage-2 call
    judge_context: int = 160  # characters of context per side: the judge's cost grows with it


def _hash(*parts: str) -> str:
    return hashlib.sha1("\x1f".join(parts).encode()).hexdigest()[:16]


def concept_id_for(source_id: str, name: str) -> str:
    return f"concept-{_hash(source_id, name_key(name))}"


def key_query(keys: list[str]) -> str:
    """A Lucene query matching any of the keys as a phrase (keys carry no Lucene syntax)."""
    return " OR ".join(f'"{k}"' for k in keys if k.replace(" ", "").isalnum())


def types_compatible(a: str, b: str) -> bool:
    a, b = (a or "").strip().lower(), (b or "").strip().lower()
    return a in GENERIC_TYPES or b in GENERIC_TYPES or a == b


def mention_contexts(candidates: Candidates, limit: int = 240) -> dict[str, str]:
    """Context of a mention: its description, else the first claims about it."""
    contexts: dict[str, str] = {}
    for concept in candidates.extraction.concepts:
        parts = [concept.description] if concept.description else []
        for claim in candidates.extraction.claims:
            if concept.name in claim.about and len(" ".join(parts)) < limit:
                parts.append(claim.text)
        contexts[concept.name] = " ".join(parts)[:limit]
    return contexts


def build_mentions(candidates: Candidates, embedder: Embedder) -> list[Mention]:
    contexts = mention_contexts(candidates)
    concepts = candidates.extraction.concepts
    texts = [f"{c.name}. {contexts[c.name]}".strip() for c in concepts]
    vectors = embedder.encode(texts)
    return [
        Mention(index=i, name=c.name, type=c.type or "Concept", description=c.description,
                aliases=list(c.aliases), context=contexts[c.name], keys=keys_for(c.name, c.aliases),
                embedding=vectors[i].tolist())
        for i, c in enumerate(concepts)
    ]


def resolve(store: GraphStore, embedder: Embedder, llm: LLMClient, candidates: Candidates,
            config: Stage1Config = Stage1Config()) -> ResolutionPlan:
    mentions = build_mentions(candidates, embedder)
    params = [{"index": m.index, "keys": m.keys, "embedding": m.embedding, "query": key_query(m.keys)}
              for m in mentions]
    keyed = [p for p in params if p["query"]]
    exact = _first_per_mention(store.query(cypher.EXACT_KEY_MATCHES, mentions=keyed), mentions) if keyed else {}
    vector_rows = store.query(cypher.VECTOR_CANDIDATES, mentions=params, k=config.top_k) if mentions else []

    pairs: list[tuple[Mention, dict]] = []  # (mention, candidate view with id/score)
    stage1_pairs = stage1_screened = 0
    for row in vector_rows:
        mention = mentions[row["index"]]
        if mention.index in exact:
            continue
        stage1_pairs += 1
        if row["score"] < config.floor:
            stage1_screened += 1
            continue
        pairs.append((mention, {**row, "in_source": False}))
    pairs += _in_source_pairs(mentions, exact, config)

    verdicts = _judge(llm, pairs, config)
    judgments, actions = _decide(candidates, mentions, exact, pairs, verdicts, llm.label)
    return ResolutionPlan(candidates=candidates, actions=actions, judgments=judgments,
                          stage1_pairs=stage1_pairs, stage1_screened=stage1_screened,
                          exact_matches=len(exact))


def _first_per_mention(rows: list[dict], mentions: list[Mention]) -> dict[int, dict]:
    """The exact-key match of each mention, when its type does not contradict the node's."""
    found: dict[int, dict] = {}
    for row in rows:
        mention = mentions[row["index"]]
        if row["index"] not in found and types_compatible(mention.type, row["type"]):
            found[row["index"]] = row
    return found


def _initials(key: str) -> str:
    return "".join(word[0] for word in key.split() if word)


def names_overlap(a: Mention, b: Mention) -> bool:
    """Lexical evidence that two names may denote one thing: a shared word, or initials."""
    words_a = {w for k in a.keys for w in k.split()}
    words_b = {w for k in b.keys for w in k.split()}
    if words_a & words_b:
        return True
    compact_a = {k.replace(" ", "") for k in a.keys}
    compact_b = {k.replace(" ", "") for k in b.keys}
    return bool(compact_a & {_initials(k) for k in b.keys} or compact_b & {_initials(k) for k in a.keys})


def _in_source_pairs(mentions: list[Mention], exact: dict[int, dict], config: Stage1Config) -> list[tuple[Mention, dict]]:
    """Earlier mentions of the same source as candidates for later ones.

    One text names one thing one way, or states the other name (extraction already folds
    "X (Y)" and "also known as"); so within a source only names with lexical evidence
    of identity are judged, which keeps the judge's bill proportional to real doubt."""
    if len(mentions) < 2:
        return []
    matrix = np.array([m.embedding for m in mentions], dtype=np.float32)
    sims = matrix @ matrix.T
    pairs = []
    for i, mention in enumerate(mentions):
        if i in exact or i == 0:
            continue
        earlier = np.argsort(-sims[i, :i])[: config.top_k]
        for j in earlier:
            other = mentions[int(j)]
            if sims[i, j] >= config.floor and names_overlap(mention, other):
                pairs.append((mention, {"index": i, "id": f"mention:{other.index}", "name": other.name,
                                        "type": other.type, "aliases": other.aliases, "summary": other.context,
                                        "score": float(sims[i, j]), "in_source": True, "other": other.index}))
    return pairs


def _clip(text: str, limit: int) -> str:
    """Cut at a word boundary so the judge never sees half a word."""
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0] + " …"


def _judge(llm: LLMClient, pairs: list[tuple[Mention, dict]], config: Stage1Config) -> dict[str, Verdict]:
    verdicts: dict[str, Verdict] = {}
    requests = [
        JudgePair(
            pair_id=f"p{n}",
            mention=EntityView(name=m.name, type=m.type, aliases=m.aliases,
                               context=_clip(m.context, config.judge_context)),
            candidate=EntityView(name=c["name"], type=c["type"] or "", aliases=(c["aliases"] or [])[:8],
                                 context=_clip(c["summary"] or "", config.judge_context)),
        )
        for n, (m, c) in enumerate(pairs)
    ]
    for start in range(0, len(requests), config.judge_batch):
        response = llm.judge(JudgeRequest(pairs=requests[start:start + config.judge_batch]))
        verdicts.update({v.pair_id: v for v in response.verdicts})
    return verdicts


def _decide(candidates: Candidates, mentions: list[Mention], exact: dict[int, dict],
            pairs: list[tuple[Mention, dict]], verdicts: dict[str, Verdict], backend: str):
    source_id = candidates.source_id
    judgments: list[JudgmentRecord] = []
    by_mention: dict[int, list[tuple[dict, Verdict, str]]] = {}
    for n, (mention, cand) in enumerate(pairs):
        verdict = verdicts.get(f"p{n}") or Verdict(pair_id=f"p{n}", same=False, reason="no verdict returned")
        jid = f"judgment-{_hash(source_id, mention.name, cand['id'])}"
        by_mention.setdefault(mention.index, []).append((cand, verdict, jid))
        if not cand["in_source"]:
            judgments.append(JudgmentRecord(
                id=jid, mention=mention.name, mention_context=mention.context, candidate_id=cand["id"],
                candidate_name=cand["name"], verdict="SAME" if verdict.same else "NOT_SAME",
                score=round(float(cand["score"]), 4), backend=backend, reason=verdict.reason))
    for index, row in exact.items():
        mention = mentions[index]
        judgments.append(JudgmentRecord(
            id=f"judgment-{_hash(source_id, mention.name, row['id'])}", mention=mention.name,
            mention_context=mention.context, candidate_id=row["id"], candidate_name=row["name"], verdict="SAME",
            score=1.0, backend=EXACT_BACKEND, reason="normalised name or alias is identical"))

    actions: list[ConceptAction] = []
    target_of: dict[int, str] = {}
    for mention in mentions:
        judged = by_mention.get(mention.index, [])
        same_graph = sorted(((c, v) for c, v, _ in judged if v.same and not c["in_source"]),
                            key=lambda cv: (cv[1].confidence, cv[0]["score"]), reverse=True)
        same_local = [c for c, v, _ in judged if v.same and c["in_source"]]
        if mention.index in exact:
            concept_id, created = exact[mention.index]["id"], False
        elif same_graph:
            concept_id, created = same_graph[0][0]["id"], False
        elif same_local:
            concept_id, created = target_of[same_local[0]["other"]], False
        else:
            concept_id, created = concept_id_for(source_id, mention.name), True
        target_of[mention.index] = concept_id
        # The surface form becomes an alias of the node it merged into.
        aliases = list(dict.fromkeys([mention.name, *mention.aliases]))
        not_same = [c["id"] for c, v, _ in judged if not v.same and not c["in_source"] and c["id"] != concept_id]
        actions.append(ConceptAction(
            mention_index=mention.index, concept_id=concept_id, created=created, name=mention.name,
            type=mention.type, description=mention.description or mention.context, aliases=aliases,
            keys=mention.keys, embedding=mention.embedding, not_same_as=not_same))
    index_of = {m.name: m.index for m in mentions}
    for record in judgments:
        record.concept_id = target_of[index_of[record.mention]]
    return judgments, actions
