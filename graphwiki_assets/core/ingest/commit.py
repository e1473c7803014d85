"""Stage: write a whole batch in ONE transaction (a crash leaves no source half-written).

Every write MERGEs on deterministic ids, so re-running a batch converges to the same
graph. When a lease is given, the transaction first checks and locks it: a writer whose
lease expired meanwhile writes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from neo4j import ManagedTransaction

from graphwiki_assets.core.audit import Entry, append_in
from graphwiki_assets.core.config import Stamp, default_config
from graphwiki_assets.core.ingest import cypher
from graphwiki_assets.core.ingest.claims import ClaimLinks
from graphwiki_assets.core.ingest.lease import IngestLease
from graphwiki_assets.core.ingest.models import CommitReport, ResolutionPlan, SettlementRecord
from graphwiki_assets.core.ingest.vectors import Vectors
from graphwiki_assets.core.store.driver import GraphStore, rows
from graphwiki_assets.core.store.schema import AWAITING_CORROBORATION


def source_text(title: str, text: str) -> str:
    """What is embedded for a source (retrieval embeds questions against it)."""
    return f"{title}. {text}"


@dataclass(frozen=True)
class BatchRows:
    """The parameters of a batch's writes, one list per statement."""

    sources: list[dict]
    actions: list[dict]
    judgments: list[dict]
    targets: list[dict]
    not_same: list[dict]
    related: list[dict]
    claims: list[dict]
    associations: list[dict]
    contradictions: list[dict]
    settlements: list[dict]
    held: list[dict]
    supports: list[dict]


def commit_batch(
    store: GraphStore,
    plans: list[ResolutionPlan],
    links: list[ClaimLinks],
    vectors: Vectors,
    backend: str,
    now: str,
    lease: IngestLease | None = None,
    actor: str = "graphwiki ingest",
    stamp: Stamp | None = None,
) -> list[CommitReport]:
    """``stamp`` is the schema config's (``SchemaConfig.stamp()``), recorded on what is written."""
    stamp = stamp or default_config().stamp()
    batch = batch_rows(plans, links, vectors, backend, stamp)
    logged = _log_entry(plans, links, backend, now, actor, stamp)

    def work(tx: ManagedTransaction) -> list[dict]:
        if lease is not None:
            lease.check(tx)
        superseded = _write_batch(tx, batch, now, stamp, backend)
        _recompute_claims(tx, batch, now, stamp)
        append_in(tx, logged)  # commits with the batch, or not at all
        return superseded

    return _reports(plans, links, store.write(work))


def touched_concepts(plans: list[ResolutionPlan], links: list[ClaimLinks]) -> set[str]:
    """The concepts a batch writes (their type may move) and both ends of every edge between
    concepts it may add: the ones whose stored signatures it can make stale."""
    touched = {a.concept_id for p in plans for a in p.actions}
    touched |= {other for p in plans for a in p.actions for other in a.related_to}
    touched |= {end for link in links for pair in link.associations for end in (pair["a"], pair["b"])}
    return touched


def batch_rows(
    plans: list[ResolutionPlan], links: list[ClaimLinks], vectors: Vectors, backend: str, stamp: Stamp
) -> BatchRows:
    may_relate = _relation_rule(plans, stamp)
    path_of = {p.candidates.source_id: p.candidates.path for p in plans}

    def decided(s: SettlementRecord) -> dict:
        return {**s.model_dump(), "decided_by": f"ingest of {path_of[s.source_id]} ({backend})"}

    return BatchRows(
        sources=_source_rows(plans, vectors),
        actions=[a.model_dump() for p in plans for a in p.actions],
        judgments=[j.model_dump(exclude={"concept_id"}) for p in plans for j in p.judgments],
        targets=[{"id": j.id, "concept_id": j.concept_id} for p in plans for j in p.judgments],
        not_same=[
            {"from": a.concept_id, "to": other, "judgment_id": judgment}
            for p in plans
            for a in p.actions
            for other, judgment in a.not_same_as.items()
        ],
        related=[
            {"from": a.concept_id, "to": other, "judgment_id": a.not_same_as.get(other), "reason": reason}
            for p in plans
            for a in p.actions
            for other, reason in a.related_to.items()
            if may_relate(a.concept_id, other)
        ],
        claims=[c.model_dump() for link in links for c in link.claims],
        associations=[a for link in links for a in link.associations if may_relate(a["a"], a["b"])],
        contradictions=[c.model_dump() for link in links for c in link.contradictions],
        settlements=[decided(s) for link in links for s in link.settlements],
        held=[decided(s) for link in links for s in link.held],
        supports=[{"claim": new, "existing": old} for link in links for new, old in link.supports],
    )


