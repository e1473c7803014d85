"""Contradiction eval, pair mode: labelled claim pairs through ingest's own conflict stage.

Every pair becomes two one-claim sources of one batch, side ``a`` first, both about a
concept of the pair's own (its name and aliases from the file). ``find_conflicts`` then
compares ``b`` with ``a`` the way ingest compares a new claim with an earlier source's
claim: the same screen (a shared concept, a cosine above the floor, the per-claim cap),
the same batched conflict calls, the same reading of the verdicts. A concept per pair
keeps the pairs apart, so no claim is compared with another pair's claim and the calls
hold exactly the pairs that pass the screen.

Labels: ``contradicts``; ``consistent`` (the two agree: one supports or is compatible
with the other); ``unrelated_aspect`` (different aspects of one entity). The catch rate
is the recall on ``contradicts``; a false alarm is a CONTRADICTS on any other pair.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import pandas as pd

from graphwiki_assets.core.embeddings import Embedder
from graphwiki_assets.core.evals import metrics
from graphwiki_assets.core.evals.datasets import jsonl_records, require_label
from graphwiki_assets.core.evals.results.contradictions import ContradictionsResult
from graphwiki_assets.core.ingest.claims import ClaimLinks
from graphwiki_assets.core.ingest.conflicts import ConflictConfig, find_conflicts
from graphwiki_assets.core.ingest.models import Candidates, ClaimRecord, ConceptAction, ResolutionPlan
from graphwiki_assets.core.ingest.restatements import RestatementConfig
from graphwiki_assets.core.ingest.timing import StageTimes
from graphwiki_assets.core.ingest.vectors import Vectors
from graphwiki_assets.core.llm.calls import (
    ConflictRequest,
    ConflictResponse,
    ExtractedClaim,
    ExtractedConcept,
    ExtractResponse,
)
from graphwiki_assets.core.sources import sha256_text
from graphwiki_assets.core.store.driver import GraphStore

LABELS = ("contradicts", "consistent", "unrelated_aspect")
OUTCOMES = ("contradicts", "supports", "unrelated", "screened")  # "screened": never sent to the LLM


@dataclass(frozen=True)
class LabelledPair:
    index: int
    id: str
    domain: str
    kind: str
    label: str
    concept: str
    aliases: tuple[str, ...]
    a: str  # the earlier claim
    b: str  # the new claim
    split: str


def load_pairs(path: Path | str, limit: int | None = None) -> list[LabelledPair]:
    pairs: list[LabelledPair] = []
    for where, row in jsonl_records(path):
        require_label(where, row, LABELS)
        missing = [k for k in ("concept", "a", "b") if not str(row.get(k, "")).strip()]
        if missing:
            raise ValueError(f"{where}: {', '.join(missing)} must be non-empty")
        pairs.append(
            LabelledPair(
                len(pairs),
                str(row.get("id") or f"pair-{len(pairs) + 1}"),
                row.get("domain", ""),
                row.get("kind", ""),
                row["label"],
                row["concept"],
                tuple(row.get("aliases", [])),
                row["a"],
                row["b"],
                row.get("split", ""),
            )
        )
    return pairs[:limit] if limit else pairs


class VerdictLog:
    """The configured client, passed through, keeping every conflict verdict it returns
    (the stage itself only reports contradictions and settlements)."""

    def __init__(self, llm) -> None:
        self._llm = llm
        self._lock = threading.Lock()
        self.verdicts: dict[
            tuple[str, str, str], tuple[str, str]
        ] = {}  # (concept, new, existing) -> (relation, reason)

    def __getattr__(self, name: str):
        return getattr(self._llm, name)

    def conflicts(self, req: ConflictRequest) -> ConflictResponse:
        resp = self._llm.conflicts(req)
        asked = {p.pair_id: p for p in req.pairs}
        with self._lock:
            for v in resp.verdicts:
                p = asked[v.pair_id]
                self.verdicts[(p.concept, p.new_claim, p.existing_claim)] = (v.relation, v.reason)
        return resp


def _source(pair: LabelledPair, side: str, concept_id: str, vectors: Vectors) -> tuple[ResolutionPlan, ClaimLinks]:
    """One side of a pair as ingest's stages hand it on: a resolved mention and one claim."""
    text = getattr(pair, side)
    source_id = f"contradiction-eval-{pair.index}-{side}"
    extraction = ExtractResponse(
        concepts=[ExtractedConcept(name=pair.concept, aliases=list(pair.aliases))],
        claims=[ExtractedClaim(text=text, about=[pair.concept])],
    )
    candidates = Candidates(
        source_id=source_id,
        path=f"contradictions/{pair.id}/{side}",
        title=pair.concept,
        text=text,
        sha256=sha256_text(text),
        extraction=extraction,
    )
    action = ConceptAction(
        source_id=source_id,
        mention_index=0,
        concept_id=concept_id,
        created=side == "a",
        name=pair.concept,
        type="",
        description="",
        aliases=list(pair.aliases),
        keys=[],
        embedding=None,
    )
    claim = ClaimRecord(
        id=f"{source_id}-claim", source_id=source_id, text=text, embedding=vectors[text].tolist(), about=[concept_id]
    )
    return (
        ResolutionPlan(candidates=candidates, actions=[action], judgments=[]),
        ClaimLinks(source_id=source_id, claims=[claim], associations=[]),
    )


# what ``outcomes`` says of each pair, in this order
ROW_COLUMNS = ["id", "domain", "kind", "label", "split", "concept", "a", "b", "cosine", "outcome", "flagged", "reason"]


