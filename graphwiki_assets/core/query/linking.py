"""Linking the question's entities to concepts: exact name/alias keys first, then spelling,
then vectors.

The exact pass uses the same normalised keys as ingest (``Concept.keys``), so "the CQL"
finds the node whose alias is "CQL". A mention without an exact hit may be a name as a person
types it, misspelt ("Alertmanger") or inflected ("relabeling" for "relabel"): the fuzzy pass
(``fuzzy``) asks the key index for candidates a few edits away and links the one that is
clearly the mention by spelling. What is left goes to the ``concept_embedding`` index; its
score compares a bare name with a node embedded as "name. context", so candidates are
re-scored by name-to-name cosine before one is accepted. Below the threshold a candidate is
only a near match, proposed when it is the mention in another form
(``closeness.name_form_of``); the best of them answers for the mention when it carries all of
the mention's words (``closeness.stands_for``) and no other does as well.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from graphwiki_assets.core.embeddings import Encoder
from graphwiki_assets.core.query import cypher, fuzzy
from graphwiki_assets.core.query.closeness import FRAMING, name_form_of, stands_for, terms
from graphwiki_assets.core.query.models import Link, Linking, NearMatch, vector_pool
from graphwiki_assets.core.store.driver import Graph
from graphwiki_assets.core.store.keys import key_query, name_key
from graphwiki_assets.core.text.words import STOPWORDS as COMMON_WORDS

# Words that never name an entity on their own (question words, articles, glue).
STOPWORDS = frozenset(
    """
a an the of in on at to for from by with about and or not is are was were be been being do does did
what which who whom whose where when why how else other than then that this these those there here
it its their his her they them we you i me my our your as into onto via per something anything thing
find show list tell give compare versus vs between connect connects connected relate relates related
shaped like similar come comes came claim claims known know all any some each every many much more most
""".split()
)

_TOKEN = re.compile(r"[^\s\"'“”‘’?!,;:()\[\]{}]+")


@dataclass(frozen=True)
class LinkConfig:
    threshold: float = 0.80  # name cosine that makes a vector candidate the entity
    near_floor: float = 0.45  # below this a candidate is not worth proposing
    candidates: int = 10  # vector-index candidates per mention
    max_exact: int = 3  # homonyms: every exact hit up to this many
    max_near: int = 5
    # name cosine by which the best near match that carries the mention's words must lead the
    # next such one to answer for it; closer, the question lists them to pick from
    near_margin: float = 0.05
    fuzzy_candidates: int = 20  # key-index candidates per mention for the fuzzy pass


# Homonyms kept per key; an exact key ranks first among the index's hits (shortest field).
KEY_HITS = 50
# Spans of a question the fuzzy pass reads: up to two content words each, at most this many
# spans, so a long question costs one index call of a bounded size (eight lookups took 30 ms
# over a million concepts named from a few dozen syllables, a dense vocabulary for fuzzy terms).
FUZZY_SPAN_WORDS = 2
FUZZY_SPANS = 8


def _compact(key: str) -> str:
    return key.replace(" ", "")


def spellings(key: str) -> list[str]:
    """The key and the ways it may be spaced in another name: without spaces, and that split
    once ("graph rag", "graphrag"). The Cypher keeps the concepts whose keys match exactly."""
    compact = _compact(key)
    return list(dict.fromkeys([key, compact] + [f"{compact[:i]} {compact[i:]}" for i in range(1, len(compact))]))


def _key_params(index: int, key: str) -> dict:
    """One mention's parameters for ``CONCEPTS_BY_KEYS``: its key and the ways it may be spaced."""
    return {"index": index, "key": key, "compact": _compact(key), "query": key_query(spellings(key))}


def is_named(store: Graph, name: str) -> bool:
    """Whether some concept in play has ``name`` (or a spacing of it) as its name or an alias."""
    key = name_key(name)
    params = _key_params(0, key) if key else None
    return bool(params and params["query"] and store.query(cypher.CONCEPTS_BY_KEYS, mentions=[params], limit=KEY_HITS))


