"""One concept as a reader sees it (the card: summary, claims with status, related concepts,
sources with dates) and finding concepts by name or meaning. The HTTP API, the MCP server
and the wiki pages all read concepts through here."""

from graphwiki_assets.core.concepts.card import ConceptCard, concept_card, concept_cards
from graphwiki_assets.core.concepts.search import ConceptHit, search_concepts

__all__ = ["ConceptCard", "ConceptHit", "concept_card", "concept_cards", "search_concepts"]
