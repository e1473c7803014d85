"""A concept's card: what one page, API response or MCP result shows of a concept.

Everything on it comes from the graph with its provenance: each claim keeps its status,
the claims it contradicts and the sources it derives from, so a reader sees what is
disputed or superseded rather than a flattened summary."""

from __future__ import annotations

from pydantic import BaseModel, Field

from graphwiki_assets.core.concepts import cypher
from graphwiki_assets.core.normal_forms import name_key
from graphwiki_assets.core.store.driver import Graph
from graphwiki_assets.core.store.keys import key_query

RELATED_ON_A_CARD = 20


class CardOpponent(BaseModel):
    """A claim another claim contradicts, with what it says (it may be about another concept)."""

    id: str
    text: str = ""
    status: str = "current"


class CardClaim(BaseModel):
    id: str
    text: str
    status: str
    needs_review: bool = False
    review_reason: str | None = None
    independent_sources: int = 0  # distinct files stating it, restatements included
    superseded_by: str | None = None
    sources: list[str] = Field(default_factory=list)
    # where in each source it was read: {source, section} ("Heading > p. 2", a heading path)
    places: list[dict[str, str]] = Field(default_factory=list)
    contradicts: list[str] = Field(default_factory=list)
    opponents: list[CardOpponent] = Field(default_factory=list)


class CardLink(BaseModel):
    id: str
    name: str
    type: str | None = None
    weight: float = 0.0


class CardSource(BaseModel):
    id: str
    title: str | None = None
    path: str | None = None
    status: str = "current"
    date: str | None = None  # the date the source gives itself, when it gives one
    ingested_at: str | None = None
    last_seen_at: str | None = None


class ConceptCard(BaseModel):
    id: str
    name: str
    type: str | None = None
    aliases: list[str] = Field(default_factory=list)
    summary: str = ""
    status: str = "current"
    needs_review: bool = False
    review_reason: str | None = None
    independent_sources: int = 0
    updated_at: str | None = None
    claims: list[CardClaim] = Field(default_factory=list)
    related: list[CardLink] = Field(default_factory=list)
    part_of: list[CardLink] = Field(default_factory=list)
    sources: list[CardSource] = Field(default_factory=list)

    def flags(self) -> list[str]:
        """What a reader should know before trusting the card."""
        flags = [f"concept {self.status}"] if self.status != "current" else []
        if self.needs_review:
            flags.append(f"needs review: {self.review_reason or 'flagged'}")
        disputed = [c.id for c in self.claims if c.status == "disputed"]
        if disputed:
            flags.append(f"{len(disputed)} disputed claim(s): {', '.join(disputed)}")
        return flags


def resolve_concept_id(store: Graph, key: str) -> str | None:
    """The id of the concept ``key`` names: its id, or its name or an alias in any spelling."""
    normal = name_key(key)
    query = key_query([normal]) if normal else ""
    if not key.strip():
        return None
    rows = store.query(cypher.CONCEPT_BY_KEY, key=key.strip(), keys_query=query or '""', name_key=normal)
    return next((r["id"] for r in rows if r["id"]), None)


def concept_card(store: Graph, key: str, related: int = RELATED_ON_A_CARD) -> ConceptCard | None:
    """The card of the concept ``key`` names (id, name or alias); None when none does."""
    concept_id = resolve_concept_id(store, key)
    if concept_id is None:
        return None
    rows = store.query(cypher.CARD, id=concept_id, related=related)
    return ConceptCard.model_validate(rows[0]) if rows else None


def concept_cards(store: Graph, ids: list[str], related: int = RELATED_ON_A_CARD) -> list[ConceptCard]:
    """The cards of the concepts with these ids, in one query (an id no concept has is left out)."""
    rows = store.query(cypher.CARDS, ids=ids, related=related)
    return [ConceptCard.model_validate(row) for row in rows]
