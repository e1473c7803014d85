"""Holding extraction to the taxonomy: each extracted type becomes one of the config's types.

A type that is a taxonomy name (in any case or number) is kept; one listed in a type's
``includes`` maps to that type, and so does a phrase whose last word is listed ("American
rock band" -> band -> Organization); failing those, a word of the type's definition or an
everyday word for its kind (``config.kinds``: "utility" -> Product, "maintainer" -> Person).
Anything else goes to the fallback type, or is dropped when the taxonomy has none. The extractor's own word is kept beside the mapped
type (``extracted_type``): entity resolution compares those, which are finer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from graphwiki_assets.core.config.kinds import KindIndex
from graphwiki_assets.core.config.model import Taxonomy
from graphwiki_assets.core.llm.calls import ExtractedConcept, ExtractResponse
from graphwiki_assets.core.text.type_names import type_key

KEPT, MAPPED, FALLBACK, DROPPED = "kept", "mapped", "fallback", "dropped"


@dataclass
class TypeCounts:
    """How many extracted concepts kept their type, were mapped, went to the fallback or were dropped."""

    counts: Counter[str] = field(default_factory=Counter)
    off_taxonomy: Counter[str] = field(default_factory=Counter)  # extracted types that were not a type

    def as_dict(self) -> dict:
        return {
            **{k: self.counts.get(k, 0) for k in (KEPT, MAPPED, FALLBACK, DROPPED)},
            "off_taxonomy_types": dict(self.off_taxonomy.most_common(20)),
        }


def taxonomy_totals(typed: Iterable[dict]) -> dict:
    """The ``TypeCounts.as_dict()`` of several sources, summed."""
    total = TypeCounts()
    for one in typed:
        total.counts.update({k: one.get(k, 0) for k in (KEPT, MAPPED, FALLBACK, DROPPED)})
        total.off_taxonomy.update(one.get("off_taxonomy_types", {}))
    return total.as_dict()


class TypeMapper:
    def __init__(self, taxonomy: Taxonomy):
        self.names = {type_key(t.name): t.name for t in taxonomy.types}
        self.included = {type_key(word): t.name for t in taxonomy.types for word in t.includes}
        self.fallback = taxonomy.fallback
        self.kinds = KindIndex(taxonomy)

    def map(self, extracted: str) -> tuple[str | None, str]:
        key = type_key(extracted)
        if key in self.names:
            return self.names[key], KEPT
        if key in self.included:
            return self.included[key], MAPPED
        words = extracted.split()
        if len(words) > 1 and (head := type_key(words[-1])) in self.names | self.included:
            return (self.names | self.included)[head], MAPPED
        if (by_kind := self.kinds.type_for(extracted)) is not None:
            return by_kind, MAPPED
        return (self.fallback, FALLBACK) if self.fallback else (None, DROPPED)

    def apply(self, extraction: ExtractResponse) -> tuple[ExtractResponse, TypeCounts]:
        """The extraction with every concept typed by the taxonomy; a dropped concept's claims
        keep only their other concepts, and a claim about nothing else is dropped too."""
        counts = TypeCounts()
        concepts: list[ExtractedConcept] = []
        dropped: set[str] = set()
        for concept in extraction.concepts:
            mapped, how = self.map(concept.type)
            counts.counts[how] += 1
            if how in (FALLBACK, DROPPED):
                counts.off_taxonomy[concept.type or "(none)"] += 1
            if mapped is None:
                dropped.add(concept.name)
                continue
            concepts.append(concept.model_copy(update={"type": mapped, "extracted_type": concept.type}))
        claims = []
        for claim in extraction.claims:
            about = [name for name in claim.about if name not in dropped]
            if about:
                claims.append(claim.model_copy(update={"about": about}))
        removed = len(dropped) + len(extraction.claims) - len(claims)
        return extraction.model_copy(
            update={"concepts": concepts, "claims": claims, "dropped": extraction.dropped + removed}
        ), counts
