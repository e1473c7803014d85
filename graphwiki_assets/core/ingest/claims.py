"""Stage: claims linked to the concepts they are about, and concepts stated together.

A claim naming more than a handful of concepts is a list, not a relation between them,
so it makes no association edges.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import itertools
from dataclasses import dataclass, field

from graphwiki_assets.core.ingest.models import (
    Candidates,
    ClaimRecord,
    ContradictionRecord,
    ResolutionPlan,
    SettlementRecord,
)
from graphwiki_assets.core.ingest.vectors import Vectors

MAX_ASSOCIATED_CONCEPTS = 8


@dataclass
class ClaimLinks:
    """One source's claims, associations and what they did to existing claims."""

    source_id: str
    claims: list[ClaimRecord]
    associations: list[dict]
    contradictions: list[ContradictionRecord] = field(default_factory=list)
    settlements: list[SettlementRecord] = field(default_factory=list)
    # (new claim, existing claim) the conflict judge found to say the same: corroboration
    # when the two come from different files
    supports: list[tuple[str, str]] = field(default_factory=list)
    compared: int = 0  # pairs judged for this source, restatements included
    restated: int = 0  # of them, restatements in other files found by embedding alone
    date: dt.date | None = None  # the source's own date (None: not dated)
    # settlements a dispute's dates forbade: the loser is the newer claim, so both stay disputed
    held: list[SettlementRecord] = field(default_factory=list)


def claim_id_for(source_id: str, text: str) -> str:
    key = " ".join(text.lower().split())
    digest = hashlib.sha1("\x1f".join((source_id, key)).encode()).hexdigest()
    return f"claim-{digest[:16]}"


def claim_texts(batch: list[Candidates]) -> list[str]:
    return [claim.text for candidates in batch for claim in candidates.extraction.claims]


def plan_claims(plan: ResolutionPlan, vectors: Vectors) -> ClaimLinks:
    extraction = plan.candidates.extraction
    source_id = plan.candidates.source_id
    concept_of = {extraction.concepts[a.mention_index].name: a.concept_id for a in plan.actions}
    claims, associations = [], []
    for claim in extraction.claims:
        about = list(dict.fromkeys(concept_of[name] for name in claim.about if name in concept_of))
        if not about:
            continue
        record = ClaimRecord(
            id=claim_id_for(source_id, claim.text),
            source_id=source_id,
            text=claim.text,
            embedding=vectors[claim.text].tolist(),
            about=about,
            section=plan.candidates.claim_sections.get(claim.text, ""),
        )
        claims.append(record)
        if len(about) <= MAX_ASSOCIATED_CONCEPTS:
            for a, b in itertools.combinations(sorted(about), 2):
                associations.append({"a": a, "b": b, "claim": record.id})
    return ClaimLinks(source_id=source_id, claims=claims, associations=associations, date=plan.candidates.date)
