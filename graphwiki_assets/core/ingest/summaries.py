"""Stage: refresh the summaries of concepts that gained facts from more than one source.

A concept seen in one source keeps its extracted description (no call spent); once a
merge brings facts from another source, its summary is rewritten from its claims.
Several concepts share one call; the calls run side by side. A call that fails leaves
its concepts marked for a later refresh and costs nothing already written. A refresh runs
under the ingest lease: resolution reads summaries, so a refresh never lands in the middle
of another writer's batch.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from graphwiki_assets.core.ingest import cypher
from graphwiki_assets.core.ingest.lease import IngestLease, LeaseConfig
from graphwiki_assets.core.llm.calls import SummaryBatchRequest, SummaryRequest
from graphwiki_assets.core.llm.client import LLMClient
from graphwiki_assets.core.llm.errors import LLMError
from graphwiki_assets.core.llm.halving import halving
from graphwiki_assets.core.llm.pool import call_all
from graphwiki_assets.core.store.driver import GraphStore


@dataclass(frozen=True)
class SummaryConfig:
    concepts_per_call: int = 16
    facts: int = 8  # the most recent facts of a concept
    fact_chars: int = 300
    page: int = 2000  # concepts read from the graph at a time


@dataclass
class SummaryRun:
    refreshed: int = 0
    failed_calls: int = 0
    errors: list[str] = field(default_factory=list)


def refresh_summaries(
    store: GraphStore,
    llm: LLMClient,
    now: str,
    config: SummaryConfig = SummaryConfig(),
    lease: LeaseConfig | None = LeaseConfig(),
    purpose: str = "summaries",
) -> SummaryRun:
    if lease is None:
        return _refresh(store, llm, now, config)
    with IngestLease(store, lease, purpose=purpose).held():
        return _refresh(store, llm, now, config)


def _refresh(store: GraphStore, llm: LLMClient, now: str, config: SummaryConfig) -> SummaryRun:
    run = SummaryRun()
    after = ""
    while True:
        pending = store.query(cypher.DIRTY_SUMMARIES, after=after, limit=config.page, facts=config.facts)
        if not pending:
            return run
        after = pending[-1]["id"]
        requests = [
            SummaryRequest(
                concept_id=row["id"],
                name=row["name"],
                type=row["type"] or "",
                current_summary=row["summary"],
                definition=row["definition"],
                facts=_new_facts(row, config),
            )
            for row in pending
        ]
        size = llm.call_sizes.limit("summarize", config.concepts_per_call)
        calls = [list(range(i, min(i + size, len(requests)))) for i in range(0, len(requests), size)]
        updates = []
        for result in call_all(halving(_asker(llm, requests), llm.call_sizes, "summarize"), calls, llm.concurrency):
            if isinstance(result, LLMError):
                run.failed_calls += 1
                run.errors.append(str(result))
                continue
            updates += [{"id": concept_id, "summary": summary} for concept_id, summary in result.items()]
        for start in range(0, len(updates), 500):
            store.query(cypher.SET_SUMMARIES, rows=updates[start : start + 500], backend=llm.label, now=now)
        run.refreshed += len(updates)


def _asker(llm: LLMClient, requests: list[SummaryRequest]) -> Callable[[list[int]], dict[str, str]]:
    """One call's summaries by concept id, for the requests at the given indexes."""

    def ask(indexes: list[int]) -> dict[str, str]:
        resp = llm.summarize_batch(SummaryBatchRequest(concepts=[requests[i] for i in indexes]))
        return {s.concept_id: s.summary for s in resp.summaries if s.summary.strip()}

    return ask


def _new_facts(row: dict, config: SummaryConfig) -> list[str]:
    """The facts to give with a summary: not one the summary already is word for word (a
    concept's first summary is often its first claim), which would be paid for twice."""
    summary = " ".join(row["summary"].split())
    return [f[: config.fact_chars] for f in row["facts"] if " ".join(f.split()) != summary]
