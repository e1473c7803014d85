"""Contradiction eval, end to end: known contradictions injected into a corpus as new sources.

The corpus is ingested into an empty eval graph through the real pipeline, then the
injected sources are ingested after it, as a user adding files would. Each injection
names the corpus document it targets. A contradicting injection is caught when a claim
derived from it has a CONTRADICTS edge to a claim derived from its target and both
claims are ``disputed``; a consistent one (a control that agrees with its target) raises
a false alarm when any claim derived from it has a CONTRADICTS edge at all.

Injections JSONL: ``{"id", "label": "contradicts"|"consistent", "target": corpus id,
"title", "text", "split"}`` (``original``, the statement it is about, is for readers).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from graphwiki_assets.core.embeddings import Embedder
from graphwiki_assets.core.evals import metrics
from graphwiki_assets.core.evals.contradictions import VerdictLog
from graphwiki_assets.core.evals.datasets import jsonl_records, require_label
from graphwiki_assets.core.evals.multihop import ingest_corpus
from graphwiki_assets.core.evals.results.contradictions import EndToEnd
from graphwiki_assets.core.ingest.pipeline import Ingestor, ingest_documents, records_as_documents
from graphwiki_assets.core.store.driver import GraphStore

LABELS = ("contradicts", "consistent")
CORPUS_NAMESPACE = "corpus"
INJECTED_NAMESPACE = "injected"

# Every claim of the injected sources, with each CONTRADICTS edge it has and where the
# other claim comes from. Only provenance and CONTRADICTS are read, the edges that
# define the result.
INJECTED_EDGES = """
UNWIND $paths AS path
MATCH (s:Source) WHERE path IN coalesce(s.paths, [s.path])
MATCH (c:Claim)-[:DERIVED_FROM]->(s)
OPTIONAL MATCH (c)-[:CONTRADICTS]-(o:Claim)
OPTIONAL MATCH (o)-[:DERIVED_FROM]->(t:Source)
RETURN path, c.id AS claim, c.text AS text, c.status AS status, o.id AS other, o.text AS other_text,
       o.status AS other_status, collect(DISTINCT coalesce(t.paths, [t.path])) AS other_paths