def outcomes(
    store: GraphStore, llm, pairs: list[LabelledPair], embedder: Embedder, config: ConflictConfig = ConflictConfig()
) -> tuple[list[dict], dict]:
    """Each pair's outcome from one run of the conflict stage over all of them, and the LLM
    usage it took."""
    # The labelled pairs share one batch only to save calls: each is a case of its own, so
    # no claim is paired with a restatement from another case.
    config = replace(config, restatements=RestatementConfig(per_claim=0))
    vectors = Vectors(embedder, [text for p in pairs for text in (p.a, p.b)])
    plans, links = [], []
    for p in pairs:  # a, then b: b is the new claim, a the earlier one
        for side in ("a", "b"):
            plan, link = _source(p, side, f"contradiction-eval-concept-{p.index}", vectors)
            plans.append(plan)
            links.append(link)
    logged = VerdictLog(llm)
    before = llm.usage.snapshot()
    find_conflicts(store, logged, plans, links, config, StageTimes())
    used = llm.usage.snapshot() - before
    rows = []
    for n, p in enumerate(pairs):
        new, old = links[2 * n + 1], links[2 * n]
        flagged = any(c.existing_claim == old.claims[0].id for c in new.contradictions)
        relation, reason = logged.verdicts.get((p.concept, p.b, p.a), ("screened", "below the screen's cosine floor"))
        if not new.compared:
            relation, reason = "screened", "below the screen's cosine floor"
        rows.append(
            {
                "id": p.id,
                "domain": p.domain,
                "kind": p.kind,
                "label": p.label,
                "split": p.split,
                "concept": p.concept,
                "a": p.a,
                "b": p.b,
                "cosine": round(float(vectors[p.a] @ vectors[p.b]), 4),
                "outcome": relation,
                "flagged": flagged,
                "reason": reason,
            }
        )
    usage = used.as_dict()
    return rows, {
        "llm_calls": usage["calls"] + usage["cache_hits"],
        "cache_hits": usage["cache_hits"],
        "prompt_tokens": usage["prompt_tokens"],
        "completion_tokens": usage["completion_tokens"],
    }


def _rate(flags: list[bool]) -> float | None:
    """A share, or None for a class with no pairs (a kind with no contradictions has no catch rate)."""
    return metrics.share(flags) if flags else None


def pair_rows(rows: Sequence[dict] | pd.DataFrame) -> pd.DataFrame:
    """The outcome of each pair, a row each (``ROW_COLUMNS``)."""
    return rows if isinstance(rows, pd.DataFrame) else pd.DataFrame(list(rows), columns=ROW_COLUMNS)


def rates(pairs: Sequence[dict] | pd.DataFrame) -> dict:
    """Catch rate, false alarms by class, and the precision of a CONTRADICTS edge (``pairs``:
    one a row, with its label and whether it was flagged)."""
    rows = pair_rows(pairs)
    by = lambda label: rows.loc[rows["label"] == label, "flagged"].tolist()  # noqa: E731
    others = rows.loc[rows["label"] != "contradicts", "flagged"].tolist()
    flagged = rows[rows["flagged"].astype(bool)]
    return {
        "n": len(rows),
        "catch_rate": _rate(by("contradicts")),
        "false_alarm": {
            "consistent": _rate(by("consistent")),
            "unrelated_aspect": _rate(by("unrelated_aspect")),
            "all": _rate(others),
        },
        "precision": _rate((flagged["label"] == "contradicts").tolist()),
        "caught": sum(by("contradicts")),
        "contradicts": len(by("contradicts")),
        "false_alarms": sum(others),
        "not_contradicts": len(others),
    }


def confusion(rows: pd.DataFrame) -> dict:
    """Label -> how the stage ended each pair (screened, or the LLM's relation), every label
    and outcome present, none seen counted 0."""
    counts = pd.crosstab(rows["label"], rows["outcome"]).reindex(index=list(LABELS), columns=list(OUTCOMES))
    return {label: {o: int(n) for o, n in row.items()} for label, row in counts.fillna(0).iterrows()}


def run_pairs(
    store: GraphStore,
    embedder: Embedder,
    llm,
    pairs: list[LabelledPair],
    name: str = "",
    config: ConflictConfig = ConflictConfig(),
    log: Callable[[str], None] = lambda msg: None,
) -> ContradictionsResult:
    if store.query("MATCH (c:Claim) RETURN count(c) AS n")[0]["n"]:
        raise RuntimeError("the contradiction eval needs an eval graph without claims (wipe it first)")
    started = time.monotonic()
    log(f"conflict stage over {len(pairs)} labelled pairs ({llm.label})")
    rows, usage = outcomes(store, llm, pairs, embedder, config)
    frame = pair_rows(rows)
    of = lambda label: frame[frame["label"] == label]  # noqa: E731
    result = {
        "name": name,
        "backend": llm.label,
        "embedding_model": embedder.name,
        "counts": {label: sum(p.label == label for p in pairs) for label in LABELS},
        "config": {
            "similarity_floor": config.similarity_floor,
            "per_claim": config.per_claim,
            "pairs_per_call": llm.call_sizes.limit("conflicts", config.pairs_per_call),
        },
        **rates(frame),
        "by_split": metrics.per_split(frame, rates),
        "by_kind": {kind: rates(group) for kind, group in frame.groupby("kind")},  # sorted by kind
        "outcomes": confusion(frame),
        "screened": {label: metrics.share(of(label)["outcome"].eq("screened").tolist()) for label in LABELS},
        "cosine_by_label": {label: metrics.distribution(of(label)["cosine"]) for label in LABELS},
        **usage,
        "errors": [r for r in rows if r["flagged"] != (r["label"] == "contradicts")],
        "pairs": rows,
    }
    result["seconds"] = round(time.monotonic() - started, 2)
    return ContradictionsResult.of(result)
