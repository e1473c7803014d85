"""The plan of a generated graph: every source, its concepts, claims and verdicts, decided in
one sequential pass from a seed (no writes here; ``generator`` writes them). The shape it
follows and why are in ``generator``'s docstring.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TypedDict

from graphwiki_assets.core.store.keys import keys_for

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
