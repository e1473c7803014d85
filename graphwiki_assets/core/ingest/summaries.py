"""Stage: refresh the summaries of concepts that gained facts from more than one source.

A concept seen in one source keeps its extracted description (no call spent); once a
merge brings facts from another source, its summary is rewritten from its claims.
"""

from __future__ import annotations

from graphwiki_assets.core.ingest import cypher
from graphwiki_assets.core.llm.client import LLMClient
from graphwiki_assets.core.llm.requests import SummaryRequest
from graphwiki_assets.core.store.driver import GraphStore


def refresh_summaries(store: GraphStore, llm: LLMClient, now: str, limit: int = 1000, facts: int = 8) -> int:
    pending = store.query(cypher.DIRTY_SUMMARIES, limit=limit, facts=facts)
    updates = []
    for row in pending:
        response = llm.summarize(SummaryRequest(name=row["name"], type=row["type"] or "",
                                                current_summary=row["summary"], facts=row["facts"]))
        updates.append({"id": row["id"], "summary": response.summary.strip() or row["summary"]})
    for start in range(0, len(updates), 500):
        store.query(cypher.SET_SUMMARIES, rows=updates[start:start + 500], backend=llm.label, now=now)
    return len(updates)
