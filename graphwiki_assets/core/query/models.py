"""What flows through a query: links, the retrieved subgraph, and the answer."""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict, dataclass, field
from typing import Any

from graphwiki_assets.core.question_shapes import QUESTION_SHAPES

TECHNIQUES = {name: shape.technique for name, shape in QUESTION_SHAPES.items()}
# how "related" runs its PageRank, the default first: local pushes (local_ppr.py), or GDS over
# its projection from Cypher or through the GDS client (ppr.py)
PPR_VIAS = ("local", "cypher", "client")
# What a caller may ask for, the same in-process, over HTTP and over MCP. A walk is bounded
# by ``max_nodes`` whatever its depth, so the hop bound only keeps a typo (hops=50) from
# costing fifty empty round trips.
MAX_HOPS = 8
MAX_K = 50


@dataclass(frozen=True)
class QueryOptions:
    hops: int = 2  # traversal depth of "what is X"
    k: int = 8  # ranked results of related / shaped_like / topic / provenance
    fanout: int = 8  # neighbours kept per node per hop, so a hub cannot flood the context
    max_nodes: int = 40  # concepts a traversal may visit in all
    per_concept: int = 3  # claims shown per concept that is not the question's own entity
    max_facts: int = 12  # claims handed to synthesis (plus the summaries a technique ranks)
    damping: float = 0.5  # "related": half the walk restarts at X (as in HippoRAG), so it stays near X
    # a source not seen by a re-ingest for this long may be outdated; so may a fact whose
    # newest source is dated longer ago than this (the schema config's staleness_days)
    stale_days: int = 90
    today: dt.date | None = None  # the day staleness is measured from; None: the current date
    provenance_floor: float = 0.55  # cosine a claim needs to be "the claim" asked about
    shape_pool: int = 200  # "shaped like": candidates the signature index hands to exact scoring
    # "related": local pushes over the live graph (local_ppr.py: a cost that does not grow with
    # the graph, and a concept written a moment ago is ranked), or GDS's run over the whole
    # projection from Cypher or the GDS client (ppr.py); measured with `graphwiki bench query --ppr-via`
    ppr_via: str = PPR_VIAS[0]

    def __post_init__(self) -> None:
        """Refuse what no query can mean, with the option's name (the CLI prints this line)."""
        at_least = {
            "hops": 0,
            "k": 1,
            "fanout": 1,
            "max_nodes": 1,
            "per_concept": 0,
            "max_facts": 1,
            "stale_days": 0,
            "shape_pool": 1,
        }
        if self.ppr_via not in PPR_VIAS:
            raise ValueError(f"ppr_via must be one of {', '.join(PPR_VIAS)}, not {self.ppr_via!r}")
        for name, low in at_least.items():
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValueError(f"{name} must be a whole number of at least {low}, not {value!r}")
        for name, high in {"hops": MAX_HOPS, "k": MAX_K}.items():
            if getattr(self, name) > high:
                raise ValueError(f"{name} must be at most {high}, not {getattr(self, name)!r}")
        if self.today is not None and not isinstance(self.today, dt.date):
            raise ValueError(f"today must be a date, not {self.today!r}")
        if not 0 < self.damping < 1:
            raise ValueError(f"damping must lie strictly between 0 and 1, not {self.damping!r}")
        if not -1 <= self.provenance_floor <= 1:
            raise ValueError(f"provenance_floor is a cosine, between -1 and 1, not {self.provenance_floor!r}")


def vector_pool(k: int) -> int:
    """How many candidates a vector search asks the index for, to keep the exact best k by
    exact cosine (the index is approximate; see the vector queries in ``cypher``)."""
    return max(50, 2 * k)


def cosine(index_score: float) -> float:
    """Neo4j's vector scores are (1 + cos) / 2 for cosine indexes; thresholds are in cos."""
    return 2.0 * index_score - 1.0


@dataclass
class Route:
    shape: str
    entities: list[str]
    type_filter: str | None = None
    reason: str = ""
    backend: str = ""

    @property
    def technique(self) -> str:
        return TECHNIQUES[self.shape]


@dataclass
class Link:
    """One mention of the question tied to a concept node."""

    mention: str
    concept_id: str
    name: str
    type: str
    # exact (a name key) | fuzzy (the mention misspelt or inflected; score: rapidfuzz's / 100) |
    # vector (name cosine) | near (no concept is the mention: the closest that carries its words)
    match: str
    score: float


CLOSEST = ("fuzzy", "near")  # links an answer names as the closest match to what was typed


@dataclass
class NearMatch:
    mention: str
    concept_id: str
    name: str
    score: float  # name cosine; for a runner-up of the fuzzy pass, its spelling similarity (0-1)


@dataclass
class Linking:
    links: list[Link] = field(default_factory=list)
    near: list[NearMatch] = field(default_factory=list)
    unlinked: list[str] = field(default_factory=list)

    def ids(self) -> list[str]:
        return list(dict.fromkeys(link.concept_id for link in self.links))

    def per_mention(self) -> list[list[str]]:
        """Concept ids grouped by mention, in the mentions' order (for two-entity shapes)."""
        groups: dict[str, list[str]] = {}
        for link in self.links:
            groups.setdefault(link.mention, []).append(link.concept_id)
        return list(groups.values())


