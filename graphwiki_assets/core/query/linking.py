"""Linking the question's entities to concepts: exact name/alias keys first, then vectors.

The exact pass uses the same normalised keys as ingest (``Concept.keys``), so "the CQL"
finds the node whose alias is "CQL". Only mentions without an exact hit go to the
``concept_embedding`` index; its score compares a bare name with a node embedded as
"name. context", so candidates are re-scored by name-to-name cosine before one is accepted.
Below the threshold a candidate is only a near match, listed for the user to confirm when
it is the mention in another form (``closeness.name_form_of``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from graphwiki_assets.core.embeddings import Encoder
from graphwiki_assets.core.query import cypher
from graphwiki_assets.core.query.closeness import name_form_of
from graphwiki_assets.core.query.models import Link, Linking, NearMatch, vector_pool
from graphwiki_assets.core.store.driver import Graph
from graphwiki_assets.core.store.keys import key_query, name_key

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


# Homonyms kept per key; an exact key ranks first among the index's hits (shortest field).
KEY_HITS = 50


def _compact(key: str) -> str:
    return key.replace(" ", "")


def spellings(key: str) -> list[str]:
    """The key and the ways it may be spaced in another name: without spaces, and that split
    once ("graph rag", "graphrag"). The Cypher keeps the concepts whose keys match exactly."""
    compact = _compact(key)
    return list(dict.fromkeys([key, compact] + [f"{compact[:i]} {compact[i:]}" for i in range(1, len(compact))]))


def link_entities(store: Graph, embedder: Encoder, mentions: list[str], config: LinkConfig = LinkConfig()) -> Linking:
    mentions = [m for m in dict.fromkeys(m.strip() for m in mentions) if name_key(m)]
    linking = Linking()
    if not mentions:
        return linking
    keys = [name_key(m) for m in mentions]
    params = [
        {"index": i, "key": key, "compact": _compact(key), "query": key_query(spellings(key))}
        for i, key in enumerate(keys)
    ]
    params = [p for p in params if p["query"]]
    exact: dict[int, list[dict]] = {}
    for row in store.query(cypher.CONCEPTS_BY_KEYS, mentions=params, limit=KEY_HITS) if params else []:
        exact.setdefault(row["index"], []).append(row)
    for index, rows in exact.items():
        for row in rows[: config.max_exact]:
            linking.links.append(Link(mentions[index], row["id"], row["name"], row["type"], "exact", 1.0))
    rest = [i for i in range(len(mentions)) if i not in exact]
    if rest:
        _link_by_vector(store, embedder, mentions, rest, config, linking)
    # keep the question's order of mentions
    order = {m: i for i, m in enumerate(mentions)}
    linking.links.sort(key=lambda link: order[link.mention])
    return linking


def _link_by_vector(
    store: Graph, embedder: Encoder, mentions: list[str], rest: list[int], config: LinkConfig, linking: Linking
) -> None:
    vectors = embedder.encode([mentions[i] for i in rest])
    rows = store.query(
        cypher.CONCEPT_VECTOR_CANDIDATES,
        k=config.candidates,
        pool=vector_pool(config.candidates),
        mentions=[{"index": i, "embedding": v.tolist()} for i, v in zip(rest, vectors)],
    )
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
        linking.unlinked.append(mentions[i])
        # a near match is the mention in another form, not a neighbour that shares a word with it
        forms = [(score, row) for score, _, row in scored if name_form_of(mentions[i], [row["name"], *row["aliases"]])]
        linking.near += [
            NearMatch(mentions[i], row["id"], row["name"], round(score, 4))
            for score, row in forms[: config.max_near]
            if score >= config.near_floor
        ]


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


def link_question(store: Graph, question: str) -> list[Link]:
    """Concepts named verbatim in the question: the longest non-overlapping spans win."""
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
    return links
