"""``ask``: one question through routing, linking, the shape's technique and synthesis.

The same function serves the CLI (``graphwiki ask``), the eval assets and notebooks:

    from graphwiki_assets.core.query import ask
    answer = ask(store, embedder, llm, "How does Cypher connect to PageRank?")
    answer.as_dict()["technique"]  # 'shortest path'
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from dataclasses import fields, replace
from pathlib import Path

from graphwiki_assets.core.audit import append_in
from graphwiki_assets.core.embeddings import Encoder
from graphwiki_assets.core.query import answer as synthesis
from graphwiki_assets.core.query import citing, closeness, cypher, fallback, provenance, subgraph, topic
from graphwiki_assets.core.query.filed import filed_near
from graphwiki_assets.core.query.linking import LinkConfig
from graphwiki_assets.core.query.logged import question_entry
from graphwiki_assets.core.query.models import CLOSEST, Answer, Linking, QueryOptions, Retrieval, Route
from graphwiki_assets.core.query.routing import route as choose_route
from graphwiki_assets.core.query.shapes import SHAPES, Asked
from graphwiki_assets.core.store.driver import Graph, GraphStore, GraphUnavailable
from graphwiki_assets.core.store.vector_model import check_encoder

log = logging.getLogger(__name__)


def ask(store: GraphStore, embedder: Encoder, llm, question: str, *, actor: str | None = None, **kwargs) -> Answer:
    """Answer ``question`` from the graph. ``shape``/``entities`` skip the router when given;
    other keyword options are ``QueryOptions`` fields (fanout, max_facts, stale_days, ...).
    An empty question or an option out of range raises ValueError before the graph is read.
    With ``actor`` (who asks), the question and what answered it go to the audit log.
    Someone waits for the answer: a graph that went away is a refusal within seconds."""
    laps = Laps()
    try:
        with store.promptly():
            answer = answer_question(store, embedder, llm, question, laps=laps, **kwargs)
            if actor is not None:
                store.write(append_in, question_entry(answer, actor))
    except GraphUnavailable as exc:
        # where a refused question spent its time: a refusal is meant to come within seconds
        log.warning("question refused after %.0f ms (%s): %s", laps.total(), laps.so_far(), str(exc)[:120])
        raise
    return answer


def answer_question(
    store: GraphStore,
    embedder: Encoder,
    llm,
    question: str,
    *,
    hops: int = 2,
    k: int = 8,
    shape: str | None = None,
    entities: list[str] | None = None,
    type_filter: str | None = None,
    link_config: LinkConfig = LinkConfig(),
    sources_dirs: list[Path] | None = None,
    laps: Laps | None = None,
    **opts,
) -> Answer:
    laps = laps or Laps()
    if not isinstance(question, str) or not question.strip():
        raise ValueError('the question is empty: ask about something, e.g. "What is Neo4j?"')
    if unknown := set(opts) - (known := {f.name for f in fields(QueryOptions)}):
        raise TypeError(f"unknown option(s) {sorted(unknown)}; known: {sorted(known)}")
    options = replace(QueryOptions(), hops=hops, k=k, **opts)
    route = choose_route(llm, question, shape, entities, type_filter)
    laps.mark("routed")
    # One read transaction for the question's dozen small queries, closed before the LLM writes.
    with store.reading() as graph:
        if not graph.query(cypher.GRAPH_COUNTS)[0]["sources"]:
            # nothing ingested yet: no projection to build and nothing to link, so say what to do
            return _unanswered(question, route, Linking(), "empty", fallback.EMPTY, [], [], [], 0, laps)
        check_encoder(graph, embedder)  # vectors of another model would match by noise
        route = topic.as_named_thing(graph, route)
        entry = SHAPES[route.shape]
        linking = entry.link(graph, embedder, question, route, link_config)
        vector = embedder.encode_one(question)
        laps.lap("linking")
        missing = entry.missing(route, linking)
        if missing is not None:
            return _no_information(graph, question, vector, route, linking, missing, laps)
        route = entry.settled(route, linking)
        entry = SHAPES[route.shape]
        retrieval = entry.technique(Asked(graph, embedder, question, vector, route, linking, options))
        counts = graph.query(cypher.GRAPH_COUNTS)[0]
        filed = filed_near(graph, vector) if counts["answers"] else []
        sub = subgraph.load(graph, retrieval, options.stale_days, max_claims=options.max_facts, filed=filed)
        corpus_tokens = _corpus_tokens(graph, counts["sources"])
    laps.lap("retrieval")
    today = options.today or dt.date.today()
    facts = synthesis.build_facts(
        retrieval, sub, options.max_facts, outdated_before=today - dt.timedelta(days=options.stale_days)
    )
    missing = _off_question(question, route, linking, facts) if entry.covers_question else []
    if missing:
        return _not_about_question(question, route, linking, missing, laps, corpus_tokens)
    if entry.about_sources:
        _verify_sources(retrieval, sub, facts, sources_dirs)
    if linking.unlinked and not retrieval.communities:  # a global subject need not be a concept
        facts.flags.append(f"the graph has no information on {', '.join(map(repr, linking.unlinked))}")
    closest = _closest(linking)
    facts.flags[:0] = closest
    written, backend = synthesis.synthesise(llm, question, route.shape, facts)
    sentences = synthesis.render(written, facts)
    text = synthesis.compose(sentences, facts)
    if not sentences and retrieval.empty_reason:
        text = f"The graph has no information to answer this: {retrieval.empty_reason}."
    text = "\n".join([*closest, text])  # said first: the reader typed another name
    return _answer(
        question,
        route,
        linking,
        retrieval,
        sub,
        facts,
        sentences,
        text,
        backend,
        laps,
        corpus_tokens,
        entry.about_sources,
    )


class Laps:
    """Milliseconds per phase of one question, in the order the phases ran."""

    def __init__(self) -> None:
        self.started = self.last = time.perf_counter()
        self.ms: dict[str, float] = {}
        self.marks: dict[str, float] = {}  # milliseconds from the start to points inside the phases

    def mark(self, point: str) -> None:
        self.marks[point] = round((time.perf_counter() - self.started) * 1000, 1)

    def so_far(self) -> str:
        """The phases ended and the points reached, for a log line."""
        done = [f"{phase} {ms:.0f} ms" for phase, ms in self.ms.items()]
        reached = [f"{point} at {ms:.0f} ms" for point, ms in self.marks.items()]
        return "; ".join(done + reached) or "before routing"

    def lap(self, phase: str) -> None:
        now = time.perf_counter()
        self.ms[phase] = round(self.ms.get(phase, 0.0) + (now - self.last) * 1000, 2)
        self.last = now

    def total(self) -> float:
        return round((time.perf_counter() - self.started) * 1000, 1)


def _verify_sources(retrieval: Retrieval, sub, facts, roots: list[Path] | None) -> None:
    checks = provenance.verify(list(sub.sources.values()), [Path.cwd(), *(roots or [])])
    retrieval.details["sources"] = checks
    for check in checks:
        if check["verified"] is False:
            facts.flags.append(
                f"source {check['id']} changed on disk since ingest ({check['file']}): "
                "its SHA256 no longer matches; re-ingest it"
            )


def _corpus_tokens(graph: Graph, count: int | None = None) -> int:
    """The corpus's size in tokens. Summing it reads every source's text (40 ms at 18k
    sources), so each store remembers it until the number of sources changes: ingest adds
    a Source node for every new or changed file."""
    if count is None:
        count = graph.query(cypher.GRAPH_COUNTS)[0]["sources"]
    known = graph.memo.get("corpus_tokens")
    if known is None or known[0] != count:
        characters = graph.query(cypher.CORPUS_CHARACTERS)[0]["characters"]
        known = graph.memo["corpus_tokens"] = (count, synthesis.estimate_tokens(characters))
    return known[1]


def _closest(linking: Linking) -> list[str]:
    """A note for each mention answered through the closest concept to what was typed."""
    return [fallback.closest_text(link) for link in linking.links if link.match in CLOSEST]


def _near(linking: Linking) -> list[dict]:
    return [{"mention": n.mention, "concept_id": n.concept_id, "name": n.name, "score": n.score} for n in linking.near]


def _entities(linking: Linking) -> list[dict]:
    return [
        {
            "mention": link.mention,
            "concept_id": link.concept_id,
            "name": link.name,
            "type": link.type,
            "match": link.match,
            "score": link.score,
        }
        for link in linking.links
    ]


def _off_question(question: str, route: Route, linking: Linking, facts) -> list[str]:
    """The words of the question that the facts on its linked entities do not cover, when
    too many are missing (``closeness``); an empty list when the facts answer it."""
    if not linking.links or not facts.facts:
        return []
    # the router's entity is a name even where only part of it linked ("Orrin cluster" -> Orrin)
    names = route.entities + [n for link in linking.links for n in (link.mention, link.name)]
    rest, missing = closeness.uncovered(question, names, [f.text for f in facts.facts])
    return [] if closeness.enough(rest, missing) else missing


def _not_about_question(
    question: str, route: Route, linking: Linking, missing: list[str], laps: Laps, corpus_tokens: int
) -> Answer:
    """The entity is in the graph, what was asked about it is not: no information, said so."""
    what = fallback.quoted(list(dict.fromkeys(link.name for link in linking.links)))
    asked = fallback.quoted(missing)
    text = f"{fallback.NOTHING} The graph holds facts on {what}, but none on {asked}."
    flags = [*_closest(linking), f"no fact on {what} mentions {asked}"]
    laps.lap("retrieval")
    return _unanswered(question, route, linking, "nothing", text, flags, [], _near(linking), corpus_tokens, laps)


def _no_information(
    store: Graph, question: str, vector: list[float], route: Route, linking: Linking, missing: list[str], laps: Laps
) -> Answer:
    """The ladder below an answer: sources that state the very term asked about, else sources
    close to the question that hold all its words, else near matches to pick from, else
    nothing. A term a source writes word for word ("HELM_DRIVER") is what was asked, where a
    concept of a similar name is a guess, so its sources come first; sources that hold every
    word of a longer phrase ("the core components of a build") answer it rather than a list of
    broader names, which are offered beside the quotes."""
    what = fallback.quoted(missing)
    near = _near(linking)
    found = fallback.raw_sources(store, question, vector, missing)
    if linking.near and any(s.phrase for s in found):
        found = [s for s in found if s.phrase]
    if linking.near and not found:
        rung, text, flags = "fuzzy", fallback.fuzzy_text(missing, linking.near), [f"no concept is named {what}"]
    elif found:
        rung, text = "raw_sources", fallback.raw_text(missing, found)
        if linking.near:
            text += "\n" + fallback.also_named(linking.near)
        flags = [f"no concept matches {what}: quoted from raw sources, not checked claims"]
        flags += [
            f"source {s.id} is {fallback.OUTSIDE}: ingested, but no concept or claim was drawn from it"
            for s in found
            if s.outside
        ]
    else:
        rung, text, flags = "nothing", fallback.NOTHING, [f"no concept or source matches {what}"]
    flags = [*_closest(linking), *flags]
    laps.lap("retrieval")
    return _unanswered(question, route, linking, rung, text, flags, found, near, _corpus_tokens(store), laps)


def _unanswered(
    question: str,
    route: Route,
    linking: Linking,
    rung: str,
    text: str,
    flags: list[str],
    found: list[fallback.RawSource],
    near: list[dict],
    corpus_tokens: int,
    laps: Laps,
) -> Answer:
    ids = [s.id for s in found]
    return Answer(
        question=question,
        shape=route.shape,
        technique=route.technique,
        reason=route.reason,
        backend=route.backend,
        entities=_entities(linking),
        answer=text,
        sentences=[],
        citations=ids,
        flags=flags,
        retrieved={"concepts": [], "claims": [], "sources": ids, "communities": [], "answers": []},
        context_tokens=0,
        corpus_tokens=corpus_tokens,
        latency_ms=0.0,
        found=False,
        rung=rung,
        near_matches=near,
        sources=[
            {
                "id": s.id,
                "title": s.title,
                "path": s.path,
                "sha256": s.sha256,
                "status": "current",
                "last_seen_at": None,
            }
            for s in found
        ],
        details={"raw_sources": [{"id": s.id, "title": s.title, "score": s.score, "phrase": s.phrase} for s in found]},
    ).timed(laps)


def _answer(
    question, route, linking, retrieval, sub, facts, sentences, text, backend, laps, corpus_tokens, all_sources: bool
) -> Answer:
    citations = list(dict.fromkeys(s for sentence in sentences for s in sentence.source_ids))
    cited, known = list(dict.fromkeys(f for sentence in sentences for f in sentence.fact_ids)), facts.by_id()
    # an answer about the sources themselves (provenance) shows all of them, cited or not
    listed = citations + ([s for s in sub.sources if s not in citations] if all_sources else [])
    sections = citing.cited_sections(sub.claims[f] for f in cited if f in sub.claims)
    sources = [
        {
            "id": s.id,
            "title": s.title,
            "path": s.path,
            "sha256": s.sha256,
            "status": s.status,
            "last_seen_at": s.last_seen_at,
            "sections": sections.get(s.id, []),
            "cited_as": citing.cited_as(s.path, sections.get(s.id, [])),
        }
        for s in (sub.sources[c] for c in listed if c in sub.sources)
    ]
    names = {cid: c.name for cid, c in sub.concepts.items()}
    details = {**retrieval.details, "explanation": retrieval.explanation, "names": names}
    # answered about the closest concept to a name as typed: the fuzzy rung, answered
    closest = any(link.match in CLOSEST for link in linking.links)
    reason = "; ".join(p for p in (route.reason, retrieval.explanation) if p)
    answer_backend = backend if backend == route.backend else f"route: {route.backend}; answer: {backend}"
    return Answer(
        question=question,
        shape=route.shape,
        technique=retrieval.technique,
        reason=reason,
        backend=answer_backend,
        entities=_entities(linking),
        answer=text,
        sentences=sentences,
        citations=citations,
        flags=facts.flags_for(cited),
        retrieved={
            "concepts": list(sub.concepts),
            "claims": list(sub.claims),
            "sources": list(sub.sources),
            "communities": list(sub.communities),
            "answers": [f["id"] for f in sub.filed],
        },
        context_tokens=synthesis.estimate_tokens(facts.characters()),
        corpus_tokens=corpus_tokens,
        latency_ms=0.0,
        found=True,
        rung="fuzzy" if closest else "graph",
        near_matches=_near(linking),
        history=facts.history,
        outdated=[{"fact_id": f, "last_stated": facts.outdated[f]} for f in cited if f in facts.outdated],
        sources=sources,
        facts=[{"id": f, "status": known[f].status, "sources": known[f].source_ids} for f in cited if f in known],
        details=details,
    ).timed(laps)
