"""The shape table: each question shape as one entry carrying its behaviour.

An entry says which of the question's mentions are linked to concepts, how many must link
before the graph can answer (else the answer is "no information on ..."), the shape that
answers instead when too few do, the technique that retrieves, and how the answer is told.
The service reads the entry for the routed shape and never branches on a shape's name, so
a new shape is one entry here plus its technique, and its line in ``core.question_shapes``
(what the router is told; that module sits below the LLM client, which cannot import this).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from graphwiki_assets.core.embeddings import Encoder
from graphwiki_assets.core.query import compare, paths, patterns, ppr, provenance, topic, traversal
from graphwiki_assets.core.query.global_search import global_search
from graphwiki_assets.core.query.linking import LinkConfig, link_entities, link_question
from graphwiki_assets.core.query.models import Linking, QueryOptions, Retrieval, Route
from graphwiki_assets.core.store.driver import Graph


class Mentions(enum.Enum):
    """Which mentions of the question are linked to concepts before retrieval."""

    NONE = "none"  # the question is matched against something other than concepts
    NAMED = "named"  # the router's entities only: a question that names none links nothing
    ANY = "any"  # the router's entities, else the concepts the question names verbatim


@dataclass(frozen=True)
class Asked:
    """What a technique reads: the question in the read transaction, routed and linked."""

    graph: Graph
    embedder: Encoder
    question: str
    vector: list[float]
    route: Route
    linking: Linking
    opts: QueryOptions


Technique = Callable[[Asked], Retrieval]


@dataclass(frozen=True)
class Fallback:
    """The shape that answers when fewer entities link than a shape needs, and why."""

    shape: str
    reason: str


@dataclass(frozen=True)
class Shape:
    """One question shape: what it links, what it needs, what retrieves, how it is told."""

    name: str
    technique: Technique
    mentions: Mentions = Mentions.ANY
    needs: int = 1  # entities that must link to concepts; fewer: no information on them
    too_few: Fallback | None = None  # answers instead when fewer than ``needs`` mentions link
    covers_question: bool = False  # the facts must cover the question's other words (closeness)
    about_sources: bool = False  # the answer lists every source retrieved, each checked on disk

    def link(self, graph: Graph, embedder: Encoder, question: str, route: Route, config: LinkConfig) -> Linking:
        if self.mentions is Mentions.NONE or (self.mentions is Mentions.NAMED and not route.entities):
            return Linking()
        if route.entities:
            return link_entities(graph, embedder, route.entities, config)
        # The router named nothing: take concepts the question names (verbatim, or misspelt).
        return Linking(links=link_question(graph, question, config))

    def missing(self, route: Route, linking: Linking) -> list[str] | None:
        """The mentions the shape cannot do without, when they are not in the graph."""
        if self.needs == 0:
            return None  # answered without the entities being concepts
        if not linking.links:
            return linking.unlinked or route.entities or []
        if self.needs > 1 and linking.unlinked:  # each of the things set side by side must be there
            return linking.unlinked
        return None

    def settled(self, route: Route, linking: Linking) -> Route:
        """The route as answered: the fallback's when fewer entities than needed linked."""
        if self.too_few is None or len(linking.per_mention()) >= self.needs:
            return route
        reason = f"{route.reason}; {self.too_few.reason}".lstrip("; ")
        return replace(route, shape=self.too_few.shape, reason=reason)


def _what_is(q: Asked) -> Retrieval:
    return traversal.what_is(q.graph, q.vector, q.linking.ids(), q.opts)


def _related(q: Asked) -> Retrieval:
    return ppr.related(q.graph, q.vector, q.linking.ids(), q.opts)


def _connect(q: Asked) -> Retrieval:
    starts, ends = q.linking.per_mention()[:2]
    return paths.connect(q.graph, q.vector, starts, ends, q.opts)


def _shaped_like(q: Asked) -> Retrieval:
    return patterns.shaped_like(q.graph, q.vector, q.linking.per_mention()[0], q.opts)


def _compare(q: Asked) -> Retrieval:
    a, b = q.linking.per_mention()[:2]
    return compare.compare(q.graph, q.vector, a[0], b[0], q.opts)


def _topic(q: Asked) -> Retrieval:
    wanted = [q.route.type_filter or ""] + q.route.entities
    return topic.topic(q.graph, q.vector, wanted, q.linking.links, q.opts)


def _global(q: Asked) -> Retrieval:
    return global_search(q.graph, q.vector, q.linking.ids(), bool(q.route.entities), q.opts)


def _provenance(q: Asked) -> Retrieval:
    return provenance.trace(q.graph, q.embedder, provenance.statement_of(q.question), q.opts)


AS_WHAT_IS = Fallback("what_is", "only one entity found, so answered as 'what is X'")

TABLE = (
    Shape("what_is", _what_is, covers_question=True),
    Shape("related", _related),
    Shape("connect", _connect, needs=2, too_few=AS_WHAT_IS),
    Shape("shaped_like", _shaped_like),
    Shape("compare", _compare, needs=2, too_few=AS_WHAT_IS),
    # the type is what is asked for; entities, when they link, only anchor it
    Shape("topic", _topic, needs=0),
    # a subject, when named, narrows the communities; the whole collection needs none
    Shape("global", _global, mentions=Mentions.NAMED, needs=0),
    # the statement itself is matched against claims, not concepts
    Shape("provenance", _provenance, mentions=Mentions.NONE, needs=0, about_sources=True),
)
SHAPES: Mapping[str, Shape] = {shape.name: shape for shape in TABLE}