def link_entities(store: Graph, embedder: Encoder, mentions: list[str], config: LinkConfig = LinkConfig()) -> Linking:
    mentions = [m for m in dict.fromkeys(m.strip() for m in mentions) if name_key(m)]
    linking = Linking()
    if not mentions:
        return linking
    keys = [name_key(m) for m in mentions]
    params = [p for p in (_key_params(i, key) for i, key in enumerate(keys)) if p["query"]]
    exact: dict[int, list[dict]] = {}
    for row in store.query(cypher.CONCEPTS_BY_KEYS, mentions=params, limit=KEY_HITS) if params else []:
        exact.setdefault(row["index"], []).append(row)
    for index, rows in exact.items():
        for row in rows[: config.max_exact]:
            linking.links.append(Link(mentions[index], row["id"], row["name"], row["type"], "exact", 1.0))
    rest = [i for i in range(len(mentions)) if i not in exact]
    blocked: dict[int, list[dict]] = {}
    unsure: set[int] = set()
    if rest:
        rest, blocked, unsure = _link_by_spelling(store, mentions, rest, config, linking)
    if rest:
        _link_by_vector(store, embedder, mentions, rest, config, linking, blocked, unsure)
    # keep the question's order of mentions
    order = {m: i for i, m in enumerate(mentions)}
    linking.links.sort(key=lambda link: order[link.mention])
    return linking


def _candidate(row: dict) -> fuzzy.Candidate:
    return fuzzy.Candidate(row["id"], row["name"], tuple(row["aliases"]), row["type"] or "")


def _names(row: dict) -> list[str]:
    return [n for n in [row["name"], *row["aliases"]] if n]


def _spelled(store: Graph, queries: list[dict], limit: int) -> dict[int, list[dict]]:
    """The key index's candidates of each query's mention, by index: one call for them all."""
    found: dict[int, list[dict]] = {}
    asked = [q for q in queries if q["query"]]
    for row in store.query(cypher.CONCEPTS_BY_SPELLING, mentions=asked, limit=limit) if asked else []:
        found.setdefault(row["index"], []).append(row)
    return found


def _fuzzy_link(mention: str, best: fuzzy.Scored) -> Link:
    # the same letters as the mention: a key the exact pass could not ask for ('relabel_configs')
    match, score = ("exact", 1.0) if best.spelled_alike else ("fuzzy", round(best.score / 100, 4))
    return Link(mention, best.candidate.id, best.candidate.name, best.candidate.type, match, score)


def _link_by_spelling(
    store: Graph, mentions: list[str], rest: list[int], config: LinkConfig, linking: Linking
) -> tuple[list[int], dict[int, list[dict]], set[int]]:
    """The fuzzy pass over the mentions without an exact key. Returns the mentions still
    unlinked, their blocked candidates (which the vector pass scores too) and those whose
    spelling fitted two concepts alike (no near match answers for them)."""
    queries = [{"index": i, "query": fuzzy.lucene_query(name_key(mentions[i]))} for i in rest]
    blocked = _spelled(store, queries, config.fuzzy_candidates)
    left, unsure = [], set()
    for i in rest:
        decision = fuzzy.decide(mentions[i], [_candidate(r) for r in blocked.get(i, [])])
        if decision.best is None:
            left.append(i)
            if decision.ambiguous:
                unsure.add(i)
            continue
        linking.links.append(_fuzzy_link(mentions[i], decision.best))
        others = [s for s in decision.ranked[1:] if name_form_of(mentions[i], [s.candidate.name, *s.candidate.aliases])]
        linking.near += [
            NearMatch(mentions[i], s.candidate.id, s.candidate.name, round(s.score / 100, 4))
            for s in others[: config.max_near]
        ]
    return left, {i: blocked.get(i, []) for i in left}, unsure