def _source_rows(plans: list[ResolutionPlan], vectors: Vectors) -> list[dict]:
    return [
        {
            "id": p.candidates.source_id,
            "sha256": p.candidates.sha256,
            "path": p.candidates.path,
            "title": p.candidates.title,
            "text": p.candidates.text,
            "date": p.candidates.date,
            "date_source": p.candidates.date_source,
            "scope": p.candidates.scope,
            "scope_reason": p.candidates.scope_reason,
            "paths": list(dict.fromkeys([p.candidates.path, *p.candidates.also_paths])),
            "embedding": vectors[source_text(p.candidates.title, p.candidates.text)].tolist(),
        }
        for p in plans
    ]


def _relation_rule(plans: list[ResolutionPlan], stamp: Stamp) -> Callable[..., bool]:
    """Whether concepts may take part in a knowledge edge: only between types the schema
    config lets take part in it. A concept's type is its first specific one: the fallback's
    never overrides it (as on the node itself, where a generic type gives way to a specific one)."""
    generic = {"", "Concept", stamp.get("fallback") or "Concept"}
    type_of: dict[str, str] = {}
    for action in (a for p in plans for a in p.actions):
        if type_of.get(action.concept_id, "") in generic:
            type_of[action.concept_id] = action.type
    allowed = stamp.get("relations") or {}

    def may_relate(*ids: str) -> bool:
        return all("RELATED_TO" in allowed.get(type_of.get(i, ""), ["RELATED_TO"]) for i in ids)

    return may_relate


def _write_batch(tx: ManagedTransaction, batch: BatchRows, now: str, stamp: Stamp, backend: str) -> list[dict]:
    """Sources, concepts, judgments, claims and their edges; the superseded versions of the
    sources' paths come back."""
    rows(
        tx,
        cypher.MERGE_SOURCES,
        sources=batch.sources,
        now=now,
        config_version=stamp["config_version"],
        extraction_version=stamp["extraction_version"],
    )
    superseded = rows(
        tx, cypher.SUPERSEDE_OLD_VERSIONS, sources=[{"id": s["id"], "path": s["path"]} for s in batch.sources], now=now
    )
    rows(
        tx,
        cypher.MERGE_CONCEPTS,
        actions=batch.actions,
        now=now,
        config_version=stamp["config_version"],
        fallback=stamp["fallback"],
        corroboration=stamp["corroboration"],
        awaiting=AWAITING_CORROBORATION,
    )
    rows(tx, cypher.MERGE_JUDGMENTS, judgments=batch.judgments, now=now)
    rows(tx, cypher.SET_JUDGMENT_TARGETS, targets=batch.targets)
    rows(tx, cypher.MERGE_NOT_SAME, links=batch.not_same, now=now)
    rows(tx, cypher.MERGE_JUDGED_RELATED, links=batch.related, now=now)
    rows(tx, cypher.MERGE_CLAIMS, claims=batch.claims, now=now)
    rows(tx, cypher.MERGE_ASSOCIATIONS, pairs=batch.associations, now=now)
    rows(tx, cypher.MERGE_CONTRADICTIONS, pairs=batch.contradictions, backend=backend, now=now)
    rows(tx, cypher.SETTLE, settlements=batch.settlements, now=now)
    rows(tx, cypher.HOLD_DISPUTES, held=batch.held, now=now)
    rows(tx, cypher.MERGE_CORROBORATES, pairs=batch.supports, now=now, backend=backend)
    return superseded


