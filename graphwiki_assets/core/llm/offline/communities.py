"""Offline community reports: extractive, from the members and facts given.

The title names the community's most connected members (the caller lists them first); the
summary is their summaries' first sentences, then the facts that tie members together, cut
at a sentence within the length an LLM report is asked for. Nothing is written that the
request does not state, so the report is labelled extractive where it is stored.
"""

from __future__ import annotations

from graphwiki_assets.core.llm.calls import (
    CommunityInput,
    CommunityReport,
    CommunityReportRequest,
    CommunityReportResponse,
)
from graphwiki_assets.core.text.sentences import distinct_sentences, first_sentence, join_within

MAX_REPORT_CHARS = 600
TITLE_MEMBERS = 3


def title(community: CommunityInput) -> str:
    names = [m.name.strip() for m in community.members if m.name.strip()][:TITLE_MEMBERS]
    if not names:
        return "Unnamed community"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def summary(community: CommunityInput) -> str:
    firsts = [first_sentence(m.summary) for m in community.members if m.summary.strip()]
    return (
        join_within(distinct_sentences(firsts + community.facts), MAX_REPORT_CHARS)
        or f"{len(community.members)} concepts with no facts recorded."
    )


def community_reports(req: CommunityReportRequest) -> CommunityReportResponse:
    return CommunityReportResponse(
        reports=[
            CommunityReport(community_id=c.community_id, title=title(c), summary=summary(c)) for c in req.communities
        ]
    )
