"""A community's report (title and summary), written by the LLM from its members and facts.

A report rests on what it was written from: the facts it was given and the sources of those
facts and of its members' summaries are kept on the community, so a global answer that
cites the community cites its sources through it. The offline rules write an extractive
report (their own sentences are the members' and facts' sentences); it is stored as such.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from graphwiki_assets.core.communities import cypher
from graphwiki_assets.core.communities.detect import CommunityConfig
from graphwiki_assets.core.llm.calls import CommunityInput, CommunityMember, CommunityReportRequest
from graphwiki_assets.core.llm.errors import LLMError
from graphwiki_assets.core.llm.pool import call_all
from graphwiki_assets.core.llm.prompts import COMMUNITY_PROMPT_VERSION
from graphwiki_assets.core.store.driver import GraphStore

MEMBER_SUMMARY_CHARS = 300  # a member's summary is context, not the report: its start is enough


@dataclass
class ReportInputs:
    request: CommunityInput
    fact_ids: list[str]
    source_ids: list[str]


@dataclass
class ReportRun:
    written: int = 0
    failed: list[str] = field(default_factory=list)  # community ids left without a report
    errors: list[str] = field(default_factory=list)


def inputs(store: GraphStore, ids: list[str], config: CommunityConfig) -> dict[str, ReportInputs]:
    out: dict[str, ReportInputs] = {}
    for row in store.query(cypher.CONTEXT, ids=ids, max_members=config.max_members, max_facts=config.max_facts):
        members = [
            CommunityMember(
                name=m["name"] or m["id"], type=m["type"], summary=(m["summary"] or "")[:MEMBER_SUMMARY_CHARS]
            )
            for m in row["members"]
        ]
        facts = [f for f in row["facts"] if (f["text"] or "").strip()]
        sources = [s for f in facts for s in f["sources"]] + [s for m in row["members"] for s in m["sources"]]
        out[row["id"]] = ReportInputs(
            request=CommunityInput(community_id=row["id"], members=members, facts=[f["text"] for f in facts]),
            fact_ids=[f["id"] for f in facts],
            source_ids=list(dict.fromkeys(sources)),
        )
    return out


def write_reports(store: GraphStore, embedder, llm, ids: list[str], config: CommunityConfig) -> ReportRun:
    """Report the communities ``ids`` in calls of ``per_call``, side by side; the reports
    that came back are written even when some calls failed (a later run asks again)."""
    run = ReportRun()
    if not ids:
        return run
    context = inputs(store, ids, config)
    ordered = [context[i] for i in ids if i in context]
    calls = [ordered[i : i + config.per_call] for i in range(0, len(ordered), config.per_call)]
    kind = "extractive" if llm.offline else "llm"
    results = call_all(
        lambda batch: llm.community_reports(CommunityReportRequest(communities=[b.request for b in batch])),
        calls,
        llm.concurrency,
    )
    for batch, result in zip(calls, results):
        if isinstance(result, LLMError):
            run.failed += [b.request.community_id for b in batch]
            run.errors.append(f"{type(result).__name__}: {result}")
            continue
        by_id = {r.community_id: r for r in result.reports}
        done = [(b, by_id[b.request.community_id]) for b in batch if b.request.community_id in by_id]
        run.failed += [b.request.community_id for b in batch if b.request.community_id not in by_id]
        if not done:
            continue
        vectors = embedder.encode([f"{report.title}. {report.summary}" for _, report in done])
        store.query(
            cypher.WRITE_REPORTS,
            reports=[
                {
                    "id": report.community_id,
                    "title": report.title,
                    "summary": report.summary,
                    "kind": kind,
                    "backend": result.backend,
                    "prompt_version": COMMUNITY_PROMPT_VERSION,
                    "fact_ids": b.fact_ids,
                    "source_ids": b.source_ids,
                    "embedding": vector.tolist(),
                }
                for (b, report), vector in zip(done, vectors)
            ],
        )
        run.written += len(done)
    return run