def _link_by_vector(
    store: Graph,
    embedder: Encoder,
    mentions: list[str],
    rest: list[int],
    config: LinkConfig,
    linking: Linking,
    blocked: dict[int, list[dict]],
    unsure: set[int],
) -> None:
    vectors = embedder.encode([mentions[i] for i in rest])
    rows = store.query(
        cypher.CONCEPT_VECTOR_CANDIDATES,
        k=config.candidates,
        pool=vector_pool(config.candidates),
        mentions=[{"index": i, "embedding": v.tolist()} for i, v in zip(rest, vectors)],
    )
    # the fuzzy pass's candidates in another form of the mention are scored alike: the key
    # index finds 'relabel_configs' for 'relabeling' where the vector index may not
    seen = {(row["index"], row["id"]) for row in rows}
    rows += [
        row
        for i in rest
        for row in blocked.get(i, [])
        if (i, row["id"]) not in seen and name_form_of(mentions[i], _names(row))
    ]
    names = sorted({n for row in rows for n in [row["name"], *row["aliases"]] if n})
    name_vectors = dict(zip(names, embedder.encode(names))) if names else {}
    for i, vector in zip(rest, vectors):
        scored = []
        for row in (r for r in rows if r["index"] == i):
            sims = [
                (float(np.dot(vector, name_vectors[n])), n) for n in [row["name"], *row["aliases"]] if n in name_vectors
            ]
            score, name = max(sims, default=(0.0, row["name"]))
            scored.append((score, name, row))
        scored.sort(key=lambda t: (-t[0], t[2]["id"]))
        if scored and scored[0][0] >= config.threshold and same_scope(mentions[i], scored[0][1], scored[0][2]["type"]):
            score, _, row = scored[0]
            linking.links.append(Link(mentions[i], row["id"], row["name"], row["type"], "vector", round(score, 4)))
            continue
        # a near match is the mention in another form, not a neighbour that shares a word with it
        forms = [(score, row) for score, _, row in scored if name_form_of(mentions[i], _names(row))]
        near = [(score, row) for score, row in forms[: config.max_near] if score >= config.near_floor]
        chosen = None if i in unsure else stand_in(mentions[i], near, config.near_margin)
        if chosen is None:
            linking.unlinked.append(mentions[i])
        else:
            score, row = chosen
            linking.links.append(Link(mentions[i], row["id"], row["name"], row["type"], "near", round(score, 4)))
        linking.near += [
            NearMatch(mentions[i], row["id"], row["name"], round(score, 4))
            for score, row in near
            if chosen is None or row["id"] != chosen[1]["id"]
        ]


def stand_in(mention: str, near: list[tuple[float, dict]], margin: float) -> tuple[float, dict] | None:
    """The near match that answers for the mention: the best of those that carry all its words
    (not a broader concept, ``stands_for``; its type may carry one, "PageRank algorithm"), when
    it leads the next such one by ``margin``."""
    carrying = [
        (score, row)
        for score, row in near
        if stands_for(mention, [*_names(row), row["type"] or ""]) and _names_the_same(mention, row)
    ]
    if not carrying or (len(carrying) > 1 and carrying[0][0] - carrying[1][0] < margin):
        return None
    return carrying[0]


# Words a stand-in's name may add to the mention ("Neo4j GDS" for "GDS"): more, and it is a
# page about the thing ("Permissions management for SQL storage backend"), not the thing.
MAX_EXTRA_WORDS = 1


def _names_the_same(mention: str, row: dict) -> bool:
    """One of the concept's names adds at most ``MAX_EXTRA_WORDS`` content words to the
    mention's, beside those of its type."""
    said = set(terms(mention)) | set(terms(row["type"] or ""))
    return any(len(set(terms(name)) - said) <= MAX_EXTRA_WORDS for name in _names(row))


def same_scope(mention: str, name: str, type_name: str) -> bool:
    """Cosine says "close", not "same": a name inside a longer one names something narrower
    ("Neo4j" in "Neo4j GDS"), unless the extra words only repeat the type ("Neo4j database")."""
    m, n = set(name_key(mention).split()), set(name_key(name).split())
    if n < m:
        return m - n <= set(name_key(type_name or "").split())
    return not m < n