"""

COUNT_CONTRADICTIONS = "MATCH (:Claim)-[r:CONTRADICTS]->(:Claim) RETURN count(r) AS n"

CLAIM_TEXTS = """
UNWIND $paths AS path
MATCH (s:Source) WHERE path IN coalesce(s.paths, [s.path])
MATCH (c:Claim)-[:DERIVED_FROM]->(s)
RETURN path, collect(c.text) AS texts
"""


def load_injections(path: Path | str, corpus_ids: set[str]) -> list[dict]:
    rows = []
    for where, row in jsonl_records(path):
        require_label(where, row, LABELS)
        if row.get("target") not in corpus_ids:
            raise ValueError(f"{where}: target {row.get('target')!r} is not a document id of the corpus")
        if not str(row.get("text", "")).strip() or not row.get("id"):
            raise ValueError(f"{where}: id and text must be non-empty")
        rows.append(row)
    return rows


def _compared(claims: set[str], target_claims: set[str], verdicts: dict) -> list[dict]:
    """The conflict verdicts between this source's claims and its target's claims."""
    return [
        {"claim": new, "target_claim": old, "relation": relation, "reason": reason}
        for (_, new, old), (relation, reason) in verdicts.items()
        if new in claims and old in target_claims
    ]


def _outcome(injection: dict, edges: list[dict], target_claims: set[str], verdicts: dict) -> dict:
    """Caught, or why not: never compared with a claim of its target (extraction or
    resolution put them apart, or the screen dropped the pair), or compared and judged
    not contradicting."""
    target = f"{CORPUS_NAMESPACE}/{injection['target']}"
    claims = {e["claim"] for e in edges}
    compared = _compared({e["text"] for e in edges}, target_claims, verdicts)
    contradicting = [e for e in edges if e["other"]]
    on_target = [e for e in contradicting if any(target in paths for paths in e["other_paths"])]
    both_disputed = [e for e in on_target if e["status"] == "disputed" and e["other_status"] == "disputed"]
    return {
        "id": injection["id"],
        "label": injection["label"],
        "target": injection["target"],
        "split": injection.get("split", ""),
        "text": injection["text"],
        "claims": len(claims),
        "contradicts_edges": len(contradicting),
        "edges_to_target": len(on_target),
        "caught": bool(both_disputed),
        "flagged": bool(contradicting),
        "compared_with_target": compared,
        "why": (
            "caught"
            if both_disputed
            else "compared, not judged a contradiction"
            if compared
            else "never compared with a claim of its target"
        ),
        "pairs": [
            {"claim": e["text"], "status": e["status"], "other": e["other_text"], "other_status": e["other_status"]}
            for e in contradicting
        ],
    }


def summarise(rows: list[dict]) -> dict:
    contra = [r for r in rows if r["label"] == "contradicts"]
    controls = [r for r in rows if r["label"] == "consistent"]
    return {
        "injected": len(contra),
        "found": sum(r["caught"] for r in contra),
        "catch_rate": metrics.share(r["caught"] for r in contra) if contra else None,
        "found_any_status": sum(r["edges_to_target"] > 0 for r in contra),
        "compared_with_target": sum(bool(r["compared_with_target"]) for r in contra),
        "without_claims": sum(r["claims"] == 0 for r in rows),
        "controls": len(controls),
        "false_alarms": sum(r["flagged"] for r in controls),
        "false_alarm_rate": metrics.share(r["flagged"] for r in controls) if controls else None,
    }


def run_injection(
    store: GraphStore,
    embedder: Embedder,
    llm,
    docs: list[dict],
    injections: list[dict],
    log: Callable[[str], None] = lambda msg: None,
) -> EndToEnd:
    started = time.monotonic()
    log(f"ingesting the corpus ({len(docs)} documents, {llm.label})")
    corpus = ingest_corpus(store, embedder, llm, docs, CORPUS_NAMESPACE)
    before = store.query(COUNT_CONTRADICTIONS)[0]["n"]
    log(f"ingesting {len(injections)} injected sources")
    logged = VerdictLog(llm)  # the stage reports only contradictions; this keeps every verdict
    report = ingest_documents(
        Ingestor(store=store, embedder=embedder, llm=logged), records_as_documents(injections, INJECTED_NAMESPACE)
    ).as_dict()
    paths = [f"{INJECTED_NAMESPACE}/{i['id']}" for i in injections]
    edges: dict[str, list[dict]] = {p: [] for p in paths}
    for row in store.query(INJECTED_EDGES, paths=paths):
        edges[row["path"]].append(row)
    targets = sorted({f"{CORPUS_NAMESPACE}/{i['target']}" for i in injections})
    target_claims = {r["path"]: set(r["texts"]) for r in store.query(CLAIM_TEXTS, paths=targets)}
    rows = [
        _outcome(i, edges[p], target_claims.get(f"{CORPUS_NAMESPACE}/{i['target']}", set()), logged.verdicts)
        for i, p in zip(injections, paths)
    ]
    result = {
        **summarise(rows),
        "by_split": {
            s: summarise([r for r in rows if r["split"] == s])
            for s in metrics.SPLITS
            if any(r["split"] == s for r in rows)
        },
        "corpus_contradictions": before,
        "contradictions_after": store.query(COUNT_CONTRADICTIONS)[0]["n"],
        "ingest": {
            "corpus": corpus,
            "injected": {
                k: report[k] for k in ("sources", "claims", "contradictions", "settled", "llm_calls", "prompt_tokens")
            },
            "conflict_calls": report["llm_by_task"].get("conflicts", {}).get("calls", 0),
            "conflict_prompt_tokens": report["llm_by_task"].get("conflicts", {}).get("prompt_tokens", 0),
        },
        "injections": rows,
    }
    result["seconds"] = round(time.monotonic() - started, 2)
    return EndToEnd.of(result)
