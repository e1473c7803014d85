"""Typed requests and responses for every LLM task.

Each task is one request model and one response model. Every response carries
``backend`` (which backend/model produced it) so a result read back from the graph or
the cache can always be traced to rules or to a named model. A response field that the
model never fills (``backend``, the counts validation keeps) is ``SkipJsonSchema``: the
reply's schema (``llm.schemas``) is made from these models and does not ask for it.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator, model_validator
from pydantic.json_schema import SkipJsonSchema

from graphwiki_assets.core.question_shapes import SHAPE_NAMES

Shape = Literal[SHAPE_NAMES]  # type: ignore[valid-type]
Relation = Literal["contradicts", "supports", "unrelated"]
# Stage 2's question: the same real-world entity, a different but related one (a product of
# a company, a part of a whole), or a different one with nothing to connect them.
EntityVerdict = Literal["SAME", "RELATED", "DIFFERENT"]

NO_VERDICT = "no verdict returned"


# --- extraction ---------------------------------------------------------------------


class ExtractedConcept(BaseModel):
    name: str
    type: str = "Concept"
    description: str = ""
    aliases: list[str] = Field(default_factory=list)
    # Set by ingest, never asked of the model: the type the extractor gave, when the
    # taxonomy mapped it to another (``type`` is then the taxonomy's).
    extracted_type: SkipJsonSchema[str] = ""
    # A sentence of the source that defines the concept ("A counter is a cumulative metric
    # ..."), when the extractor read one: it leads the concept's summary for good, however
    # many facts later sources add. Not asked of the model: its description is its own words.
    definition: SkipJsonSchema[str] = ""
    # The type is an entity recogniser's label and nothing else said it: a guess the concept's
    # other sources must repeat before it becomes the concept's type. Not asked of a model.
    type_guessed: SkipJsonSchema[bool] = False


class ExtractedClaim(BaseModel):
    text: str
    about: list[str]  # names of concepts in the same response


class ExtractRequest(BaseModel):
    source_id: str
    title: str
    text: str
    # The heading path of the text, " > " joined ("Guide > Install > Linux"): context for
    # what the text is about, never a claim itself.
    section: str = ""
    # The anchor texts of the links in the text: each names something the text refers to,
    # a candidate concept; a link alone states no relation.
    links: list[str] = Field(default_factory=list)
    # The terms the text's definition-list items define ("--wait: waits until ..."): each
    # item opens with its term and says what it is.
    terms: list[str] = Field(default_factory=list)


class ExtractResponse(BaseModel):
    concepts: list[ExtractedConcept]
    claims: list[ExtractedClaim]
    dropped: SkipJsonSchema[int] = 0  # items removed by validation (bad names, claims about nothing)
    backend: SkipJsonSchema[str] = ""


class TypeHint(BaseModel):
    """One entity type of the schema config, as the extractor is told about it."""

    name: str
    definition: str
    # The entity recogniser's labels (OntoNotes: PERSON, ORG, GPE, ...) that mean this type;
    # the offline extractor types by them. Never part of a prompt.
    entity_labels: list[str] = Field(default_factory=list)
    # The type's other words ("tool", "library" for Product): a name whose own head word is one
    # of them says what it is (the "Chart Template Guide" is a guide). Never part of a prompt.
    includes: list[str] = Field(default_factory=list)


class ExtractBatchRequest(BaseModel):
    """Several documents in one call: short sources share a prompt (and its fixed cost);
    each document is still answered on its own, under its own id."""

    documents: list[ExtractRequest]
    types: list[TypeHint] = Field(default_factory=list)  # the taxonomy to type concepts by


class DocumentExtraction(BaseModel):
    doc_id: str  # the ``source_id`` of the document it answers
    concepts: list[ExtractedConcept]
    claims: list[ExtractedClaim]
    dropped: SkipJsonSchema[int] = 0

    def as_response(self, backend: str = "") -> ExtractResponse:
        return ExtractResponse(concepts=self.concepts, claims=self.claims, dropped=self.dropped, backend=backend)


class ExtractBatchResponse(BaseModel):
    documents: list[DocumentExtraction]
    backend: SkipJsonSchema[str] = ""
    missing: SkipJsonSchema[list[str]] = Field(default_factory=list)  # doc ids never answered, even when asked again


# --- entity resolution, stage 2 ----------------------------------------------------


class EntityView(BaseModel):
    name: str
    type: str = ""
    aliases: list[str] = Field(default_factory=list)
    context: str = ""


class JudgePair(BaseModel):
    pair_id: str
    mention: EntityView
    candidate: EntityView


class JudgeRequest(BaseModel):
    pairs: list[JudgePair]


class Verdict(BaseModel):
    # The reason comes before the verdict: a model writes its fields in schema order, so
    # the verdict can follow from the evidence it has just named instead of preceding it.
    pair_id: str
    reason: str = ""
    verdict: EntityVerdict = "DIFFERENT"
    confidence: float = 0.5

    @model_validator(mode="before")
    @classmethod
    def _from_boolean(cls, data: Any) -> Any:
        # A model that answers the older two-way form ({"same": true}) is still understood.
        if isinstance(data, dict) and "verdict" not in data and isinstance(data.get("same"), bool):
            return {**data, "verdict": "SAME" if data["same"] else "DIFFERENT"}
        return data

    @field_validator("verdict", mode="before")
    @classmethod
    def _normalise(cls, value: Any) -> Any:
        text = str(value).strip().upper().replace(" ", "_") if value is not None else "DIFFERENT"
        return {"NOT_SAME": "DIFFERENT", "UNRELATED": "DIFFERENT", "SAME_ENTITY": "SAME"}.get(text, text)

    @property
    def same(self) -> bool:
        return self.verdict == "SAME"


class JudgeResponse(BaseModel):
    verdicts: list[Verdict]
    backend: SkipJsonSchema[str] = ""
    dropped: SkipJsonSchema[int] = 0  # verdicts for ids that were not asked about
    defaulted: SkipJsonSchema[int] = 0  # pairs the backend never answered, set to NOT_SAME


# --- contradictions -----------------------------------------------------------------


class ClaimPair(BaseModel):
    pair_id: str
    concept: str
    concept_aliases: list[str] = Field(default_factory=list)  # other names of the concept
    new_claim: str
    existing_claim: str


class ConflictRequest(BaseModel):
    pairs: list[ClaimPair]


class ConflictVerdict(BaseModel):
    pair_id: str
    reason: str = ""  # before the relation, for the reason given on ``Verdict``
    relation: Relation


class ConflictResponse(BaseModel):
    verdicts: list[ConflictVerdict]
    backend: SkipJsonSchema[str] = ""
    dropped: SkipJsonSchema[int] = 0
    defaulted: SkipJsonSchema[int] = 0  # pairs never answered, set to "unrelated"


# --- summaries ----------------------------------------------------------------------


class SummaryRequest(BaseModel):
    name: str
    type: str = ""
    current_summary: str = ""
    definition: str = ""  # the sentence of a source that defines it: the summary opens with it
    facts: list[str]
    concept_id: str = ""


class SummaryResponse(BaseModel):
    summary: str
    backend: SkipJsonSchema[str] = ""


class SummaryBatchRequest(BaseModel):
    """Several concepts' summaries rewritten in one call."""

    concepts: list[SummaryRequest]


