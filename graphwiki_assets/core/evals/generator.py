"""A generated graph of any size, shaped like an ingested corpus, for query benchmarks.

The shape follows what ingest makes of a real corpus (the MuSiQue graph: per passage about
5.6 new concepts, 1.7 mentions of known ones, 4 claims about 2.4 concepts each; most
concepts of the catch-all type 'Concept', a long tail of others; stage-2 NOT_SAME verdicts
beside every new concept), with the skew that makes graphs slow: a concept mentioned again
is picked in proportion to how often it was mentioned before (preferential attachment, so
degrees follow a power law), and a few hubs are named by a share of all sources. Claims
sometimes contradict an earlier claim about the same concept (both disputed); a few
concepts are PART_OF an earlier one. Embeddings have the model's dimension and cluster by
topic, so vector search and relevance ranking do the work they do on real text.

Everything is written with ingest's own statements (``core.ingest.cypher``) under the same
schema and indexes, one transaction per ``chunk`` sources. The plan (``generator_plan``) is
one sequential pass from a seed, so the graph of N concepts is the beginning of the graph of 10N:
growing an existing generated graph writes only the sources it lacks.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from graphwiki_assets.core.config import default_config
from graphwiki_assets.core.evals import cypher as eval_cypher
from graphwiki_assets.core.evals.generator_plan import GeneratorConfig, SourcePlan, plan
from graphwiki_assets.core.ingest import cypher as ingest_cypher
from graphwiki_assets.core.ingest.taxonomy import TypeMapper
from graphwiki_assets.core.store.driver import GraphStore, Vector, rows
from graphwiki_assets.core.store.schema import AWAITING_CORROBORATION

DEFAULT_CONFIG = GeneratorConfig()  # frozen: one shared default is safe


class Vectors:
    """Topic-clustered unit vectors, drawn per source from (seed, source) so that writing only
    some sources draws the same vectors as writing all of them."""

    def __init__(self, seed: int, dimension: int, config: GeneratorConfig):
        centres = np.random.default_rng([seed, 0]).standard_normal((config.topics, dimension))
        self.centres = centres / np.linalg.norm(centres, axis=1, keepdims=True)
        self.seed, self.dimension, self.noise = seed, dimension, config.noise

    def draw(self, source: SourcePlan, n: int) -> np.ndarray:
        rng = np.random.default_rng([self.seed, 1, source.index])
        noise = rng.standard_normal((n, self.dimension)) * (self.noise / math.sqrt(self.dimension))
        out = self.centres[source.topic] + noise
        return (out / np.linalg.norm(out, axis=1, keepdims=True)).astype(np.float32)


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _payload(chunk: list[SourcePlan], vectors: Vectors) -> dict:
    sources, claims, associations, contradictions, not_same, part_of = [], [], [], [], [], []
    actions: list[dict] = []  # a new concept's row, or a known one's (named again, fields empty)
    mapper = TypeMapper(default_config().taxonomy)
    for s in chunk:
        drawn = [Vector(v) for v in vectors.draw(s, 1 + len(s.concepts) + len(s.claims)).tolist()]
        sources.append(
            {
                "id": s.id,
                "sha256": _sha(s.text),
                "path": f"generated/{s.id}.txt",
                "title": s.title,
                "text": s.text,
                "paths": [f"generated/{s.id}.txt"],
                "embedding": drawn[0],
                "scope": "in",
                "scope_reason": "",
            }
        )
        fresh = {c["id"]: c for c in s.concepts}
        for n, c in enumerate(s.concepts):
            # typed as ingest types it: the default taxonomy's type, the finer word beside it
            actions.append(
                {
                    "source_id": s.id,
                    "concept_id": c["id"],
                    "name": c["name"],
                    "type": mapper.map(c["type"])[0] or c["type"],
                    "extracted_type": c["type"],
                    "description": c["description"],
                    "embedding": drawn[1 + n],
                    "aliases": c["aliases"],
                    "keys": c["keys"],
                }
            )
        # a known concept named again: MERGE matches it, only its DERIVED_FROM is new
        actions += [
            {
                "source_id": s.id,
                "concept_id": cid,
                "name": "",
                "type": "",
                "extracted_type": "",
                "description": "",
                "embedding": None,
                "aliases": [],
                "keys": [],
            }
            for cid in s.mentions
            if cid not in fresh
        ]
        for n, claim in enumerate(s.claims):
            claims.append({**claim, "source_id": s.id, "embedding": drawn[1 + len(s.concepts) + n]})
            if len(claim["about"]) > 1:
                associations += [
                    {"a": a, "b": b, "claim": claim["id"]}
                    for i, a in enumerate(sorted(claim["about"]))
                    for b in sorted(claim["about"])[i + 1 :]
                ]
        contradictions += [
            {"new_claim": a, "existing_claim": b, "reason": "generated", "source_id": s.id} for a, b in s.contradictions
        ]
        not_same += [{"from": a, "to": b, "judgment_id": None} for a, b in s.not_same]
        part_of += [{"part": a, "whole": b} for a, b in s.part_of]
    disputed = sorted({c for pair in contradictions for c in (pair["new_claim"], pair["existing_claim"])})
    return {
        "sources": sources,
        "actions": actions,
        "claims": claims,
        "associations": associations,
        "contradictions": contradictions,
        "not_same": not_same,
        "part_of": part_of,
        "disputed": disputed,
    }


def _write(tx, data: dict, now: str) -> None:
    stamp = default_config().stamp()  # as written by an ingest under the default schema config
    rows(
        tx,
        ingest_cypher.MERGE_SOURCES,
        sources=data["sources"],
        now=now,
        config_version=stamp["config_version"],
        extraction_version=stamp["extraction_version"],
    )
    rows(
        tx,
        ingest_cypher.MERGE_CONCEPTS,
        actions=data["actions"],
        now=now,
        config_version=stamp["config_version"],
        fallback=stamp["fallback"],
        corroboration=stamp["corroboration"],
        awaiting=AWAITING_CORROBORATION,
    )
    rows(tx, ingest_cypher.MERGE_NOT_SAME, links=data["not_same"], now=now)
    rows(tx, eval_cypher.MERGE_PART_OF, links=data["part_of"], now=now)
    rows(tx, ingest_cypher.MERGE_CLAIMS, claims=data["claims"], now=now)
    rows(tx, ingest_cypher.MERGE_ASSOCIATIONS, pairs=data["associations"], now=now)
    rows(tx, ingest_cypher.MERGE_CONTRADICTIONS, pairs=data["contradictions"], backend="generated", now=now)
    rows(tx, ingest_cypher.RECOMPUTE_CLAIM_STATUS, ids=data["disputed"])


@dataclass
class Generated:
    concepts: int
    seed: int
    sources_planned: int = 0
    sources_written: int = 0
    seconds: dict[str, float] = field(default_factory=dict)
    graph: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {
            "concepts_asked": self.concepts,
            "seed": self.seed,
            "sources_planned": self.sources_planned,
            "sources_written": self.sources_written,
            "seconds": self.seconds,
            "graph": self.graph,
        }


def foreign_nodes(store: GraphStore, seed: int) -> int:
    """Nodes that are not this seed's generated graph (another graph, or another seed's)."""
    return store.query(eval_cypher.FOREIGN_NODES, prefix=f"gen{seed}-")[0]["n"]


def generate(
    store: GraphStore,
    concepts: int,
    dimension: int,
    seed: int = 0,
    config: GeneratorConfig = DEFAULT_CONFIG,
    replace: bool = False,
    log: Callable[[str], None] = lambda msg: None,
) -> Generated:
    """Write the generated graph of ``concepts`` concepts into ``store``: only the sources it
    lacks when it holds a smaller graph of the same seed. Any other content (another graph,
    another seed, a larger generated graph) is wiped first if ``replace``, else refused."""
    from graphwiki_assets.core.evals.instance import wipe
    from graphwiki_assets.core.ingest.pipeline import utc_now
    from graphwiki_assets.core.store.schema import ensure_schema

    if concepts < 1:
        raise ValueError(f"concepts must be at least 1, not {concepts}")
    out = Generated(concepts=concepts, seed=seed)
    started = time.monotonic()
    sources = list(plan(concepts, seed, config))
    out.sources_planned = len(sources)
    present = {r["id"] for r in store.query(eval_cypher.SOURCES_PRESENT, ids=[s.id for s in sources])}
    held = store.query(eval_cypher.GRAPH_SIZE)[0]["sources"]
    if held > len(present) or foreign_nodes(store, seed):
        if not replace:
            raise RuntimeError(
                "the graph holds other nodes than a smaller generated graph of this seed; "
                "generate into an empty or disposable instance"
            )
        log(f"wiping the graph first ({held} sources, not a prefix of this generated graph)")
        wipe(store)
        present = set()
    ensure_schema(store, dimension)
    todo = [s for s in sources if s.id not in present]
    out.seconds["plan"] = round(time.monotonic() - started, 2)
    vectors = Vectors(seed, dimension, config)
    started = time.monotonic()
    for start in range(0, len(todo), config.chunk):
        chunk = todo[start : start + config.chunk]
        store.write(_write, _payload(chunk, vectors), utc_now())
        out.sources_written += len(chunk)
        if (start // config.chunk) % 10 == 9:
            log(f"{out.sources_written}/{len(todo)} sources written ({time.monotonic() - started:.0f}s)")
    out.seconds["write"] = round(time.monotonic() - started, 2)
    started = time.monotonic()
    store.query(eval_cypher.AWAIT_INDEXES)
    out.seconds["indexes"] = round(time.monotonic() - started, 2)
    out.graph = store.query(eval_cypher.GRAPH_SIZE)[0]
    return out
