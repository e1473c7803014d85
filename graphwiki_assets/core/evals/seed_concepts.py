"""Background concepts for benchmarks that need a large graph fast, shaped like ingest's.

Ingesting enough passages to reach 100k concepts takes hours on a small machine; what
resolution reads of the graph is only the concepts themselves (their keys in the
``concept_keys`` full-text index, their vector in ``concept_embedding``, and name, type,
aliases, summary), so those are written directly, node for node as ``MERGE_CONCEPTS``
writes a concept that one source named, plus the signature the query upkeep would store
for a concept without edges.

The names are a corpus's own: the offline extractor's rules run over its passages (the
forms a probe's mentions take too), each name once, in passage order, embedded as ingest
embeds a mention (name and what the passage says it is). Past those, names are padded by
a deterministic rule: the first word of one multi-word name with the rest of another
("Jan Washington University"), typed as the second (its head word says what it is), never
a key any passage of the corpus has. A padded concept knows nothing but its name, so its
vector is its name's, as ingest embeds a mention without a description.

The plan for N concepts is the beginning of the plan for 10N, so a graph can grow.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from graphwiki_assets.core.config import Stamp
from graphwiki_assets.core.config.model import Taxonomy
from graphwiki_assets.core.embeddings import Encoder
from graphwiki_assets.core.evals import cypher
from graphwiki_assets.core.ingest.extraction import extract_documents
from graphwiki_assets.core.ingest.pipeline import records_as_documents
from graphwiki_assets.core.ingest.resolution import build_mentions
from graphwiki_assets.core.ingest.verdicts import concept_id_for
from graphwiki_assets.core.llm.offline.backend import OfflineLLM
from graphwiki_assets.core.sources import parsed
from graphwiki_assets.core.store.driver import GraphStore, Vector, rows
from graphwiki_assets.core.store.keys import keys_for
from graphwiki_assets.core.store.schema import AWAITING_CORROBORATION

SEEDED_BY = "seeded_by"  # the property that marks a seeded node; its value names the benchmark
SEED_SOURCE = "seeded-background"  # the source id seeded concept ids are derived from
WRITE_CHUNK = 2000  # concepts per write transaction
ENCODE_CHUNK = 8192  # texts per encode call, and per cached file of vectors


@dataclass(frozen=True)
class SeedConcept:
    name: str
    type: str  # the taxonomy's type
    extracted_type: str  # the extractor's own word
    summary: str
    aliases: tuple[str, ...]
    keys: tuple[str, ...]
    identity: str  # what the thing is: its vector mixes the name's and this text's (as ingest's)
    padded: bool = False

    @property
    def id(self) -> str:
        return concept_id_for(SEED_SOURCE, self.name)


def corpus_concepts(records: list[dict], taxonomy: Taxonomy) -> list[list[SeedConcept]]:
    """The concepts the offline extractor finds in each record (one list per record, in order)."""
    docs = [parsed(d) for d in records_as_documents(records, "seed")]
    extracted = extract_documents(OfflineLLM(), docs, taxonomy=taxonomy)
    by_source: dict[str, list[SeedConcept]] = {c.source_id: [] for c in extracted.candidates}
    for m in build_mentions(extracted.candidates):
        aliases = tuple(a for a in dict.fromkeys([m.name, *m.aliases]) if a != m.name)
        by_source[m.source_id].append(
            SeedConcept(
                name=m.name,
                type=m.taxonomy_type or m.type,
                extracted_type=m.type,
                summary=m.description or m.context,
                aliases=aliases,
                keys=tuple(m.keys),
                identity=m.identity,
            )
        )
    return [by_source.get(d.source_id, []) for d in docs]


def distinct(concepts: Iterable[SeedConcept]) -> list[SeedConcept]:
    """Each name once (by its normal form), first occurrence first."""
    seen: set[str] = set()
    out = []
    for c in concepts:
        if c.keys and c.keys[0] not in seen:
            seen.add(c.keys[0])
            out.append(c)
    return out


def padded(real: list[SeedConcept], taken: set[str], n: int) -> list[SeedConcept]:
    """``n`` invented names: the first word of one multi-word name with the rest of another,
    pairs walked at a growing distance (d = 1, 2, ...) so every pair comes once. A name whose
    key is ``taken`` (any name of the corpus, or one made before) is skipped."""
    multi = [c for c in real if len(c.name.split()) >= 2]
    used = set(taken)
    out: list[SeedConcept] = []
    for distance in range(1, len(multi)):
        for i, first in enumerate(multi):
            if len(out) >= n:
                return out
            head = multi[(i + distance) % len(multi)]
            name = f"{first.name.split()[0]} {head.name.split(maxsplit=1)[1]}"
            keys = tuple(keys_for(name, []))
            if not keys or any(k in used for k in keys):
                continue
            used.update(keys)
            out.append(
                SeedConcept(
                    name=name,
                    type=head.type,
                    extracted_type=head.extracted_type,
                    summary="",
                    aliases=(),
                    keys=keys,
                    identity="",
                    padded=True,
                )
            )
    return out


def seed_plan(per_record: list[list[SeedConcept]], background: int, size: int) -> list[SeedConcept]:
    """``size`` concepts: the distinct names of the first ``background`` records, then padded
    ones. Keys of every record (the probe's included) are never invented."""
    real = distinct(c for concepts in per_record[:background] for c in concepts)[:size]
    if len(real) == size:
        return real
    taken = {k for concepts in per_record for c in concepts for k in c.keys}
    more = padded(real, taken, size - len(real))
    if len(real) + len(more) < size:
        raise ValueError(
            f"the corpus yields {len(real)} names and {len(more)} padded ones, fewer than the {size} "
            "concepts asked for: use a larger corpus or smaller sizes"
        )
    return real + more


def seed_vectors(
    embedder: Encoder, texts: list[str], cache_dir: Path | None = None, log: Callable[[str], None] = lambda m: None
) -> tuple[np.ndarray, int]:
    """One row per text, encoded ENCODE_CHUNK at a time; a chunk encoded before (same model,
    same texts) is read from ``cache_dir``. Returns the vectors and how many were encoded."""
    parts, encoded = [], 0
    model = str(getattr(embedder, "name", type(embedder).__name__))
    for start in range(0, len(texts), ENCODE_CHUNK):
        chunk = texts[start : start + ENCODE_CHUNK]
        digest = hashlib.sha256("\x1e".join([model, *chunk]).encode()).hexdigest()[:20]
        path = cache_dir / f"{digest}.npy" if cache_dir else None
        if path is not None and path.exists():
            part = np.load(path)
        else:
            part = np.asarray(embedder.encode(chunk, batch_size=128), dtype=np.float32)
            encoded += len(chunk)
            if path is not None:
                path.parent.mkdir(parents=True, exist_ok=True)
                np.save(path, part)
        parts.append(part)
        log(f"seed vectors: {start + len(chunk)}/{len(texts)}")
    return (np.concatenate(parts) if parts else np.zeros((0, embedder.dimension), dtype=np.float32)), encoded


def seed_rows(concepts: list[SeedConcept], vectors: np.ndarray, marker: str, stamp: Stamp) -> list[dict]:
    """The node properties ingest writes for a concept one source named (one independent
    source: flagged as awaiting corroboration below the config's threshold), with the
    signature the query upkeep stores for a concept without edges."""
    flagged = 1 < int(stamp["corroboration"])
    return [
        {
            "id": c.id,
            "name": c.name,
            "type": c.type,
            "extracted_type": c.extracted_type,
            "summary": c.summary,
            "embedding": Vector(v.tolist()),
            "aliases": list(c.aliases),
            "keys": list(c.keys),
            "status": "current",
            "needs_review": flagged,
            "review_reason": AWAITING_CORROBORATION if flagged else None,
            "config_version": stamp["config_version"],
            "source_count": 1,
            "independent_sources": 1,
            "summary_dirty": False,
            "shape_entries": [],
            "shape_counts": [],
            "shape_degree": 0,
            "shape_state": f"{c.type or 'Concept'}|current",
            SEEDED_BY: marker,
        }
        for c, v in zip(concepts, vectors)
    ]


def write_seeds(
    store: GraphStore, concepts: list[SeedConcept], vectors: np.ndarray, marker: str, stamp: Stamp, now: str
) -> None:
    """Write (or reset to their seeded state) these concepts, WRITE_CHUNK per transaction."""
    for start in range(0, len(concepts), WRITE_CHUNK):
        batch = seed_rows(concepts[start : start + WRITE_CHUNK], vectors[start : start + WRITE_CHUNK], marker, stamp)
        store.write(lambda tx, b=batch: rows(tx, cypher.SEED_CONCEPTS, rows=b, now=now))


def seeded_count(store: GraphStore, marker: str) -> int:
    return store.query(cypher.SEEDED_CONCEPTS, marker=marker)[0]["n"]
