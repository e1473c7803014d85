"""The eval on real documents: a folder of a project's docs ingested the way ``graphwiki
ingest FOLDER`` ingests it, every question of the key asked the way ``graphwiki ask``
asks it, each answer graded, and the concepts and contradiction flags sampled.

Source paths map back to files of the corpus folder (a Source's ``paths``), so an answer's
citations are compared with the key's gold files.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from graphwiki_assets.core.embeddings import Embedder
from graphwiki_assets.core.evals import cypher
from graphwiki_assets.core.evals.docs import grading, samples
from graphwiki_assets.core.evals.multihop import progress_every
from graphwiki_assets.core.evals.results.docs import DocsResult
from graphwiki_assets.core.ingest.pipeline import IngestConfig, Ingestor, ingest_documents, read_paths
from graphwiki_assets.core.query import ask
from graphwiki_assets.core.sources import sort_out
from graphwiki_assets.core.store.driver import GraphStore
from graphwiki_assets.core.store.schema import ensure_schema

Log = Callable[[str], None]


@dataclass(frozen=True)
class DocsSet:
    """A corpus folder, its key, and the folder of its label files."""

    corpus: Path
    questions: Path
    labels: Path

    @classmethod
    def beside(cls, corpus: Path, questions: Path | None = None, labels: Path | None = None) -> DocsSet:
        """The layout of evals/docs/<name>/: corpus/, questions.jsonl and the labels beside it."""
        corpus = corpus.resolve()
        if not corpus.is_dir():
            raise ValueError(f"{corpus}: the corpus must be a folder of documents")
        questions = questions or corpus.parent / "questions.jsonl"
        return cls(corpus=corpus, questions=questions, labels=labels or questions.parent)


def corpus_files(corpus: Path) -> tuple[list[Path], dict[str, int]]:
    """The files ``graphwiki ingest`` reads from the folder, and the others counted by suffix."""
    read, unread = sort_out(corpus)
    others = Counter(p.suffix.lower() or p.name for p in unread)
    return read, dict(sorted(others.items()))


def ingest_folder(
    store: GraphStore, embedder: Embedder, llm, files: list[Path], config: IngestConfig, log: Log = lambda msg: None
) -> dict:
    if store.query("MATCH (n) RETURN count(n) AS n")[0]["n"]:
        raise RuntimeError("the docs eval needs an empty eval graph (wipe it first)")
    ensure_schema(store, embedder.dimension)
    ingestor = Ingestor(store=store, embedder=embedder, llm=llm, config=config, purpose="graphwiki eval docs")
    progress = progress_every(25, len(files), log)
    report = ingest_documents(ingestor, read_paths(files, max_bytes=config.max_bytes), progress=progress).as_dict()
    keep = ("backend", "sources", "concepts", "claims", "contradictions", "settled", "llm_calls", "taxonomy")
    return {**{k: report[k] for k in keep}, "seconds": report["seconds"], "problems": report["problems"]}


def cited_paths(store: GraphStore, corpus: Path) -> dict[str, list[str]]:
    """Source id -> the corpus files with its text."""
    out: dict[str, list[str]] = {}
    for row in store.query(cypher.SOURCE_PATHS):
        out[row["id"]] = sorted({rel for p in row["paths"] if (rel := samples.corpus_path(p, corpus))})
    return out


def _cited(answer: dict, id_map: dict[str, list[str]]) -> list[str]:
    ids = set(answer["citations"]) | {s for sentence in answer["sentences"] for s in sentence["source_ids"]}
    return sorted({path for i in ids for path in id_map.get(i, [])})


def run_docs(
    store: GraphStore,
    embedder: Embedder,
    llm,
    docs: DocsSet,
    key: list[grading.KeyQuestion],
    config: IngestConfig | None = None,
    name: str = "",
    log: Log = lambda msg: None,
) -> DocsResult:
    """Ingest ``docs.corpus`` into the (empty) store, ask and grade every question, sample."""
    started = time.monotonic()
    config = config or IngestConfig()
    files, not_read = corpus_files(docs.corpus)
    log(f"ingesting {len(files)} files of {docs.corpus} ({llm.label}); not read by the reader: {not_read or 'none'}")
    ingest = ingest_folder(store, embedder, llm, files, config, log)
    log(f"ingested in {ingest['seconds']}s; asking {len(key)} questions")
    id_map = cited_paths(store, docs.corpus)
    asked = time.monotonic()
    rows: list[grading.Graded] = []
    for q in key:
        answer = ask(store, embedder, llm, q.question).as_dict()
        rows.append(grading.graded(q, answer, _cited(answer, id_map)))
    ask_seconds = round(time.monotonic() - asked, 2)
    concepts = samples.concept_quality(
        store, config.schema.taxonomy.fallback, samples.load_labels(docs.labels / "concept_labels.jsonl", "concept")
    )
    contradictions = samples.contradiction_quality(
        store,
        docs.corpus,
        samples.load_labels(docs.labels / "contradiction_labels.jsonl", "contradiction"),
    )
    total = grading.summarise(rows)
    return DocsResult.of(
        {
            "name": name or docs.corpus.parent.name,
            "backend": llm.label,
            "embedding_model": embedder.name,
            "corpus": str(docs.corpus),
            "files": len(files),
            "files_not_read": not_read,
            **total.as_dict(),
            "by_split": {s: x.as_dict() for s, x in grading.by_split(rows).items()},
            "by_shape": grading.by_shape(rows),
            "concepts": concepts.as_dict(),
            "contradictions": contradictions.as_dict(),
            "ingest": ingest,
            "ask_seconds": ask_seconds,
            "seconds_per_question": round(ask_seconds / max(len(key), 1), 3),
            "questions": [r.as_dict() for r in rows],
            "seconds": round(time.monotonic() - started, 2),
        }
    )
