"""A concept's card as the markdown page the MCP resource ``graphwiki://concept/{key}`` serves:
the wiki's page of the concept, with related concepts as resource links an agent can read next."""

from __future__ import annotations

from graphwiki_assets.core.concepts.card import CardLink, ConceptCard
from graphwiki_assets.core.wiki.markup import inline
from graphwiki_assets.core.wiki.page import render_page

CONCEPT_URI = "graphwiki://concept/{key}"


def concept_uri(key: str) -> str:
    return CONCEPT_URI.format(key=key)


def _resource_link(link: CardLink) -> str:
    return f"{inline(link.name)} ({concept_uri(link.id)})"


def card_markdown(card: ConceptCard) -> str:
    return render_page(card, stems={}, link=_resource_link)
