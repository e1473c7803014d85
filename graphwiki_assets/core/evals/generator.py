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
schema and indexes, one transaction per ``chunk`` sources. The plan is one sequential
pass from a seed, so the graph of N concepts is the beginning of the graph of 10N:
growing an existing generated graph writes only the sources it lacks.
"""

from __future__ import annotations

import hashlib
import math
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TypedDict

import numpy as np

from graphwiki_assets.core.config import default_config
from graphwiki_assets.core.evals import cypher as eval_cypher
from graphwiki_assets.core.ingest import cypher as ingest_cypher
from graphwiki_assets.core.ingest.taxonomy import TypeMapper
from graphwiki_assets.core.store.driver import GraphStore, Vector, rows
from graphwiki_assets.core.store.keys import keys_for
from graphwiki_assets.core.store.schema import AWAITING_CORROBORATION

# The catch-all type most offline-extracted concepts get, then a long tail (Zipf weights).
TYPES = (
    "Concept",
    "Person",
    "City",
    "River",
    "Organization",
    "Country",
    "Film",
    "Album",
    "Song",
    "University",
    "Church",
    "County",
    "District",
    "Journal",
    "Company",
    "Band",
    "Mountain",
    "Lake",
    "Station",
    "Team",
    "Battle",
    "Book",
    "Language",
    "Party",
    "State",
    "Island",
    "Award",
    "Event",
    "Ship",
    "Building",
    "Route",
    "Court",
    "Society",
    "Institute",
    "Museum",
    "Festival",
    "Species",
    "Disease",
    "Programme",
    "Region",
)
SUFFIXED = {"River", "Lake", "Mountain", "University", "Church", "County", "District", "Station", "Island"}
SYLLABLES = (
    "ka",
    "ren",
    "tol",
    "vi",
    "mor",
    "da",
    "lin",
    "bre",
    "qua",
    "sel",
    "tor",
    "nu",
    "vel",
    "ga",
    "rho",
    "mi",
    "fen",
    "dar",
    "lo",
    "pri",
    "zan",
    "te",
    "wil",
    "cor",
    "ba",
    "xen",
    "hal",
    "jo",
    "ul",
    "vra",
    "em",
    "tha",
)
VERBS = (
    "is associated with",
    "was founded near",
    "is part of the history of",
    "was named after",
    "shares a border with",
    "was studied at",
    "received an award from",
    "was built by",
    "is the subject of",
    "was recorded with",
)
PLACE_TYPES = ("City", "Country", "County", "District", "State", "Region", "Island")
TEXT_CHARS = 500  # a MuSiQue passage averages about 505 characters


@dataclass(frozen=True)
class GeneratorConfig:
    new_per_source: float = 5.6  # concepts a source introduces
    known_per_source: float = 1.7  # known concepts a source mentions again (preferentially)
    claims_per_source: float = 4.0
    about_weights: tuple[float, ...] = (0.25, 0.35, 0.2, 0.1, 0.04, 0.03, 0.02, 0.01)  # claims about 1..8 concepts
    type_share: float = 0.65  # share of concepts typed 'Concept'
    not_same_per_concept: float = 2.0  # stage-2 NOT_SAME verdicts per new concept
    contradiction_rate: float = 0.02  # claims that contradict an earlier claim on one of their concepts
    part_of_rate: float = 0.05  # new concepts PART_OF an earlier place
    hubs: int = 5  # the first concepts, each named by ``hub_share`` of all later sources
    hub_share: float = 0.02
    topics: int = 256  # embedding clusters
    noise: float = 1.0  # within a topic two vectors have cosine about 1 / (1 + noise^2)
    chunk: int = 200  # sources per write transaction


class PlannedConcept(TypedDict):
    """A concept a source introduces (``index``: its place in the order concepts appear)."""

    index: int
    id: str
    name: str
    type: str
    aliases: list[str]
    keys: list[str]
    topic: int
    description: str


@dataclass
class SourcePlan:
    index: int
    id: str
    title: str
    text: str
    topic: int
    concepts: list[PlannedConcept]  # the new ones
    mentions: list[str]  # ids of every concept the source names (new and known)
    claims: list[dict]  # {id, text, about}
    contradictions: list[tuple[str, str]]  # (new claim, earlier claim)
    not_same: list[tuple[str, str]]
    part_of: list[tuple[str, str]]


def concept_name(index: int, type_name: str) -> str:
    """A unique pronounceable name: the index, scrambled, spelled in syllables."""
    n = len(SYLLABLES)
    code = (index * 2_654_435_761 + 97) % n**5
    digits = [(code // n**i) % n for i in range(5)]
    first = "".join(SYLLABLES[d] for d in digits[:2]).capitalize()
    second = "".join(SYLLABLES[d] for d in digits[2:]).capitalize()
    name = f"{first} {second}"
    return f"{name} {type_name}" if type_name in SUFFIXED else name


class Planner:
    """The sequential pass that decides every source from the seed (no writes here)."""

    def __init__(self, seed: int, config: GeneratorConfig):
        self.seed, self.config = seed, config
        self.rng = random.Random(seed)
        self.prefix = f"gen{seed}"
        weights = [1 / (rank + 1) for rank in range(len(TYPES) - 1)]
        tail = sum(weights)
        self.type_weights = [config.type_share] + [(1 - config.type_share) * w / tail for w in weights]
        self.concepts = 0
        self.names: list[str] = []
        self.pool: list[int] = []  # one entry per mention: picking uniformly is picking by mentions
        self.places: list[int] = []
        self.claims_of: dict[int, list[str]] = {}
        self.claim_count = 0

    def cid(self, index: int) -> str:
        return f"{self.prefix}-c{index}"

    def _poisson(self, mean: float) -> int:
        # Knuth's method: means here are small
        limit, k, p = math.exp(-mean), 0, 1.0
        while True:
            p *= self.rng.random()
            if p <= limit:
                return k
            k += 1

    def source(self, index: int) -> SourcePlan:
        rng, cfg = self.rng, self.config
        topic = rng.randrange(cfg.topics)
        places_before = len(self.places)
        new: list[PlannedConcept] = []
        for _ in range(max(1, self._poisson(cfg.new_per_source))):
            i = self.concepts
            self.concepts += 1
            type_name = rng.choices(TYPES, self.type_weights)[0]
            name = concept_name(i, type_name)
            self.names.append(name)
            aliases = ["".join(w[0] for w in name.split()).upper()] if rng.random() < 0.05 else []
            new.append(
                {
                    "index": i,
                    "id": self.cid(i),
                    "name": name,
                    "type": type_name,
                    "aliases": aliases,
                    "keys": keys_for(name, aliases),
                    "topic": topic,
                    "description": f"{name} is a {type_name.lower()} of topic {topic}.",
                }
            )
            if type_name in PLACE_TYPES:
                self.places.append(i)
        known = self._known(len(new))
        everyone = [c["index"] for c in new] + known
        claims, contradictions = self._claims(index, everyone)
        not_same = [
            (c["id"], self.cid(rng.randrange(c["index"])))
            for c in new
            if c["index"] > 0
            for _ in range(self._poisson(cfg.not_same_per_concept))
        ]
        part_of = [
            (c["id"], self.cid(self.places[rng.randrange(places_before)]))
            for c in new
            if places_before and rng.random() < cfg.part_of_rate
        ]
        self.pool.extend(everyone)
        title = new[0]["name"]
        text = " ".join([new[0]["description"], *(c["text"] for c in claims)])
        filler = " ".join(f"{c['name']} is mentioned in the account of {title}." for c in new[1:])
        text = (text + " " + filler)[: max(TEXT_CHARS, len(text))].strip()
        return SourcePlan(
            index=index,
            id=f"{self.prefix}-s{index}",
            title=title,
            text=text,
            topic=topic,
            concepts=new,
            mentions=[self.cid(i) for i in dict.fromkeys(everyone)],
            claims=claims,
            contradictions=contradictions,
            not_same=not_same,
            part_of=part_of,
        )

    def _known(self, new: int) -> list[int]:
        rng, cfg = self.rng, self.config
        if not self.pool:
            return []
        known = [rng.choice(self.pool) for _ in range(self._poisson(cfg.known_per_source))]
        known += [h for h in range(min(cfg.hubs, self.concepts - new)) if rng.random() < cfg.hub_share]
        return list(dict.fromkeys(known))

    def _claims(self, index: int, everyone: list[int]) -> tuple[list[dict], list[tuple[str, str]]]:
        rng, cfg = self.rng, self.config
        claims, contradictions = [], []
        for n in range(max(1, self._poisson(cfg.claims_per_source))):
            size = min(len(everyone), rng.choices(range(1, len(cfg.about_weights) + 1), cfg.about_weights)[0])
            subject = everyone[0] if n == 0 else rng.choice(everyone)
            about = list(dict.fromkeys([subject, *rng.sample(everyone, size)]))[:size]
            claim_id = f"{self.prefix}-k{self.claim_count}"
            self.claim_count += 1
            said = [self.names[i] for i in about]
            earlier = [i for i in about if self.claims_of.get(i)]
            if earlier and rng.random() < cfg.contradiction_rate:
                target = rng.choice(earlier)
                contradictions.append((claim_id, rng.choice(self.claims_of[target])))
                text = f"{said[0]} is not, as others say, {rng.choice(VERBS)} {', '.join(said[1:]) or 'it'}."
            else:
                text = (
                    f"{said[0]} {rng.choice(VERBS)} {', '.join(said[1:]) or 'its topic'} (source {index}, claim {n})."
                )
            for i in about:
                self.claims_of.setdefault(i, []).append(claim_id)
            claims.append({"id": claim_id, "text": text, "about": [self.cid(i) for i in about]})
        return claims, contradictions


def plan(concepts: int, seed: int = 0, config: GeneratorConfig = GeneratorConfig()) -> Iterator[SourcePlan]:
    """Sources in order until the graph has at least ``concepts`` concepts."""
    planner = Planner(seed, config)
    index = 0
    while planner.concepts < concepts:
        yield planner.source(index)
        index += 1


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
    config: GeneratorConfig = GeneratorConfig(),
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
