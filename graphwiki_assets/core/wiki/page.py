"""One concept's page, rendered from its card: YAML front matter Obsidian reads as
properties, the summary with the sources behind it, each claim with its status (what a
disputed one contradicts, what superseded one), related concepts as ``[[links]]`` to pages
that exist, and the sources with their dates.

The text depends on the graph alone (no time of rendering, dates to the day), so an export
that finds the graph unchanged renders every page byte for byte as before."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import yaml

from graphwiki_assets.core.concepts.card import CardClaim, CardLink, CardSource, ConceptCard
from graphwiki_assets.core.query.citing import page_of
from graphwiki_assets.core.store.schema import AWAITING_CORROBORATION
from graphwiki_assets.core.wiki.markup import image, inline, wiki_link
from graphwiki_assets.core.wiki.names import shown_as

# Claims in this order: what holds, what is disputed, what a newer claim replaced.
STATUS_ORDER = {"current": 0, "disputed": 1, "superseded": 2}


LinkMarkup = Callable[[CardLink], str]


def render_page(
    card: ConceptCard, stems: Mapping[str, str], picture: str | None = None, link: LinkMarkup | None = None
) -> str:
    """The page of ``card``; ``stems`` maps the id of every concept with a page to its page
    name (a related concept without one is plain text), ``picture`` is the relative path of
    its neighbourhood image, if it has one. ``link`` writes a related concept's name in
    another reader's link form (the MCP resource links to ``graphwiki://concept/<id>``)."""
    link = link or (lambda related: _page_link(related, stems))
    sources = sorted(
        card.sources, key=lambda s: (s.path or "", STATUS_ORDER.get(s.status, 3), s.ingested_at or "", s.id)
    )
    numbers = {s.id: i for i, s in enumerate(sources, start=1)}
    parts = [
        _front_matter(card),
        f"# {inline(card.name)}",
        _facts_line(card),
        *_flags(card),
        "## Summary",
        _summary(card, numbers),
        "## Claims",
        _claims(card, numbers),
        "## Related",
        *([image(picture, f"Neighbourhood of {card.name}")] if picture else []),
        _related(card.related, link),
        *(["## Part of", _related(card.part_of, link)] if card.part_of else []),
        "## Sources",
        _sources(sources),
    ]
    return "\n\n".join(parts) + "\n"


def _front_matter(card: ConceptCard) -> str:
    meta: dict[str, object] = {
        "id": card.id,
        "type": card.type,
        "aliases": list(card.aliases),
        "status": card.status,
        "updated": _day(card.updated_at),
        "independent_sources": card.independent_sources,
    }
    if card.needs_review:
        meta["needs_review"] = card.review_reason or "flagged"
    return "---\n" + yaml.safe_dump(meta, sort_keys=False, allow_unicode=True, width=1000) + "---"


def _facts_line(card: ConceptCard) -> str:
    facts = [f"**Type:** {inline(card.type or 'Concept')}"]
    if card.aliases:
        facts.append(f"**Also known as:** {', '.join(inline(a) for a in card.aliases)}")
    facts.append(f"**Independent sources:** {card.independent_sources}")
    return " · ".join(facts)


def _flags(card: ConceptCard) -> list[str]:
    """What a reader should know first, as an Obsidian callout (a quote elsewhere)."""
    flags = card.flags()
    if not flags:
        return []
    return ["> [!warning] Check before relying on this page\n" + "\n".join(f"> - {inline(f)}" for f in flags)]


def _summary(card: ConceptCard, numbers: Mapping[str, int]) -> str:
    text = inline(card.summary) if card.summary.strip() else "_No summary yet._"
    behind = [numbers[s.id] for s in card.sources if s.status != "superseded" and s.id in numbers]
    counts = {status: sum(c.status == status for c in card.claims) for status in STATUS_ORDER}
    backing = f"{len(card.claims)} claim(s)"
    others = [f"{n} {status}" for status, n in counts.items() if status != "current" and n]
    if others:
        backing += f" ({', '.join(others)})"
    cited = " ".join(f"[{n}]" for n in sorted(behind)) or "none current"
    return f"{text}\n\n_From sources {cited}; backed by {backing} below._"


def _claims(card: ConceptCard, numbers: Mapping[str, int]) -> str:
    if not card.claims:
        return "_No claim is about this concept yet._"
    texts = {c.id: c.text for c in card.claims}
    ordered = sorted(card.claims, key=lambda c: (STATUS_ORDER.get(c.status, 3), c.text.casefold(), c.id))
    return "\n".join(_claim_line(c, numbers, texts) for c in ordered)


def _claim_line(claim: CardClaim, numbers: Mapping[str, int], texts: Mapping[str, str]) -> str:
    label = f"**{claim.status}:** " if claim.status != "current" else ""
    pages = {p["source"]: page for p in claim.places if (page := page_of(p["section"]))}
    cites = " ".join(
        (f"[{numbers[s]}, {pages[s]}]" if s in pages else f"[{numbers[s]}]")
        if s in numbers
        else f"(source {inline(s)})"
        for s in sorted(claim.sources)
    )
    line = f"- {label}{inline(claim.text)}" + (f" {cites}" if cites else "")
    opponents = sorted(claim.opponents, key=lambda o: o.id)
    if opponents:
        line += " — contradicts " + "; ".join(f"“{inline(o.text)}” ({o.status})" for o in opponents)
    if claim.status == "superseded" and claim.superseded_by:
        newer = texts.get(claim.superseded_by)
        line += (
            f" — superseded by “{inline(newer)}”" if newer else f" — superseded by claim {inline(claim.superseded_by)}"
        )
    if claim.needs_review and claim.review_reason == AWAITING_CORROBORATION:
        line += " — _one source so far_"
    elif claim.needs_review:
        line += f" — _needs review: {inline(claim.review_reason or 'flagged')}_"
    elif claim.independent_sources > 1:
        line += f" — _{claim.independent_sources} independent sources_"
    return line


def _related(links: list[CardLink], link: LinkMarkup) -> str:
    if not links:
        return "_No related concept yet._"
    ordered = sorted(links, key=lambda r: (-r.weight, r.name.casefold(), r.id))
    return "\n".join(_related_line(r, link) for r in ordered)


def _page_link(link: CardLink, stems: Mapping[str, str]) -> str:
    stem = stems.get(link.id)
    return wiki_link(stem, shown_as(link.name, stem)) if stem else inline(link.name)


def _related_line(link: CardLink, markup: LinkMarkup) -> str:
    name = markup(link)
    details = [inline(link.type)] if link.type else []
    if link.weight:
        details.append(f"{link.weight:g} shared claim(s)")
    return f"- {name}" + (f" — {', '.join(details)}" if details else "")


def _sources(sources: list[CardSource]) -> str:
    if not sources:
        return "_No source._"
    return "\n".join(f"{i}. {_source_line(s)}" for i, s in enumerate(sources, start=1))


def _source_line(source: CardSource) -> str:
    parts = [f"**{inline(source.title or source.path or source.id)}**"]
    if source.path:
        parts.append(inline(source.path))
    if source.status != "current":
        parts.append(f"**{inline(source.status)}**")
    parts.append(f"dated {source.date[:10]}" if source.date else "undated")
    parts.append(f"ingested {_day(source.ingested_at) or 'unknown'}")
    parts.append(f"last seen {_day(source.last_seen_at) or 'unknown'}")
    return " · ".join(parts)


def _day(stamp: str | None) -> str | None:
    """A timestamp to the day: a source seen again later the same day changes no page."""
    return stamp[:10] if stamp else None
