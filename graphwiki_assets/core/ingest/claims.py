"""Stage: claims linked to their concepts, and conflicts with what the graph already holds.

Only claims that share a concept and are close in meaning are compared (a cheap screen
before the LLM). A contradiction disputes both claims. A new claim that supports one
side of an open dispute settles it: the other side becomes superseded, never deleted.
"""

from __future__ import annotations

import hashlib
import itertools
from dataclasses import dataclass, field

import numpy as np

from graphwiki_assets.core.embeddings import Embedder
from graphwiki_assets.core.ingest import cypher
from graphwiki_assets.core.ingest.models import ClaimRecord, ContradictionRecord, ResolutionPlan, SettlementRecord
from graphwiki_assets.core.llm.client import LLMClient
from graphwiki_assets.core.llm.requests import ClaimPair, ConflictRequest
from graphwiki_assets.core.store.driver import GraphStore

MAX_ASSOCIATED_CONCEPTS = 8  # a claim naming more than this is a list, not a relation


@dataclass(frozen=True)
class ConflictConfig:
    similarity_floor: float = 0.25  # claims sharing a concept yet less alike than this talk past each other
    per_claim: int = 5  # existing claims compared with each new claim
    batch: int = 20  # pairs per LLM call


@dataclass
class ClaimLinks:
    claims: list[ClaimRecord]
    associations: list[dict]
    contradictions: list[ContradictionRecord] = field(default_factory=list)
    settlements: list[SettlementRecord] = field(default_factory=list)
    compared: int = 0


def claim_id_for(source_id: str, text: str) -> str:
    key = " ".join(text.lower().split())
    digest = hashlib.sha1("\x1f".join((source_id, key)).encode()).hexdigest()
    return f"claim-{digest[:16]}"


def plan_claims(plan: ResolutionPlan, embedder: Embedder) -> ClaimLinks:
    extraction = plan.candidates.extraction
    concept_of = {extraction.concepts[a.mention_index].name: a.concept_id for a in plan.actions}
    texts = [c.text for c in extraction.claims]
    vectors = embedder.encode(texts)
    claims, associations = [], []
    for claim, vector in zip(extraction.claims, vectors):
        about = list(dict.fromkeys(concept_of[name] for name in claim.about if name in concept_of))
        if not about:
            continue
        record = ClaimRecord(id=claim_id_for(plan.candidates.source_id, claim.text), text=claim.text,
                             embedding=vector.tolist(), about=about)
        claims.append(record)
        if len(about) <= MAX_ASSOCIATED_CONCEPTS:
            for a, b in itertools.combinations(sorted(about), 2):
                associations.append({"a": a, "b": b, "claim": record.id})
    return ClaimLinks(claims=claims, associations=associations)


def find_conflicts(store: GraphStore, llm: LLMClient, plan: ResolutionPlan, links: ClaimLinks,
                   config: ConflictConfig = ConflictConfig()) -> ClaimLinks:
    concept_ids = sorted({cid for claim in links.claims for cid in claim.about})
    existing = store.query(cypher.EXISTING_CLAIMS_ABOUT, concept_ids=concept_ids,
                           source_id=plan.candidates.source_id) if concept_ids else []
    if not existing:
        return links
    # the new source may call the concept by a name the graph does not hold yet
    new_names: dict[str, list[str]] = {}
    for action in plan.actions:
        new_names.setdefault(action.concept_id, []).extend(action.aliases)
    names = {row["concept_id"]: (row["concept"], list(dict.fromkeys(row["aliases"] + new_names.get(row["concept_id"], []))))
             for row in existing}
    by_concept: dict[str, list[dict]] = {}
    for row in existing:
        by_concept.setdefault(row["concept_id"], []).append(row)

    pairs: list[tuple[ClaimRecord, dict, str]] = []
    seen: set[tuple[str, str]] = set()
    for claim in links.claims:
        scored = []
        for cid in claim.about:
            for row in by_concept.get(cid, []):
                if (claim.id, row["id"]) in seen or row["embedding"] is None:
                    continue
                score = float(np.dot(claim.embedding, row["embedding"]))
                if score >= config.similarity_floor:
                    scored.append((score, row, names[cid]))
        scored.sort(key=lambda t: t[0], reverse=True)
        for score, row, concept in scored[: config.per_claim]:
            seen.add((claim.id, row["id"]))
            pairs.append((claim, row, concept))
    links.compared = len(pairs)

    supports: dict[str, list[str]] = {}  # existing claim id -> new claims supporting it
    for start in range(0, len(pairs), config.batch):
        batch = pairs[start:start + config.batch]
        request = ConflictRequest(pairs=[
            ClaimPair(pair_id=f"c{start + n}", concept=concept[0], concept_aliases=concept[1],
                      new_claim=claim.text, existing_claim=row["text"])
            for n, (claim, row, concept) in enumerate(batch)
        ])
        verdicts = {v.pair_id: v for v in llm.conflicts(request).verdicts}
        for n, (claim, row, _) in enumerate(batch):
            verdict = verdicts.get(f"c{start + n}")
            if verdict is None:
                continue
            if verdict.relation == "contradicts":
                links.contradictions.append(ContradictionRecord(
                    new_claim=claim.id, existing_claim=row["id"], reason=verdict.reason))
            elif verdict.relation == "supports" and row["status"] == "disputed":
                supports.setdefault(row["id"], []).append(claim.id)
    links.settlements = _settlements(store, supports)
    return links


def _settlements(store: GraphStore, supports: dict[str, list[str]]) -> list[SettlementRecord]:
    """A new source siding with one claim of an open dispute supersedes the other side."""
    if not supports:
        return []
    opponents = store.query(cypher.DISPUTE_OPPONENTS, ids=list(supports))
    settled = []
    for row in opponents:
        winner, loser = row["claim"], row["opponent"]
        backers = supports[winner]
        # Only settle when the new source does not also back the loser.
        if loser in supports and set(supports[loser]) & set(backers):
            continue
        settled.append(SettlementRecord(
            winner=winner, loser=loser,
            reason=f"a later source agrees with {winner} (claims {', '.join(sorted(backers))})"))
    return settled
