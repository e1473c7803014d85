"""Screen: new claims paired with their restatements in other files, whatever concepts they are about.

The conflict stage compares a new claim with the claims that share a concept with it. Two
files often attach one fact to different concept nodes ("X cluster" in one, "X" in the
other), or state it in other words, so the two claims were never compared and each stayed
"one source". A restatement in another file is independent evidence for a claim, so each
new claim is also paired with its nearest claims of other files by embedding: those in the
graph (its vector index) and those of earlier sources in the batch. The pairs go through the
conflict stage's one judgment: 'supports' corroborates both claims, 'contradicts' disputes
them, 'unrelated' does nothing. Versions of one file are never paired: the independent
sources of a claim are its distinct paths.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from graphwiki_assets.core.ingest import cypher
from graphwiki_assets.core.ingest.chronology import as_date
from graphwiki_assets.core.ingest.claims import ClaimLinks
from graphwiki_assets.core.ingest.comparable import comparable
from graphwiki_assets.core.ingest.compared import Existing, Pair
from graphwiki_assets.core.store.driver import GraphStore


@dataclass(frozen=True)
class RestatementConfig:
    # The bar is for a restatement, not for closeness of topic. With all-MiniLM-L6-v2 a
    # statement reordered or put in the passive scores about 0.9 to 0.95 against itself,
    # one said in other words ("runs nightly at 00:00" for "is taken every night at
    # midnight") about 0.8, and one with a value changed about 0.8 too (the judge calls it
    # a contradiction); two statements on one topic mostly fall below, and those above it
    # are the judge's to call unrelated.
    similarity: float = 0.8
    per_claim: int = 3  # extra pairs judged per new claim: bounds the LLM calls this screen adds
    # nearest claims the index returns per claim before those of other files are kept:
    # the copies in earlier versions of the same file come first
    candidates: int = 20


Found = dict[str, list[tuple[float, Existing]]]  # new claim id -> (cosine, a claim restating it)


def restatement_pairs(
    store: GraphStore,
    links: list[ClaimLinks],
    paths: list[str],
    names: dict[str, tuple[str, list[str]]],
    known: set[tuple[str, str]],
    config: RestatementConfig,
) -> list[Pair]:
    """At most ``config.per_claim`` pairs per new claim, nearest first, none already in ``known``."""
    if config.per_claim <= 0:
        return []
    found = _in_graph(store, links, paths, config.similarity, config.candidates)
    for claim_id, more in _in_batch(links, paths, config.similarity).items():
        found.setdefault(claim_id, []).extend(more)
    pairs: list[Pair] = []
    for doc, link in enumerate(links):
        for claim in link.claims:
            fresh = [
                (score, other)
                for score, other in found.get(claim.id, [])
                if (claim.id, other.id) not in known
                and (other.id, claim.id) not in known
                and comparable(claim.text, other.text, same_file=paths[doc] in other.paths)
            ]
            fresh.sort(key=lambda t: (-t[0], t[1].id))
            # The judge reads the pair under one of the new claim's concepts: the other claim
            # may be about another node, which is why the pair was not made before.
            concept, aliases = names[claim.about[0]]
            pairs += [
                Pair(doc, claim.id, claim.text, other, concept, aliases) for _, other in fresh[: config.per_claim]
            ]
    return pairs


def _in_graph(store: GraphStore, links: list[ClaimLinks], paths: list[str], similarity: float, k: int) -> Found:
    claims = [
        {"id": claim.id, "embedding": claim.embedding, "path": paths[doc]}
        for doc, link in enumerate(links)
        for claim in link.claims
    ]
    if not claims:
        return {}
    rows = store.query(
        cypher.RESTATED_CLAIMS,
        claims=claims,
        k=k,
        similarity=similarity,
        source_ids=[link.source_id for link in links],
    )
    found: Found = {}
    for row in rows:
        other = Existing(
            row["id"], row["text"], row["status"], [], None, as_date(row["stated"]), frozenset(row["paths"])
        )
        found.setdefault(row["claim"], []).append((float(row["similarity"]), other))
    return found


def _in_batch(links: list[ClaimLinks], paths: list[str], similarity: float) -> Found:
    """Each claim's restatements among the claims of earlier sources of the batch (another path)."""
    owned = [(doc, claim) for doc, link in enumerate(links) for claim in link.claims]
    if not owned:
        return {}
    vectors = np.asarray([claim.embedding for _, claim in owned], dtype=np.float32)
    scores = vectors @ vectors.T
    found: Found = {}
    for i, j in zip(*np.nonzero(scores >= similarity)):
        (doc, claim), (earlier, other) = owned[i], owned[j]
        if earlier < doc and paths[earlier] != paths[doc] and other.id != claim.id:
            stated = Existing(
                other.id,
                other.text,
                "current",
                other.embedding,
                earlier,
                links[earlier].date,
                frozenset([paths[earlier]]),
            )
            found.setdefault(claim.id, []).append((float(scores[i, j]), stated))
    return found