@dataclass
class ConceptRow:
    id: str
    name: str
    type: str
    summary: str
    status: str
    needs_review: bool
    review_reason: str | None
    sources: list[str]  # the newest SUMMARY_SOURCES of them (subgraph.load)
    source_total: int = 0  # all of them
    stated: str | None = None  # the newest date among all its sources (ISO); None: none is dated
    aliases: list[str] = field(default_factory=list)


@dataclass
class ClaimRow:
    id: str
    text: str
    status: str
    needs_review: bool
    review_reason: str | None
    superseded_by: str | None
    decided_by: str | None
    decided_at: str | None
    sources: list[str]
    opponents: list[str]
    about: list[str]
    stated: str | None = None  # the newest date among its sources (ISO); None: none is dated
    places: list[dict] = field(default_factory=list)  # {source, section}: a PDF's page, a heading


@dataclass
class SourceRow:
    id: str
    title: str
    path: str | None
    paths: list[str]
    sha256: str | None
    status: str
    superseded_by: str | None
    ingested_at: str | None
    last_seen_at: str | None
    stale: bool


@dataclass
class CommunityRow:
    id: str
    title: str
    summary: str
    kind: str  # 'llm', or 'extractive' (written by the offline rules from members and facts)
    size: int
    top: bool
    sources: list[str]  # the first SUMMARY_SOURCES its report was written from (subgraph.load)


@dataclass
class Retrieval:
    """What a technique found: ids in relevance order, plus what explains the choice.

    ``summaries`` are the concepts whose summary is itself a fact of the answer (the entry
    of "what is X", the ranked results of "related"...); ``claims`` are cited as they are.
    """

    technique: str
    concepts: list[str] = field(default_factory=list)
    claims: list[str] = field(default_factory=list)
    summaries: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)  # cited directly (provenance, evidence paths)
    communities: list[str] = field(default_factory=list)  # whose reports are facts (global questions)
    defining: list[str] = field(default_factory=list)  # claims that define the entity: they lead the answer
    details: dict[str, Any] = field(default_factory=dict)
    explanation: str = ""
    empty_reason: str = ""  # set when the technique found nothing to say


@dataclass
class Subgraph:
    """The retrieved nodes with their status, loaded once for synthesis and flags."""

    concepts: dict[str, ConceptRow] = field(default_factory=dict)
    claims: dict[str, ClaimRow] = field(default_factory=dict)
    sources: dict[str, SourceRow] = field(default_factory=dict)
    communities: dict[str, CommunityRow] = field(default_factory=dict)
    filed: list[dict] = field(default_factory=list)  # answers filed to this question before (filed.py)


@dataclass
class Sentence:
    text: str
    fact_ids: list[str]
    source_ids: list[str]


@dataclass
class Answer:
    question: str
    shape: str
    technique: str
    reason: str
    backend: str
    entities: list[dict]
    answer: str
    sentences: list[Sentence]
    citations: list[str]
    flags: list[str]
    retrieved: dict[str, list[str]]
    context_tokens: int
    corpus_tokens: int
    latency_ms: float
    found: bool = True
    # the rung of the answer ladder it came from: graph | fuzzy (a name as typed matched no
    # concept: answered about the closest one and saying so, or, found False, the candidates
    # listed) | raw_sources | nothing | empty (no source ingested yet)
    rung: str = "graph"
    near_matches: list[dict] = field(default_factory=list)
    history: list[str] = field(default_factory=list)
    # cited facts whose newest source is older than the staleness age: {fact_id, last_stated}
    outdated: list[dict] = field(default_factory=list)
    sources: list[dict] = field(default_factory=list)
    # each cited fact once, with its status as the answer marks it ("current", "disputed",
    # "needs review", "one source", a concept's own status) and its sources: {id, status, sources}
    facts: list[dict] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)
    # where the time went: linking (routing, entity linking, embedding the question),
    # retrieval (the technique's Cypher/GDS and loading the subgraph), synthesis (the rest)
    timings_ms: dict[str, float] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def timed(self, laps) -> Answer:
        """Close the last phase (synthesis) and set the phases and the total."""
        laps.lap("synthesis")
        self.timings_ms, self.latency_ms = dict(laps.ms), laps.total()
        return self

    def text(self) -> str:
        """The answer for a terminal: what was chosen and why, then the cited sentences."""
        lines = [f"[{self.shape} -> {self.technique}] {self.reason}".rstrip(), "", self.answer]
        if self.flags:
            lines += ["", "Flags:"] + [f"  - {f}" for f in self.flags]
        if self.sources:
            lines += ["", "Sources:"] + [
                f"  {s['id']}  {s.get('title') or ''}  {s.get('cited_as') or s.get('path') or ''}  "
                f"sha256 {str(s.get('sha256') or '')[:16]}…"
                for s in self.sources
            ]
        lines += [
            "",
            f"context {self.context_tokens} tokens of a {self.corpus_tokens}-token corpus; "
            f"{self.latency_ms:.0f} ms; backend {self.backend}",
        ]
        return "\n".join(lines)