class ConceptSummary(BaseModel):
    concept_id: str
    summary: str


class SummaryBatchResponse(BaseModel):
    summaries: list[ConceptSummary]
    backend: SkipJsonSchema[str] = ""
    missing: SkipJsonSchema[list[str]] = Field(default_factory=list)  # concept ids left without a summary


# --- community reports --------------------------------------------------------------


class CommunityMember(BaseModel):
    name: str
    type: str = ""
    summary: str = ""


class CommunityInput(BaseModel):
    """One community of the concept graph: its most connected members and the facts that
    tie them together."""

    community_id: str
    members: list[CommunityMember]
    facts: list[str]


class CommunityReportRequest(BaseModel):
    communities: list[CommunityInput]


class CommunityReport(BaseModel):
    community_id: str
    title: str
    summary: str


class CommunityReportResponse(BaseModel):
    reports: list[CommunityReport]
    backend: SkipJsonSchema[str] = ""
    missing: SkipJsonSchema[list[str]] = Field(default_factory=list)  # community ids left without a report


# --- query routing ------------------------------------------------------------------


class RouteRequest(BaseModel):
    question: str


class RouteResponse(BaseModel):
    shape: Shape
    entities: list[str]
    type_filter: str | None = None
    reason: str = ""
    backend: SkipJsonSchema[str] = ""


# --- answer synthesis ---------------------------------------------------------------


class Fact(BaseModel):
    fact_id: str
    text: str
    source_ids: list[str]
    status: str = "current"


class AnswerRequest(BaseModel):
    question: str
    shape: str
    facts: list[Fact]


class AnswerSentence(BaseModel):
    text: str
    fact_ids: list[str]


class AnswerResponse(BaseModel):
    sentences: list[AnswerSentence]
    backend: SkipJsonSchema[str] = ""
    dropped: SkipJsonSchema[int] = 0  # sentences removed because they cited no fact of the request


# --- answer faithfulness ------------------------------------------------------------


class SupportPair(BaseModel):
    """Does the evidence (the facts a sentence cites) support the statement?"""

    pair_id: str
    statement: str
    evidence: list[str]


class SupportRequest(BaseModel):
    pairs: list[SupportPair]


class SupportVerdict(BaseModel):
    pair_id: str
    reason: str = ""  # before the verdict, for the reason given on ``Verdict``
    supported: bool


class SupportResponse(BaseModel):
    verdicts: list[SupportVerdict]
    backend: SkipJsonSchema[str] = ""
    dropped: SkipJsonSchema[int] = 0
    defaulted: SkipJsonSchema[int] = 0  # pairs never answered, set to not supported
