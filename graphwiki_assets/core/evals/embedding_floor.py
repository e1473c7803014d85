"""The embedding floor of a corpus: how long the encoder needs to read each source once.

Every design of ingest reads each source through the encoder at least once, so the word
pieces of the sources divided by the encoder's rate on this machine (measured alone, in
large batches) is a lower bound on the wall time of any ingest that embeds them here, before
claims, mentions, vector search or writes. It tells a time target that cannot be met on
this hardware with this model from one that can. The encoder's CPU seconds per word piece
say what embedding costs inside an ingest, where it shares the cores with everything else.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from graphwiki_assets.core.cpu_time import cores
from graphwiki_assets.core.embeddings import Embedder
from graphwiki_assets.core.evals.multihop import load_jsonl
from graphwiki_assets.core.evals.results.benches import EmbeddingFloorResult
from graphwiki_assets.core.ingest.pipeline import records_as_documents


def embedding_floor(
    embedder: Embedder, corpus: Path | str, sample: int = 300, repeats: int = 3, limit: int | None = None
) -> EmbeddingFloorResult:
    docs = load_jsonl(corpus)
    docs = docs[:limit] if limit else docs
    texts = [doc.text for doc in records_as_documents(docs, "corpus")]
    pieces = embedder.word_pieces(texts)
    total = sum(pieces)
    embedder.encode_uncached(texts[: min(8, len(texts))])  # first call pays for warming up, not for reading
    runs = []
    for i in range(repeats):
        # Different slices of the corpus, so one unusual stretch of text does not set the rate.
        start = (i * sample) % max(len(texts), 1)
        chunk = texts[start : start + sample] or texts[:sample]
        chunk_pieces = sum(embedder.word_pieces(chunk))
        began, cpu = time.perf_counter(), time.process_time()  # every thread's, the encoder's own included
        embedder.encode_uncached(chunk)
        seconds = time.perf_counter() - began
        cpu = time.process_time() - cpu
        runs.append(
            {
                "texts": len(chunk),
                "word_pieces": chunk_pieces,
                "seconds": round(seconds, 3),
                "word_pieces_per_second": round(chunk_pieces / max(seconds, 1e-9), 1),
                "cpu_seconds": round(cpu, 3),
            }
        )
    rate = statistics.median(r["word_pieces_per_second"] for r in runs)
    cpu_per_1k = statistics.median(1000 * r["cpu_seconds"] / max(r["word_pieces"], 1) for r in runs)
    return EmbeddingFloorResult.of(
        {
            "corpus": str(corpus),
            "sources": len(texts),
            "embedding_model": embedder.name,
            "runtime": embedder.runtime,
            "word_pieces": total,
            "word_pieces_per_source": round(total / max(len(texts), 1), 1),
            "sources_at_model_limit": sum(1 for p in pieces if p >= embedder.max_word_pieces),
            "encoder_runs": runs,
            "word_pieces_per_second": rate,
            "floor_seconds": round(total / rate, 1) if rate else None,
            "cores": cores(),
            "cpu_seconds_per_1k_word_pieces": round(cpu_per_1k, 4),
        }
    )
