"""What flows between the ingest stages (and between the Dagster assets).

A batch moves through the stages together; each source keeps its own plan so that a
report, a Dagster partition or a failure can always be told per source.
"""

from __future__ import annotations

import datetime as dt

from pydantic import BaseModel, Field

from graphwiki_assets.core.ingest.mention_vectors import mention_parts
from graphwiki_assets.core.llm.calls import ExtractResponse


class Candidates(BaseModel):
    """A source and what extraction found in it (nothing written yet)."""

    source_id: str
    path: str
    title: str
    text: str
    sha256: str
    date: dt.date | None = None  # the date the source gives itself (core/documents/dates.py)
    date_source: str = ""
    extraction: ExtractResponse
    removed_injections: list[str] = Field(default_factory=list)
    chunks: int = 1
    also_paths: list[str] = Field(default_factory=list)  # other files of this batch with the same text
    typed: dict = Field(default_factory=dict)  # how the taxonomy typed its concepts (ingest/taxonomy.py)
    scope: str = "in"  # "out": outside the schema config's focus, promotes nothing (ingest/scope.py)
    scope_reason: str = ""
    # claim text -> the section its piece came from (a PDF's "Heading > p. 2", a heading path)
    claim_sections: dict[str, str] = Field(default_factory=dict)


class Mention(BaseModel):
    """One extracted concept, on its way to a node."""

    index: int  # position among all mentions of the batch
    doc: int  # position of its source in the batch
    source_id: str
    name: str
    type: str  # the extractor's own type: entity resolution compares these (finer than the taxonomy's)
    taxonomy_type: str = ""  # the config's type it was mapped to
    type_guessed: bool = False  # the type is a recogniser's label alone (see ExtractedConcept)
    description: str
    definition: str = ""  # a sentence of the source that defines it
    aliases: list[str]
    context: str
    keys: list[str]
    identity: str  # what the thing is: stage 1's vector mixes the name's and this text's
    embedding: list[float] | None = None  # only for mentions stage 1 compares (an exact match needs none)

    @property
    def parts(self) -> list[str]:
        """The texts stage 1's vector of this mention is made of."""
        return mention_parts(self.name, self.identity)


class JudgmentRecord(BaseModel):
    id: str
    source_id: str
    mention: str
    mention_context: str
    candidate_id: str
    candidate_name: str
    verdict: str  # SAME | RELATED | DIFFERENT (NOT_SAME in graphs of earlier versions)
    score: float
    backend: str
    reason: str
    concept_id: str | None = None  # the node the mention ended up in


class ConceptAction(BaseModel):
    """Where one mention ends up: merged into an existing node, or a new node."""

    source_id: str
    mention_index: int  # position among its source's extracted concepts
    concept_id: str
    created: bool
    name: str
    type: str  # the taxonomy's type
    extracted_type: str = ""  # the extractor's own
    type_guessed: bool = False  # a recogniser's label alone: its vote counts only when repeated
    description: str
    definition: str = ""  # a sentence of the source that defines it: the node keeps the first
    aliases: list[str]
    keys: list[str]
    embedding: list[float] | None
    # concepts judged not the same -> the judgment's id (the edge points at its record)
    not_same_as: dict[str, str] = Field(default_factory=dict)
    # concepts judged RELATED -> the judge's reason: a knowledge edge (DIFFERENT makes none)
    related_to: dict[str, str] = Field(default_factory=dict)


class ResolutionPlan(BaseModel):
    """One source's share of a batch's resolution."""

    candidates: Candidates
    actions: list[ConceptAction]
    judgments: list[JudgmentRecord]
    stage1_pairs: int = 0
    stage1_screened: int = 0
    exact_matches: int = 0
    judged_pairs: int = 0


class ClaimRecord(BaseModel):
    id: str
    source_id: str
    text: str
    embedding: list[float]
    about: list[str]  # concept ids
    section: str = ""  # where in its source it is stated: written on its DERIVED_FROM


class ContradictionRecord(BaseModel):
    new_claim: str
    existing_claim: str
    reason: str
    source_id: str  # the source of the new claim
    newer_claim: str = ""  # by their sources' dates; "" when not dated or stated the same day
    order: str = ""  # that order in words (ingest/chronology.py)


class SettlementRecord(BaseModel):
    winner: str
    loser: str
    reason: str
    source_id: str  # the source whose claim settled it


class CommitReport(BaseModel):
    source_id: str
    path: str
    status: str  # new | unchanged | skipped | failed
    reason: str = ""
    concepts_created: int = 0
    concepts_merged: int = 0
    claims: int = 0
    contradictions: int = 0
    settled: int = 0
    restatement_pairs: int = 0  # pairs judged because another file restates a claim (see restatements.py)
    judgments: int = 0
    dropped: int = 0
    removed_injections: int = 0
    typed: dict = Field(default_factory=dict)  # kept / mapped / fallback / dropped by the taxonomy
    scope: str = "in"
    scope_reason: str = ""
    superseded_sources: list[str] = Field(default_factory=list)
    flagged_for_review: int = 0