def _recompute_claims(tx: ManagedTransaction, batch: BatchRows, now: str, stamp: Stamp) -> None:
    """Corroboration of the claims written or supported, and the status of every claim whose
    disputes changed."""
    rows(
        tx,
        cypher.RECOMPUTE_CLAIM_CORROBORATION,
        now=now,
        corroboration=stamp["corroboration"],
        awaiting=AWAITING_CORROBORATION,
        ids=sorted({c["id"] for c in batch.claims} | {p["existing"] for p in batch.supports}),
    )
    touched = {c["new_claim"] for c in batch.contradictions} | {c["existing_claim"] for c in batch.contradictions}
    touched |= {s["winner"] for s in batch.settlements} | {s["loser"] for s in batch.settlements}
    if touched:
        # the opponents of a settled loser may now have no open dispute left
        neighbours = {r["id"] for r in rows(tx, cypher.CONTRADICTS_NEIGHBOURS, ids=sorted(touched))}
        rows(tx, cypher.RECOMPUTE_CLAIM_STATUS, ids=sorted(touched | neighbours))


def _reports(plans: list[ResolutionPlan], links: list[ClaimLinks], superseded: list[dict]) -> list[CommitReport]:
    reports = []
    for plan, link in zip(plans, links):
        cand = plan.candidates
        old = [r for r in superseded if r["source_id"] == cand.source_id]
        created = {a.concept_id for a in plan.actions if a.created}
        merged = {a.concept_id for a in plan.actions if not a.created} - created
        reports.append(
            CommitReport(
                source_id=cand.source_id,
                path=cand.path,
                status="new",
                concepts_created=len(created),
                concepts_merged=len(merged),
                claims=len(link.claims),
                contradictions=len(link.contradictions),
                settled=len(link.settlements),
                restatement_pairs=link.restated,
                judgments=len(plan.judgments),
                dropped=cand.extraction.dropped,
                removed_injections=len(cand.removed_injections),
                typed=cand.typed,
                scope=cand.scope,
                scope_reason=cand.scope_reason,
                superseded_sources=[r["id"] for r in old],
                flagged_for_review=sum(r["flagged"] for r in old),
            )
        )
    return reports


def _log_entry(
    plans: list[ResolutionPlan], links: list[ClaimLinks], backend: str, now: str, actor: str, stamp: Stamp
) -> Entry:
    created = sorted({a.concept_id for p in plans for a in p.actions if a.created})
    merged = sorted({a.concept_id for p in plans for a in p.actions if not a.created} - set(created))
    return Entry(
        action="ingest",
        actor=actor,
        backend=backend,
        at=now,
        summary=(
            f"{len(plans)} source(s): {len(created)} concept(s) created, {len(merged)} merged, "
            f"{sum(len(link.claims) for link in links)} claim(s), "
            f"{sum(len(link.contradictions) for link in links)} contradiction(s)"
        ),
        inputs={
            "sources": [{"path": p.candidates.path, "sha256": p.candidates.sha256} for p in plans],
            "config": stamp["config_version"],
        },
        outputs={
            "sources": [p.candidates.source_id for p in plans],
            "concepts_created": created,
            "concepts_merged": merged,
            "claims": [c.id for link in links for c in link.claims],
            "contradictions": [[c.new_claim, c.existing_claim] for link in links for c in link.contradictions],
            "kept_disputed": [
                {"winner": h.winner, "loser": h.loser, "reason": h.reason} for link in links for h in link.held
            ],
        },
    )
