"""A topic by type: every concept of a type, optionally around an anchor concept."""

from __future__ import annotations

from dataclasses import replace

from graphwiki_assets.core.config.kinds import type_words
from graphwiki_assets.core.query import cypher
from graphwiki_assets.core.query.linking import is_named
from graphwiki_assets.core.query.models import Link, QueryOptions, Retrieval, Route
from graphwiki_assets.core.query.subgraph import claims_about
from graphwiki_assets.core.store.driver import Graph
from graphwiki_assets.core.text.type_names import type_key


def _types(store: Graph) -> tuple[list[str], list[str]]:
    """(every type a concept answers to, the taxonomy's types among them)."""
    rows = store.query(cypher.CONCEPT_TYPES)
    return sorted(r["type"] for r in rows), sorted(r["type"] for r in rows if r["taxonomy"])


def known_types(store: Graph) -> list[str]:
    return _types(store)[0]


def matching_types(known: list[str], wanted: list[str]) -> list[str]:
    """Of the graph's concept types, those a question's words ask for (by name, or by a word of the type)."""
    keys = {type_key(w) for w in wanted} - {""}
    return [t for t in known if type_key(t) in keys] or [t for t in known if keys & type_words(t)]


def as_named_thing(store: Graph, route: Route) -> Route:
    """ "What are attestations?" read as a list of a type the graph has no concepts of is a
    question about the thing of that name: it is answered as "what is", not refused. So is it
    when a concept has that name and the type is only a word an extractor gave some concept
    ("attestations like SLSA"), not a type of the taxonomy."""
    if route.shape != "topic" or not route.type_filter:
        return route
    known, taxonomy = _types(store)
    if matching_types(known, [route.type_filter]) and (
        matching_types(taxonomy, [route.type_filter]) or not is_named(store, route.type_filter)
    ):
        return route
    reason = f"{route.reason}; no concept type is {route.type_filter!r}, so answered as 'what is {route.type_filter}'"
    return replace(
        route, shape="what_is", entities=[route.type_filter, *route.entities], type_filter=None, reason=reason
    )


def topic(store: Graph, question: list[float], wanted: list[str], links: list[Link], opts: QueryOptions) -> Retrieval:
    """Concepts of the wanted type; linked entities that are not the type itself anchor it."""
    known = known_types(store)
    keys = {type_key(w) for w in wanted} - {""}
    types = matching_types(known, wanted)
    anchors = list(dict.fromkeys(link.concept_id for link in links if type_key(link.mention) not in keys))
    if not types:
        return Retrieval(
            technique="topic by type",
            concepts=anchors,
            details={"wanted": wanted, "types": known},
            empty_reason=f"no concept type matches {', '.join(w for w in wanted if w) or 'the question'}",
        )
    ids = [r["id"] for r in store.query(cypher.CONCEPTS_OF_TYPES, types=types, anchors=anchors, k=opts.k)]
    claims = claims_about(store, question, [(cid, rank, 1) for rank, cid in enumerate(ids)])
    around = " related to the anchor" if anchors else ""
    return Retrieval(
        technique="topic by type",
        concepts=anchors + ids,
        claims=claims,
        summaries=ids,
        details={"types": types, "anchors": anchors, "members": ids},
        explanation=f"{len(ids)} concept(s) of type {', '.join(types)}{around}",
        empty_reason="" if ids else f"no concept of type {', '.join(types)}{around}",
    )
