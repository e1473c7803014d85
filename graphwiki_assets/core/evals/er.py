"""Entity-resolution eval: cosine alone, stage 1 alone, and the two-stage result.

Positive class = ``same``. Two modes over the same labelled pairs:

- pair mode: cosine of the two sides; stage 1 passes a pair iff cosine >= floor.
- population mode: all mentions (both sides of every pair) are Concept nodes in the eval
  graph and each ``a`` is resolved the way ingest does it, by kNN over the
  ``concept_embedding`` index: the pair passes stage 1 iff ``b`` is among a's top_k
  neighbours with a cosine >= floor, using ingest's own query and rule.

Survivors are judged by the configured LLM through ingest's own stage-2 call, in batches, and
the judge's verdict is weighed with the pair's other signals by ingest's merge decision
(``core/ingest/merge_decision.py``); a pair is predicted ``same`` iff it survived stage 1 and
the decision merges it. ``judge_only`` scores the judge's verdicts alone. (Ingest's exact
name/alias pass, which merges before stage 1, is not modelled: the pairs are about stage 1
and stage 2.) Stage1Config is the ingest's own,
unchanged: this measures the system as shipped.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from graphwiki_assets.core.embeddings import Embedder
from graphwiki_assets.core.evals import metrics
from graphwiki_assets.core.evals.datasets import jsonl_records, require_label
from graphwiki_assets.core.evals.results.er import ErResult
from graphwiki_assets.core.ingest import cypher
from graphwiki_assets.core.ingest.judging import judge_pairs, view
from graphwiki_assets.core.ingest.mention_vectors import TEXT_FORM, mention_vectors
from graphwiki_assets.core.ingest.merge_decision import model_for, weighed
from graphwiki_assets.core.ingest.resolution import Stage1Config
from graphwiki_assets.core.llm.calls import EntityView, Verdict
from graphwiki_assets.core.store.driver import GraphStore
from graphwiki_assets.core.store.schema import ensure_schema, in_play

LABELS = ("same", "related", "unrelated")
FIXED_THRESHOLD = 0.55  # the seed's hand-picked stage-1 cut, reported for comparison
KNN_DEPTHS = (1, 3, 5, 10, 20)


@dataclass(frozen=True)
class Pair:
    index: int
    domain: str
    label: str
    a: dict
    b: dict
    split: str = ""  # "tune" (rules may be looked at against it) | "report" (only reported)

    @property
    def same(self) -> bool:
        return self.label == "same"


def load_pairs(path: Path | str, limit: int | None = None) -> list[Pair]:
    pairs: list[Pair] = []
    for where, row in jsonl_records(path):
        require_label(where, row, LABELS)
        pairs.append(Pair(len(pairs), row.get("domain", ""), row["label"], row["a"], row["b"], row.get("split", "")))
    return pairs[:limit] if limit else pairs


def views(pair: Pair, config: Stage1Config) -> tuple[EntityView, EntityView]:
    """Side a as a mention, side b as an existing node, in the views ingest's stage 2 sends.
    The pairs carry no type; "" is the generic type the judge treats as compatible."""
    a, b = pair.a, pair.b
    return (
        view(a["name"], "", [], a.get("context", ""), config.judge),
        view(b["name"], "", [], b.get("context", ""), config.judge),
    )


def said_same(pairs: list[Pair], passed: dict[int, bool], verdicts: dict[int, Verdict]) -> dict[int, bool]:
    """Each pair predicted the same entity: it passed stage 1 and its verdict is SAME."""
    return {p.index: passed[p.index] and p.index in verdicts and verdicts[p.index].same for p in pairs}


def side_vectors(pairs: list[Pair], embedder: Embedder) -> dict[str, np.ndarray]:
    """Each side as ingest's stage 1 embeds a mention (its name and its context, mixed), by
    ``er-<pair>-<a|b>``."""
    ids = [f"er-{p.index}-{side}" for p in pairs for side in ("a", "b")]
    sides = [getattr(p, side) for p in pairs for side in ("a", "b")]
    encoded = mention_vectors(embedder.encode, [(s["name"], s.get("context", "")) for s in sides])
    return dict(zip(ids, encoded))


def cosines(pairs: list[Pair], vectors: dict[str, np.ndarray]) -> dict[int, float]:
    return {p.index: float(vectors[f"er-{p.index}-a"] @ vectors[f"er-{p.index}-b"]) for p in pairs}


def judge(llm, pairs: list[Pair], config: Stage1Config) -> tuple[dict[int, Verdict], int]:
    """Verdicts by pair index from ingest's own stage-2 call (same views, clipping, batching),
    and the judge requests it took (a cache hit counts: it is a call made once)."""
    if not pairs:
        return {}, 0
    before = llm.usage.snapshot()
    verdicts = judge_pairs(llm, [views(p, config) for p in pairs], config.judge)
    used = llm.usage.snapshot() - before
    return {p.index: v for p, v in zip(pairs, verdicts)}, used.calls + used.cache_hits


def pair_frame(
    pairs: list[Pair], scores: dict[int, float], passed: dict[int, bool], predicted: dict[int, bool]
) -> pd.DataFrame:
    """One row per pair (indexed by the pair's index): its label and half, the cosine, and
    what stage 1 and the two stages together decided."""
    index = [p.index for p in pairs]
    return pd.DataFrame(
        {
            "domain": [p.domain for p in pairs],
            "label": [p.label for p in pairs],
            "split": [p.split for p in pairs],
            "same": [p.same for p in pairs],
            "a": [p.a["name"] for p in pairs],
            "b": [p.b["name"] for p in pairs],
            "score": [scores[i] for i in index],
            "passed": [passed[i] for i in index],
            "predicted": [predicted[i] for i in index],
        },
        index=pd.Index(index, name="pair"),
    )


def _same_passed(frame: pd.DataFrame) -> float:
    return metrics.share(frame.loc[frame["same"], "passed"].tolist())


def _judged(frame: pd.DataFrame) -> dict:
    return metrics.scored(frame["predicted"].tolist(), frame["same"].tolist())


def cosine_only(frame: pd.DataFrame, floor: float) -> dict:
    scores, actual = frame["score"].tolist(), frame["same"].tolist()
    best = metrics.best_threshold(scores, actual)
    fixed = metrics.at_threshold(scores, actual, FIXED_THRESHOLD)
    return {
        "by_class": {label: metrics.distribution(frame.loc[frame["label"] == label, "score"]) for label in LABELS},
        "best_f1": best["f1"],
        "best_threshold": best["threshold"],
        "best_precision": best["precision"],
        "best_recall": best["recall"],
        "f1_at_0_55": fixed["f1"],
        "precision_at_0_55": fixed["precision"],
        "recall_at_0_55": fixed["recall"],
        "f1_at_floor": metrics.at_threshold(scores, actual, floor)["f1"],
        "all_same_f1": metrics.prf(sum(actual), len(actual) - sum(actual), 0)["f1"],  # the trivial baseline
    }


def stage1_summary(pairs: list[Pair], passed: dict[int, bool]) -> dict:
    by = lambda label: [passed[p.index] for p in pairs if p.label == label]  # noqa: E731
    return {
        "same_passed": metrics.share(by("same")),
        "related_passed": metrics.share(by("related")),
        "unrelated_screened": metrics.share(not x for x in by("unrelated")),
        "survivors": sum(passed.values()),
    }


def two_stage(pairs: list[Pair], passed: dict[int, bool], llm, config: Stage1Config, scores: dict[int, float]) -> dict:
    """Judge the survivors; score the combined decision and list every wrong one with its cause."""
    survivors = [p for p in pairs if passed[p.index]]
    before = llm.usage.snapshot()
    verdicts, calls = judge(llm, survivors, config)
    usage = (llm.usage.snapshot() - before).as_dict()
    judged_same = said_same(pairs, passed, verdicts)
    # ingest's own last word on the verdicts (core/ingest/merge_decision.py), called as resolution calls it
    seen = [p for p in survivors if p.index in verdicts]
    weighed_verdicts = weighed(
        llm.label, [views(p, config) for p in seen], [scores[p.index] for p in seen], [verdicts[p.index] for p in seen]
    )
    verdicts = {**verdicts, **{p.index: v for p, v in zip(seen, weighed_verdicts)}}
    predicted = said_same(pairs, passed, verdicts)
    result = metrics.scored([predicted[p.index] for p in pairs], [p.same for p in pairs])
    result["judge_only"] = metrics.scored([judged_same[p.index] for p in pairs], [p.same for p in pairs])
    model = model_for(llm.label)
    result["decision_threshold"] = model.threshold if model is not None else None
    errors = []
    for p in pairs:
        if predicted[p.index] != p.same:
            verdict = verdicts.get(p.index)
            errors.append(
                {
                    "pair": p.index,
                    "domain": p.domain,
                    "label": p.label,
                    "a": p.a["name"],
                    "b": p.b["name"],
                    "score": round(scores[p.index], 4),
                    "predicted": "same" if predicted[p.index] else "not_same",
                    "cause": "judge" if passed[p.index] else "stage1",
                    "reason": verdict.reason
                    if verdict
                    else ("screened out by stage 1" if not passed[p.index] else "no verdict returned"),
                }
            )
    causes = [f"{e['cause']}:{'missed_same' if e['label'] == 'same' else 'false_same'}" for e in errors]
    # Three-way: what the judge said, per label, for the pairs it saw.
    said: dict[str, dict[str, int]] = {label: {} for label in LABELS}
    for p in survivors:
        if p.index in verdicts:
            said[p.label][verdicts[p.index].verdict] = said[p.label].get(verdicts[p.index].verdict, 0) + 1
    result.update(
        {
            "llm_calls": calls,
            "judged_pairs": len(survivors),
            "verdicts_by_label": said,
            "errors_by_cause": {c: causes.count(c) for c in sorted(set(causes))},
            "prompt_tokens": int(usage.get("prompt_tokens", 0)),
            "llm_usage": usage,
        }
    )
    return {"result": result, "errors": errors, "predicted": predicted, "verdicts": verdicts}


def _half(group: pd.DataFrame) -> dict:
    best = metrics.best_threshold(group["score"].tolist(), group["same"].tolist())
    judged = _judged(group)
    return {
        "n": len(group),
        "cosine_only_best_f1": best["f1"],
        "stage1_same_passed": _same_passed(group),
        "precision": judged["precision"],
        "recall": judged["recall"],
        "f1": judged["f1"],
    }


def by_split(frame: pd.DataFrame) -> dict:
    """The tune and report halves side by side: only the report half is evidence."""
    return metrics.per_split(frame, _half)


def by_domain(frame: pd.DataFrame) -> dict:
    return {
        domain: {"n": len(group), "same_passed": _same_passed(group), "f1": _judged(group)["f1"]}
        for domain, group in frame.groupby("domain")  # sorted by domain
    }


def _decision(predicted: pd.Series) -> pd.Series:
    return predicted.map({True: "same", False: "not_same"})


def pairs_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Each pair as the eval reports it (cosine to 4 places, Python's rounding)."""
    table = frame[["domain", "label", "a", "b"]].assign(
        cosine=frame["score"].map(lambda x: round(x, 4)),
        stage1=frame["passed"],
        predicted=_decision(frame["predicted"]),
    )
    return table.reset_index()


# -- population mode -------------------------------------------------------------------

_INSERT = """
UNWIND $rows AS r
CREATE (c:Concept {id: r.id, name: r.name, type: '', aliases: [], keys: [], summary: r.context,
                   embedding: r.embedding, status: 'current', needs_review: false, source_count: 0})
"""

_NEIGHBOURS = f"""
UNWIND $rows AS r
CALL db.index.vector.queryNodes('concept_embedding', $k, r.embedding) YIELD node, score
WHERE node.id <> r.id AND {in_play("node")}
RETURN r.id AS id, node.id AS neighbour, score
ORDER BY id, score DESC
"""


def population_neighbours(
    store: GraphStore, pairs: list[Pair], vectors: dict[str, list[float]], dimension: int
) -> dict[str, list[tuple[str, float]]]:
    """Every mention as a Concept in an empty graph; each one's ranked neighbours via the index."""
    if store.query("MATCH (n) RETURN count(n) AS n")[0]["n"]:
        raise RuntimeError("population mode needs an empty eval graph (wipe it first)")
    ensure_schema(store, dimension)
    rows = [
        {
            "id": f"er-{p.index}-{side}",
            "name": getattr(p, side)["name"],
            "context": getattr(p, side).get("context", ""),
            "embedding": vectors[f"er-{p.index}-{side}"],
        }
        for p in pairs
        for side in ("a", "b")
    ]
    store.query(_INSERT, rows=rows)
    store.query("CALL db.awaitIndexes(300)")
    ranked: dict[str, list[tuple[str, float]]] = {r["id"]: [] for r in rows}
    # Everyone is asked for (nearly) everyone, so the rank of b is known at any depth.
    for row in store.query(_NEIGHBOURS, rows=rows, k=len(rows)):
        ranked[row["id"]].append((row["neighbour"], float(row["score"])))
    return ranked


def index_candidates(
    store: GraphStore, pairs: list[Pair], vectors: dict[str, list[float]], config: Stage1Config
) -> dict[str, list[tuple[str, float]]]:
    """Each mention's stage-1 candidates exactly as ingest gets them (its own vector query and
    floor rule), minus the mention itself: hence one more."""
    ids = [f"er-{p.index}-{side}" for p in pairs for side in ("a", "b")]
    rows = store.query(
        cypher.VECTOR_CANDIDATES,
        k=config.index_k + 1,
        mentions=[{"index": i, "embedding": vectors[m]} for i, m in enumerate(ids)],
    )
    found: dict[str, list[tuple[str, float]]] = {m: [] for m in ids}
    for row in sorted(rows, key=lambda r: -r["score"]):
        own = ids[row["index"]]
        if row["id"] != own and len(found[own]) < config.top_k and row["score"] >= config.floor:
            found[own].append((row["id"], float(row["score"])))
    return found


def population(
    store: GraphStore, pairs: list[Pair], vectors: dict[str, list[float]], dimension: int, llm, config: Stage1Config
) -> dict:
    ranked = population_neighbours(store, pairs, vectors, dimension)
    candidates = index_candidates(store, pairs, vectors, config)
    rank_of: dict[int, int | None] = {}  # where side b ranks among side a's neighbours
    score_of: dict[int, float] = {}
    passed: dict[int, bool] = {}
    for p in pairs:
        a, b = f"er-{p.index}-a", f"er-{p.index}-b"
        neighbours = [n for n, _ in ranked[a]]
        rank_of[p.index] = neighbours.index(b) + 1 if b in neighbours else None
        score_of[p.index] = 2 * dict(ranked[a]).get(b, 0.5) - 1  # back to cosine, as in pair mode
        passed[p.index] = b in dict(candidates[a])
    stage1 = stage1_summary(pairs, passed)
    # What a real ingest would send to the judge: every candidate of every mention.
    stage1["candidates_all_mentions"] = sum(len(c) for c in candidates.values())
    same_ranks = [rank_of[p.index] for p in pairs if p.same]
    stage1["same_in_top"] = {
        str(d): metrics.share(rank is not None and rank <= d for rank in same_ranks) for d in KNN_DEPTHS
    }
    stage1["same_rank"] = metrics.distribution(rank or len(ranked) for rank in same_ranks)
    stage1["floor_cosine"] = config.floor  # ingest converts the index's (1 + cos) / 2 back to cosine
    judged = two_stage(pairs, passed, llm, config, score_of)
    return {
        "stage1": stage1,
        "two_stage": judged["result"],
        "errors": judged["errors"],
        "by_domain": by_domain(pair_frame(pairs, score_of, passed, judged["predicted"])),
        # object dtype: a rank is an int or None (not a float with NaN)
        "rows": pd.DataFrame(
            {
                "knn_rank": pd.Series(rank_of, dtype=object),
                "population_stage1": pd.Series(passed),
                "population_predicted": _decision(pd.Series(judged["predicted"])),
            }
        ),
    }


# -- the whole eval ---------------------------------------------------------------------


def run_er(
    pairs: list[Pair],
    embedder: Embedder,
    llm,
    store: GraphStore | None = None,
    config: Stage1Config = Stage1Config(),
    name: str = "",
    log: Callable[[str], None] = lambda msg: None,
) -> ErResult:
    """Pair mode always; population mode when an (empty) eval store is given."""
    started = time.monotonic()
    vectors = side_vectors(pairs, embedder)
    scores = cosines(pairs, vectors)
    passed = {p.index: scores[p.index] >= config.floor for p in pairs}
    log(f"pair mode: {len(pairs)} pairs, {sum(passed.values())} pass stage 1")
    judged = two_stage(pairs, passed, llm, config, scores)
    frame = pair_frame(pairs, scores, passed, judged["predicted"])
    result = {
        "name": name,
        "n": len(pairs),
        "counts": {label: sum(p.label == label for p in pairs) for label in LABELS},
        "embedding_model": embedder.name,
        "text_form": TEXT_FORM,
        "judge": llm.label,
        "stage1_config": {
            "top_k": config.top_k,
            "floor": config.floor,
            "judge_pairs_per_call": llm.call_sizes.limit("judge", config.judge.pairs_per_call),
        },
        "cosine_only": cosine_only(frame, config.floor),
        "stage1": stage1_summary(pairs, passed),
        "two_stage": judged["result"],
        "errors": judged["errors"],
        "by_domain": by_domain(frame),
        "by_split": by_split(frame),
    }
    table = pairs_table(frame)
    if store is not None:
        log("population mode: kNN over the concept_embedding index")
        pop = population(store, pairs, {k: v.tolist() for k, v in vectors.items()}, embedder.dimension, llm, config)
        table = table.join(pop.pop("rows"), on="pair")
        result["population"] = pop
    result["pairs"] = table.to_dict("records")
    result["seconds"] = round(time.monotonic() - started, 2)
    return ErResult.of(result)
