"""Stage: write one source's whole plan in ONE transaction (a crash leaves nothing half-written).

Every write MERGEs on deterministic ids, so re-running a source converges to the same graph.
"""

from __future__ import annotations

from neo4j import ManagedTransaction

from graphwiki_assets.core.embeddings import Embedder
from graphwiki_assets.core.ingest import cypher
from graphwiki_assets.core.ingest.claims import ClaimLinks
from graphwiki_assets.core.ingest.models import CommitReport, ResolutionPlan
from graphwiki_assets.core.store.driver import GraphStore, rows


def commit_source(store: GraphStore, embedder: Embedder, plan: ResolutionPlan, links: ClaimLinks,
                  backend: str, now: str) -> CommitReport:
    cand = plan.candidates
    source = {"id": cand.source_id, "sha256": cand.sha256, "path": cand.path, "title": cand.title,
              "text": cand.text, "embedding": embedder.encode_one(f"{cand.title}. {cand.text}")}

    def work(tx: ManagedTransaction) -> CommitReport:
        rows(tx, cypher.MERGE_SOURCE, source=source, now=now)
        superseded = rows(tx, cypher.SUPERSEDE_OLD_VERSIONS, path=cand.path, id=cand.source_id, now=now)
        actions = [a.model_dump() for a in plan.actions]
        rows(tx, cypher.MERGE_CONCEPTS, source_id=cand.source_id, actions=actions, now=now)
        judgments = [j.model_dump(exclude={"concept_id"}) for j in plan.judgments]
        rows(tx, cypher.MERGE_JUDGMENTS, judgments=judgments, source_id=cand.source_id, now=now)
        rows(tx, cypher.SET_JUDGMENT_TARGETS,
             targets=[{"id": j.id, "concept_id": j.concept_id} for j in plan.judgments])
        not_same = [{"from": a.concept_id, "to": other, "judgment_id": None}
                    for a in plan.actions for other in a.not_same_as]
        rows(tx, cypher.MERGE_NOT_SAME, links=not_same, now=now)
        rows(tx, cypher.MERGE_CLAIMS, source_id=cand.source_id, claims=[c.model_dump() for c in links.claims], now=now)
        rows(tx, cypher.MERGE_ASSOCIATIONS, pairs=links.associations, now=now)
        rows(tx, cypher.MERGE_CONTRADICTIONS, pairs=[c.model_dump() for c in links.contradictions],
             backend=backend, source_id=cand.source_id, now=now)
        rows(tx, cypher.SETTLE, settlements=[s.model_dump() for s in links.settlements],
             decided_by=f"ingest of {cand.path} ({backend})", now=now)
        touched = {c.new_claim for c in links.contradictions} | {c.existing_claim for c in links.contradictions}
        touched |= {s.winner for s in links.settlements} | {s.loser for s in links.settlements}
        if touched:
            # the opponents of a settled loser may now have no open dispute left
            rows(tx, cypher.RECOMPUTE_CLAIM_STATUS, ids=sorted(touched | _neighbours(tx, sorted(touched))))
        created = {a.concept_id for a in plan.actions if a.created}
        merged = {a.concept_id for a in plan.actions if not a.created} - created
        return CommitReport(
            source_id=cand.source_id, path=cand.path, status="new",
            concepts_created=len(created), concepts_merged=len(merged), claims=len(links.claims),
            contradictions=len(links.contradictions), settled=len(links.settlements),
            judgments=len(plan.judgments), dropped=cand.extraction.dropped,
            removed_injections=len(cand.removed_injections),
            superseded_sources=[r["id"] for r in superseded],
            flagged_for_review=sum(r["flagged"] for r in superseded),
        )

    return store.write(work)


def _neighbours(tx: ManagedTransaction, ids: list[str]) -> set[str]:
    return {r["id"] for r in rows(tx, cypher.CONTRADICTS_NEIGHBOURS, ids=ids)}
