"""The lower rungs of the answer ladder, for a question whose entities are not concepts.

    exact (or confident) match -> the graph answers               (service.ask)
    a name as typed, misspelt  -> the graph answers about the closest concept, saying which
    or carried by one concept     (the other near matches listed beside the answer)
    no concept at all          -> sources whose text matches, quoted: the answer comes
                                  from raw sources (sources that promoted nothing included),
                                  with any near matches named beside the quotes
    near matches only          -> the candidates, for the user to pick
    nothing anywhere           -> "The graph has no information on this."

Raw sources are those whose text holds a missing term as a phrase, and those whose
embedding is close to the question's and whose text holds the missing term's words
(``closeness``). The floor is where MiniLM-style encoders stop placing unrelated text
(around 0 to 0.2) with room to spare; above it a source is near in meaning, which is not
yet about what was asked: quoting it would pass a neighbouring topic off as an answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePosixPath

from neo4j.exceptions import ClientError

from graphwiki_assets.core.documents import format_of, read_document
from graphwiki_assets.core.query import cypher
from graphwiki_assets.core.query.closeness import covers, holds
from graphwiki_assets.core.query.models import Link, NearMatch, vector_pool
from graphwiki_assets.core.store.driver import Graph
from graphwiki_assets.core.text.sentences import split_sentences

RAW_FLOOR = 0.4  # question-to-source cosine a raw source needs without the term in its text
RAW_SOURCES = 3
QUOTES_PER_SOURCE = 2

FUZZY = "No concept is named {what}. Did you mean {candidates}? Ask again naming one of them."
CLOSEST_TEXT = 'Answering about "{name}" (closest match to "{mention}").'
RAW = (
    "No concept in the graph matches {what}; this answer comes from raw sources, not from concepts "
    "and claims the graph has checked:"
)
NOTHING = "The graph has no information on this."
EMPTY = (
    "The knowledge base is empty: no source has been ingested yet. Add sources first "
    "(`graphwiki ingest PATH`, POST /sources, or the add_source tool), then ask again."
)
OUTSIDE = "outside the current focus"


@dataclass(frozen=True)
class RawSource:
    id: str
    title: str
    path: str
    sha256: str
    score: float
    phrase: bool  # the text holds a missing term as a phrase
    quotes: tuple[str, ...]
    outside: bool = False  # outside the schema config's focus (ingest/scope.py)


def quoted(what: list[str]) -> str:
    return ", ".join(f"'{m}'" for m in what) or "the entities of this question"


def closest_text(link: Link) -> str:
    return CLOSEST_TEXT.format(name=link.name, mention=link.mention)


def fuzzy_text(what: list[str], near: list[NearMatch]) -> str:
    candidates = " or ".join(f"{n.name} ({n.concept_id})" for n in near)
    return FUZZY.format(what=quoted(what), candidates=candidates)


def also_named(near: list[NearMatch]) -> str:
    return "Concepts of a similar name: " + ", ".join(f"{n.name} ({n.concept_id})" for n in near) + "."


def raw_text(what: list[str], found: list[RawSource]) -> str:
    lines = [RAW.format(what=quoted(what))]
    lines += [f'- "{quote}" [{s.id}]' + (f" ({OUTSIDE})" if s.outside else "") for s in found for quote in s.quotes]
    return "\n".join(lines)


def raw_sources(store: Graph, question: str, question_vector: list[float], terms: list[str]) -> list[RawSource]:
    """Sources to quote, phrase matches first, then by closeness to the question; a source
    found by its vector alone is quoted only if its text holds a missing term's words (or,
    when the question named none, the question's words: ``closeness.covers``)."""
    phrase_ids = _phrase_matches(store, terms)
    rows = store.query(
        cypher.RAW_SOURCES,
        embedding=question_vector,
        pool=vector_pool(RAW_SOURCES),
        phrase_ids=sorted(phrase_ids),
        floor=RAW_FLOOR,
        k=RAW_SOURCES,
    )
    return [
        RawSource(
            id=r["id"],
            title=r["title"] or "",
            path=r["path"] or "",
            sha256=r["sha256"] or "",
            score=round(r["score"], 4),
            phrase=r["id"] in phrase_ids,
            quotes=_quotes(_prose(r["text"] or "", r["path"] or ""), terms),
            outside=r["outside"],
        )
        for r in rows
        if r["id"] in phrase_ids or _holds(r["text"] or "", question, terms)
    ]


def _holds(text: str, question: str, terms: list[str]) -> bool:
    """Near in meaning is not enough: the text must hold what was asked about."""
    return any(holds(text, t) for t in terms) if terms else covers(question, [], [text])


def _phrase_matches(store: Graph, terms: list[str]) -> set[str]:
    found: set[str] = set()
    for term in terms:
        phrase = '"' + term.replace("\\", "\\\\").replace('"', '\\"') + '"'
        try:
            found |= {r["id"] for r in store.query(cypher.SOURCES_MENTIONING, phrase=phrase, k=RAW_SOURCES)}
        except ClientError:
            continue  # a term Lucene cannot parse is simply not found
    return found


def _prose(text: str, path: str) -> str:
    """What the source says in prose, read by its format's reader: a quote is a sentence, not
    its front matter, a code block or markup."""
    document = read_document(text, format_of(PurePosixPath(path).suffix))
    return "\n\n".join(p.text for p in document.passages) or text


def _quotes(text: str, terms: list[str]) -> tuple[str, ...]:
    """The sentences that name a missing term, else the opening ones (what the source is about)."""
    sentences = [s.strip() for s in split_sentences(text or "") if s.strip()]
    lowered = [t.lower() for t in terms if t.strip()]
    naming = [s for s in sentences if any(t in s.lower() for t in lowered)]
    return tuple((naming or sentences)[:QUOTES_PER_SOURCE])