def question_spans(question: str, max_words: int = 5) -> list[tuple[int, int, str, str]]:
    """Every run of up to ``max_words`` words that is not only stopwords: (start, end, text, key)."""
    words = _TOKEN.findall(question)
    spans = []
    for start in range(len(words)):
        for end in range(start + 1, min(start + max_words, len(words)) + 1):
            chunk = words[start:end]
            if all(w.lower().strip(".") in STOPWORDS for w in chunk):
                continue
            text = " ".join(chunk)
            key = name_key(text)
            if key and len(_compact(key)) > 1:
                spans.append((start, end, text, key))
    return spans


def link_question(store: Graph, question: str, config: LinkConfig = LinkConfig()) -> list[Link]:
    """Concepts named in the question, verbatim or misspelt (the fuzzy pass over the spans left):
    the longest non-overlapping spans win."""
    spans = question_spans(question)
    if not spans:
        return []
    by_key: dict[str, list[dict]] = {}
    keys = [{"key": key, "query": key_query([key])} for key in sorted({span[3] for span in spans})]
    for row in store.query(cypher.CONCEPTS_BY_ANY_KEY, keys=[k for k in keys if k["query"]], limit=KEY_HITS):
        for key in row["keys"]:
            by_key.setdefault(key, []).append(row)
    taken: set[int] = set()
    links: list[Link] = []
    for start, end, text, key in sorted(spans, key=lambda s: (s[0] - s[1], s[0])):
        if key not in by_key or taken & set(range(start, end)):
            continue
        taken |= set(range(start, end))
        for row in sorted(by_key[key], key=lambda r: (-r["source_count"], r["id"])):
            links.append(Link(text, row["id"], row["name"], row["type"], "exact", 1.0))
    links += _question_by_spelling(store, question, spans, taken, config.fuzzy_candidates)
    return links


def fuzzy_spans(question: str, spans: list[tuple[int, int, str, str]], taken: set[int]) -> list[tuple]:
    """The spans of a question the fuzzy pass may read, with their rule: up to two words, each
    a content word (a question's glue and framing words would match concepts by chance: "handle"
    is one letter from "Handler"), none in a span linked already; longest first, a bounded number."""
    words = _TOKEN.findall(question)
    ignored = STOPWORDS | COMMON_WORDS | FRAMING
    out = []
    for start, end, text, key in sorted(spans, key=lambda s: (s[0] - s[1], s[0])):
        chunk = words[start:end]
        if end - start > FUZZY_SPAN_WORDS or taken & set(range(start, end)):
            continue
        if any(w.lower().strip(".") in ignored for w in chunk):
            continue
        rule = fuzzy.span_rule(chunk, first=start == 0)
        if rule is not None:
            out.append((start, end, text, key, rule))
    return out[:FUZZY_SPANS]


def _question_by_spelling(
    store: Graph, question: str, spans: list[tuple[int, int, str, str]], taken: set[int], limit: int
) -> list[Link]:
    """The fuzzy pass over a question's spans that named no concept exactly: one index call."""
    candidates = fuzzy_spans(question, spans, taken)
    if not candidates:
        return []
    queries = [
        {"index": n, "query": fuzzy.lucene_query(key, misspelt=rule is not fuzzy.INFLECTED)}
        for n, (_, _, _, key, rule) in enumerate(candidates)
    ]
    blocked = _spelled(store, queries, limit)
    links = []
    for n, (start, end, text, _, rule) in enumerate(candidates):
        if taken & set(range(start, end)):
            continue
        decision = fuzzy.decide(text, [_candidate(r) for r in blocked.get(n, [])], rule)
        if decision.best is not None:
            taken |= set(range(start, end))
            links.append(_fuzzy_link(text, decision.best))
    return links
