"""A concept's card as the markdown page the MCP resource ``graphwiki://concept/{key}`` serves:
summary, claims with their status and sources, related concepts (as resource links an agent
can read next) and the sources with their dates."""

from __future__ import annotations

from graphwiki_assets.core.concepts.card import CardClaim, CardLink, CardSource, ConceptCard

CONCEPT_URI = "graphwiki://concept/{key}"
# Claims in this order: what holds, what is disputed, what a newer claim replaced.
STATUS_ORDER = {"current": 0, "disputed": 1, "superseded": 2}


def concept_uri(key: str) -> str:
    return CONCEPT_URI.format(key=key)


def one_line(text: str | None) -> str:
    """Text from a source on one line, so it cannot break the page's own structure."""
    return " ".join((text or "").split())


def card_markdown(card: ConceptCard) -> str:
    lines = [f"# {one_line(card.name)}", "", _facts_line(card), ""]
    if card.flags():
        lines += ["Flags:", *[f"- {one_line(flag)}" for flag in card.flags()], ""]
    lines += ["## Summary", "", one_line(card.summary) or "_no summary yet_", ""]
    claims = sorted(card.claims, key=lambda c: (STATUS_ORDER.get(c.status, 3), c.id))
    lines += ["## Claims", "", *([_claim(c) for c in claims] or ["_none_"]), ""]
    lines += ["## Related", "", *([_link(r) for r in card.related] or ["_none_"]), ""]
    if card.part_of:
        lines += ["## Part of", "", *[_link(p) for p in card.part_of], ""]
    lines += ["## Sources", "", *([_source(s) for s in card.sources] or ["_none_"])]
    return "\n".join(lines) + "\n"


def _facts_line(card: ConceptCard) -> str:
    parts = [card.type or "untyped", f"id {card.id}", f"status {card.status}"]
    if card.aliases:
        parts.append("aliases: " + ", ".join(one_line(a) for a in card.aliases))
    parts.append(f"{card.independent_sources} independent source(s)")
    return "_" + " · ".join(parts) + "_"


def _claim(claim: CardClaim) -> str:
    notes = [claim.id, "sources: " + (", ".join(claim.sources) or "none")]
    if claim.contradicts:
        notes.append("contradicts " + ", ".join(claim.contradicts))
    if claim.superseded_by:
        notes.append(f"superseded by {claim.superseded_by}")
    if claim.needs_review:
        notes.append("needs review")
    return f"- **[{claim.status}]** {one_line(claim.text)} ({'; '.join(notes)})"


def _link(link: CardLink) -> str:
    kind = f", {link.type}" if link.type else ""
    return f"- {one_line(link.name)} ({link.id}{kind}): {concept_uri(link.id)}"


def _source(source: CardSource) -> str:
    dates = [f"dated {source.date[:10]}" if source.date else "", f"ingested {(source.ingested_at or '')[:10]}"]
    where = one_line(source.path) or "no path"
    title = one_line(source.title) or source.id
    return f"- {source.id}: {title} — {where}, {', '.join(d for d in dates if d)}, {source.status}"
