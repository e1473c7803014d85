"""Answers filed back into the graph, so the wiki compounds (Karpathy's LLM-wiki pattern).

``file_answer`` stores a good answer (one that found something and cites its sources) as an
``:Answer`` with its question, its text, ``CITES`` edges to the sources it cites and ``USED``
edges to the facts it was written from. An answer is derived, never knowledge: it has no
``DERIVED_FROM``, so it is not a claim, not a source, and counts for nothing when
contradictions or corroboration are decided. When a source it cites is replaced by a changed
file, the ingest flags it ``needs_review``.

A later question reworded from a filed one (cosine of the two questions at least
``SAME_QUESTION``) is shown the filed answer as one more fact, marked as a filed answer and,
when flagged, as needing review.
"""

from __future__ import annotations

import hashlib

from neo4j import ManagedTransaction

from graphwiki_assets.core.audit import append_in
from graphwiki_assets.core.embeddings import vector_model_name
from graphwiki_assets.core.query import cypher
from graphwiki_assets.core.query.logged import question_entry
from graphwiki_assets.core.query.models import Answer, cosine
from graphwiki_assets.core.store.driver import Graph, GraphStore, rows
from graphwiki_assets.core.store.schema import ensure_schema

# Two questions this close are the same question reworded ("Who founded X?" / "Who was X
# founded by?"); a question that merely shares a topic scores well below it.
SAME_QUESTION = 0.9


class NotFileable(ValueError):
    """The answer is not one to keep: it found nothing, or cites no source."""


def answer_id(question: str, text: str) -> str:
    key = " ".join(question.lower().split()) + "\n" + " ".join(text.split())
    return "answer-" + hashlib.blake2b(key.encode("utf-8"), digest_size=8).hexdigest()


def file_answer(store: GraphStore, embedder, answer: Answer, actor: str = "graphwiki") -> str:
    """Store ``answer`` and return its id; the same answer filed twice is one node. The
    filing and its audit-log entry commit together."""
    if not answer.found or not answer.sentences:
        raise NotFileable("the answer found nothing to say; only answers with cited sentences are filed")
    if not answer.citations:
        raise NotFileable("the answer cites no source; only answers with citations are filed")
    fid = answer_id(answer.question, answer.answer)
    ensure_schema(
        store, embedder.dimension, vector_model_name(embedder)
    )  # a graph older than filed answers has no index for them
    params = dict(
        id=fid,
        question=answer.question,
        text=answer.answer,
        shape=answer.shape,
        technique=answer.technique,
        backend=answer.backend,
        citations=list(answer.citations),
        fact_ids=list(dict.fromkeys(f for s in answer.sentences for f in s.fact_ids)),
        embedding=embedder.encode_one(answer.question),
    )

    def work(tx: ManagedTransaction) -> None:
        rows(tx, cypher.FILE_ANSWER, **params)
        append_in(tx, question_entry(answer, actor, action="file_answer", filed=fid))

    store.write(work)
    return fid


def filed_near(store: Graph, question_vector: list[float], k: int = 2) -> list[dict]:
    """Filed answers to this question, reworded or not (the index scores (1 + cos) / 2)."""
    rows = store.query(cypher.FILED_NEAR, embedding=question_vector, k=k, pool=50, min_score=(1 + SAME_QUESTION) / 2)
    return [{**r, "similarity": round(cosine(r["score"]), 4)} for r in rows]
