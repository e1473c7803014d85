"""What the MCP tools return, typed: each tool publishes an output schema and a client can
validate every result against it.

Every text field carries data from the knowledge base (claims, summaries, titles quoted from
the sources), so a client reads it as data, never as instructions to follow. The models keep
what an agent acts on (answer, citations, statuses, flags) and leave out what only a person
debugging the query reads (per-hop traversal details, timings by phase)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from graphwiki_assets.core.concepts import ConceptCard, ConceptHit
from graphwiki_assets.core.service.jobs import JobView


class AnswerSentence(BaseModel):
    text: str
    fact_ids: list[str] = Field(description="the facts (claim or concept ids) the sentence states")
    source_ids: list[str] = Field(description="the sources it cites")


class AnswerFact(BaseModel):
    id: str = Field(description="a claim id (cl-...), concept id, community id or filed answer id")
    status: str = Field(
        description="'current', or why to be careful: 'disputed', 'needs review', 'one source', a concept's status"
    )
    sources: list[str]


class AnswerSource(BaseModel):
    id: str
    title: str | None = None
    path: str | None = None
    status: str = "current"
    last_seen_at: str | None = None


class LinkedEntity(BaseModel):
    mention: str = Field(description="the words of the question")
    concept_id: str
    name: str
    type: str | None = None
    match: str = Field(
        description="'exact' (a name or alias), 'fuzzy' (another spelling or ending of one), "
        "'near' (the closest concept holding every word of the mention) or 'vector' (by meaning)"
    )
    score: float


class NearMatch(BaseModel):
    mention: str
    concept_id: str
    name: str
    score: float


class OutdatedFact(BaseModel):
    fact_id: str
    last_stated: str = Field(description="the newest date among the fact's sources")


class AskResult(BaseModel):
    question: str
    shape: str = Field(description="the kind of question it was read as")
    technique: str = Field(description="the graph technique that answered it")
    reason: str = Field(description="why that shape and what the technique found")
    found: bool = Field(description="false when the graph holds nothing on the question (see rung)")
    rung: str = Field(
        description="graph | fuzzy (answered about the closest name, or near names offered) | raw_sources (quoted) | nothing | empty (ingest sources first)"
    )
    answer: str = Field(
        description="the answer text; every sentence ends with [source: ids], and a fact that is not "
        "current carries an inline mark such as [disputed — see cl-...]"
    )
    sentences: list[AnswerSentence]
    citations: list[str] = Field(description="the ids of the sources the answer cites")
    flags: list[str] = Field(description="what to know before trusting the answer (disputes, reviews, staleness)")
    facts: list[AnswerFact] = Field(description="each cited fact once, with its status")
    sources: list[AnswerSource] = Field(description="the cited sources with title, path and status")
    entities: list[LinkedEntity] = Field(description="the question's mentions linked to concepts")
    near_matches: list[NearMatch] = Field(default_factory=list)
    history: list[str] = Field(default_factory=list, description="superseded claims, shown as history")
    outdated: list[OutdatedFact] = Field(default_factory=list)
    backend: str
    latency_ms: float
    filed: str | None = Field(None, description="the id of the filed answer, when file=true and it was filed")
    not_filed: str | None = Field(None, description="why a requested filing did not happen")


class SearchResult(BaseModel):
    hits: list[ConceptHit] = Field(description="best first: name matches, then the nearest by meaning")


class ConceptResult(BaseModel):
    concept: ConceptCard = Field(description="the card: summary, claims with status and sources, related, sources")
    flags: list[str] = Field(description="what to know before trusting the card")


class TypeConcept(BaseModel):
    id: str
    name: str
    summary: str | None = None
    sources: int


class ConceptsOfType(BaseModel):
    type: str
    total: int
    concepts: list[TypeConcept]


class RecentSource(BaseModel):
    id: str
    path: str | None = None
    title: str | None = None
    ingested_at: str | None = None
    concepts: int = Field(description="concepts the source speaks of")


class Contradiction(BaseModel):
    claim: str
    claim_text: str
    opponent: str
    opponent_text: str
    about: list[str] = Field(default_factory=list)


class ReviewItem(BaseModel):
    id: str
    kind: str
    what: str | None = None
    reason: str = ""


class Gaps(BaseModel):
    empty_types: list[str] = Field(description="types of the schema config with no corroborated concept")
    without_claims: list[str] = Field(description="concepts no claim is about (the first of them)")


class OverviewResult(BaseModel):
    config_version: str
    corroboration: int = Field(description="independent sources a concept needs to be corroborated")
    generated_at: str
    counts: dict[str, int]
    by_type: list[ConceptsOfType] = Field(description="corroborated concepts, the largest types first")
    recent: list[RecentSource] = Field(description="the most recently ingested sources")
    contradictions: list[Contradiction] = Field(description="active contradictions (both claims disputed)")
    needs_review: list[ReviewItem]
    gaps: Gaps


class ImpactNode(BaseModel):
    id: str
    label: str = Field(description="Claim, Concept, Source, ...")
    name: str | None = None
    status: str | None = None
    distance: int = Field(description="hops from the source")


class ImpactResult(BaseModel):
    source_id: str
    path: str | None = None
    depth: int | str = Field(description="the depth followed; '*' for the whole reachable subgraph")
    reached: int
    nodes: list[ImpactNode]
    flagged: list[str] = Field(description="ids flagged needs_review (only when flag=true)")


class LogEntry(BaseModel):
    id: str
    at: str
    action: str
    actor: str
    backend: str = ""
    summary: str
    inputs: dict[str, Any] = Field(default_factory=dict)
    outputs: dict[str, Any] = Field(default_factory=dict)


class AuditLog(BaseModel):
    entries: list[LogEntry] = Field(description="oldest first")


class SourceProblem(BaseModel):
    path: str
    status: str
    reason: str | None = None


class OutOfScope(BaseModel):
    path: str
    reason: str | None = None


class IngestReport(BaseModel):
    backend: str
    config_version: str
    sources: dict[str, int] = Field(description="new / unchanged / skipped / failed")
    concepts: dict[str, int] = Field(description="created / merged")
    claims: int
    contradictions: int
    settled: int
    judgments: int
    summaries_refreshed: int
    out_of_scope: list[OutOfScope] = Field(
        description="sources kept as sources only: outside the schema config's focus, they promote nothing"
    )
    problems: list[SourceProblem] = Field(description="sources skipped or failed, with the reason")
    seconds: float


class IngestJob(JobView):
    """One ingest job: follow it with the ``ingest_job`` tool until done or failed."""

    report: IngestReport | None = Field(None, description="the ingest report, once done")  # type: ignore[assignment]  # the typed form of the same report
