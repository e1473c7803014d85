"""Scope: whether a source is about what the knowledge base is for (the schema config's purpose).

A source outside the focus still becomes a :Source with its text, embedding and provenance,
so it can be found and quoted, but it is not sent to extraction and promotes no concept or
claim; the decision and its reason are recorded on the source. It is decided from the
source's embedding against the focus and exclusion topics, before any LLM call is spent:

- no focus and no exclusions: everything is in scope;
- closer to an excluded topic than to any focus topic (and at least ``floor`` close): out;
- focus topics given, none at least ``floor`` close: out;
- otherwise in.

``floor`` (thresholds.scope_floor) sits above the cosine sentence encoders give unrelated
text (around 0 to 0.2), so "near a topic" means related, not merely least unrelated.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from graphwiki_assets.core.config.model import Purpose
from graphwiki_assets.core.embeddings import Encoder
from graphwiki_assets.core.ingest.commit import source_text
from graphwiki_assets.core.ingest.models import Candidates
from graphwiki_assets.core.llm.calls import ExtractResponse
from graphwiki_assets.core.sources import SourceDocument

IN, OUT = "in", "out"


@dataclass(frozen=True)
class ScopeDecision:
    scope: str  # in | out
    reason: str


class Scope:
    def __init__(self, purpose: Purpose, embedder: Encoder, floor: float):
        self.focus, self.exclude, self.floor = list(purpose.focus), list(purpose.exclude), floor
        self.embedder = embedder
        self._focus = embedder.encode(self.focus) if self.focus else None
        self._exclude = embedder.encode(self.exclude) if self.exclude else None

    @property
    def active(self) -> bool:
        return bool(self.focus or self.exclude)

    def decide(self, vector: np.ndarray) -> ScopeDecision:
        if not self.active:
            return ScopeDecision(IN, "no focus set: every source is in scope")
        focus = _closest(self._focus, self.focus, vector)
        excluded = _closest(self._exclude, self.exclude, vector)
        if excluded and excluded[1] >= self.floor and (not focus or excluded[1] > focus[1]):
            return ScopeDecision(OUT, f"closest to the excluded topic '{excluded[0]}' ({excluded[1]:.2f})")
        if focus and focus[1] < self.floor:
            return ScopeDecision(
                OUT, f"no focus topic within {self.floor:.2f} (closest: '{focus[0]}' at {focus[1]:.2f})"
            )
        if focus:
            return ScopeDecision(IN, f"near the focus topic '{focus[0]}' ({focus[1]:.2f})")
        return ScopeDecision(IN, "near no excluded topic")

    def split(self, docs: list[SourceDocument]) -> tuple[list[SourceDocument], list[Candidates], dict[str, str]]:
        """The documents to extract, the out-of-scope ones as candidates that promote nothing,
        and why each document was kept (by source id)."""
        if not self.active or not docs:
            return docs, [], {}
        vectors = self.embedder.encode([source_text(d.title, d.text) for d in docs])
        keep, out, why = [], [], {}
        for doc, vector in zip(docs, vectors):
            decision = self.decide(vector)
            if decision.scope == IN:
                keep.append(doc)
                why[doc.source_id] = decision.reason
            else:
                out.append(
                    Candidates(
                        source_id=doc.source_id,
                        path=doc.path,
                        title=doc.title,
                        text=doc.text,
                        sha256=doc.sha256,
                        date=doc.date,
                        date_source=doc.date_source,
                        extraction=ExtractResponse(concepts=[], claims=[]),
                        scope=OUT,
                        scope_reason=decision.reason,
                    )
                )
        return keep, out, why


def _closest(vectors: np.ndarray | None, topics: list[str], vector: np.ndarray) -> tuple[str, float] | None:
    if vectors is None:
        return None
    sims = vectors @ vector
    best = int(np.argmax(sims))
    return topics[best], float(sims[best])
