"""Holding a response to its request, for every backend alike.

Extraction: only documents that were asked about, one answer each (documents left
unanswered are asked once more, then listed as missing); per document, names cleaned,
empty names and names that are no entity (``not_entities``: ids, paths, code...) dropped, duplicates merged case-insensitively, claims whose ``about`` names
no extracted concept dropped. Summaries: only concepts asked about; empty or missing
ones asked once more, then listed as missing; community reports likewise. Judgments, conflict
and support verdicts: only ids that were asked about, one per id; ids left unanswered
are asked once more, then defaulted to the safe answer (NOT_SAME, unrelated, not
supported). Answers: only
citations of the request's facts; a sentence citing nothing is dropped.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from graphwiki_assets.core.llm.calls import (
    NO_VERDICT,
    AnswerRequest,
    AnswerResponse,
    CommunityReport,
    CommunityReportRequest,
    CommunityReportResponse,
    ConceptSummary,
    ConflictVerdict,
    DocumentExtraction,
    ExtractBatchRequest,
    ExtractBatchResponse,
    ExtractedClaim,
    ExtractedConcept,
    ExtractResponse,
    RouteResponse,
    SummaryBatchRequest,
    SummaryBatchResponse,
    SupportVerdict,
    Verdict,
)
from graphwiki_assets.core.llm.errors import LLMError
from graphwiki_assets.core.llm.not_entities import junk_reason

_GENERIC_TYPE = {"", "concept"}


def _clean(text: str) -> str:
    return re.sub(r"\s+", " ", text or "").strip()


def clean_extract(resp: ExtractResponse) -> ExtractResponse:
    dropped = resp.dropped
    by_key: dict[str, ExtractedConcept] = {}
    for c in resp.concepts:
        name = _clean(c.name)
        if not name or junk_reason(name, c.type):  # not an entity (an id, a path, code...): counted
            dropped += 1
            continue
        key = name.casefold()
        if key in by_key:
            kept = by_key[key]
            if kept.type.lower() in _GENERIC_TYPE and c.type.lower() not in _GENERIC_TYPE:
                kept.type, kept.type_guessed = _clean(c.type), c.type_guessed
            kept.description = kept.description or _clean(c.description)
            kept.definition = kept.definition or _clean(c.definition)
            kept.aliases += c.aliases
            continue
        by_key[key] = ExtractedConcept(
            name=name,
            type=_clean(c.type) or "Concept",
            description=_clean(c.description),
            definition=_clean(c.definition),
            aliases=list(c.aliases),
            type_guessed=c.type_guessed,
        )
    lookup: dict[str, str] = {}
    for key, c in by_key.items():
        aliases: list[str] = []
        for alias in map(_clean, c.aliases):
            if (
                alias
                and not junk_reason(alias)
                and alias.casefold() != key
                and alias.casefold() not in {a.casefold() for a in aliases}
            ):
                aliases.append(alias)
        c.aliases = aliases
        lookup[key] = c.name
    for c in by_key.values():
        for alias in c.aliases:
            lookup.setdefault(alias.casefold(), c.name)
    claims: dict[str, ExtractedClaim] = {}
    for claim in resp.claims:
        text = _clean(claim.text)
        about = list(dict.fromkeys(lookup[a.casefold()] for a in map(_clean, claim.about) if a.casefold() in lookup))
        if not text or not about:
            dropped += 1
            continue
        if text.casefold() in claims:
            merged = claims[text.casefold()]
            merged.about = list(dict.fromkeys(merged.about + about))
            continue
        claims[text.casefold()] = ExtractedClaim(text=text, about=about)
    return ExtractResponse(concepts=list(by_key.values()), claims=list(claims.values()), dropped=dropped)


def _first_answers(items: list[Any], wanted: list[str], key: Callable[[Any], str]) -> dict[str, Any]:
    kept: dict[str, Any] = {}
    for item in items:
        if key(item) in wanted and key(item) not in kept:
            kept[key(item)] = item
    return kept


def finish_extract_batch(
    req: ExtractBatchRequest, resp: ExtractBatchResponse, reask: Callable[[Any], Any]
) -> ExtractBatchResponse:
    wanted = [d.source_id for d in req.documents]
    kept = _first_answers(resp.documents, wanted, lambda d: d.doc_id)
    missing = [i for i in wanted if i not in kept]
    if missing:
        try:
            again = reask(ExtractBatchRequest(documents=[d for d in req.documents if d.source_id in missing]))
            kept.update(_first_answers(again.documents, missing, lambda d: d.doc_id))
        except LLMError:
            pass  # what was answered stands; the rest is reported missing
    documents = []
    for doc_id in wanted:
        if doc_id in kept:
            answer = kept[doc_id]
            clean = clean_extract(
                ExtractResponse(concepts=answer.concepts, claims=answer.claims, dropped=answer.dropped)
            )
            documents.append(
                DocumentExtraction(doc_id=doc_id, concepts=clean.concepts, claims=clean.claims, dropped=clean.dropped)
            )
    return ExtractBatchResponse(documents=documents, missing=[i for i in wanted if i not in kept])


def finish_summaries(
    req: SummaryBatchRequest, resp: SummaryBatchResponse, reask: Callable[[Any], Any]
) -> SummaryBatchResponse:
    wanted = [c.concept_id for c in req.concepts]
    answered = [s.model_copy(update={"summary": _clean(s.summary)}) for s in resp.summaries]
    kept = _first_answers([s for s in answered if s.summary], wanted, lambda s: s.concept_id)
    missing = [i for i in wanted if i not in kept]
    if missing:
        try:
            again = reask(SummaryBatchRequest(concepts=[c for c in req.concepts if c.concept_id in missing]))
            more = [s.model_copy(update={"summary": _clean(s.summary)}) for s in again.summaries]
            kept.update(_first_answers([s for s in more if s.summary], missing, lambda s: s.concept_id))
        except LLMError:
            pass
    return SummaryBatchResponse(
        summaries=[ConceptSummary(concept_id=i, summary=kept[i].summary) for i in wanted if i in kept],
        missing=[i for i in wanted if i not in kept],
    )


def finish_reports(
    req: CommunityReportRequest, resp: CommunityReportResponse, reask: Callable[[Any], Any]
) -> CommunityReportResponse:
    wanted = [c.community_id for c in req.communities]

    def cleaned(reports: list[CommunityReport]) -> list[CommunityReport]:
        tidy = [r.model_copy(update={"title": _clean(r.title), "summary": _clean(r.summary)}) for r in reports]
        return [r for r in tidy if r.title and r.summary]

    kept = _first_answers(cleaned(resp.reports), wanted, lambda r: r.community_id)
    missing = [i for i in wanted if i not in kept]
    if missing:
        try:
            again = reask(CommunityReportRequest(communities=[c for c in req.communities if c.community_id in missing]))
            kept.update(_first_answers(cleaned(again.reports), missing, lambda r: r.community_id))
        except LLMError:
            pass
    return CommunityReportResponse(
        reports=[kept[i] for i in wanted if i in kept], missing=[i for i in wanted if i not in kept]
    )


def _keep_asked(verdicts: list[Any], wanted: list[str]) -> tuple[dict[str, Any], int]:
    kept: dict[str, Any] = {}
    dropped = 0
    for v in verdicts:
        if v.pair_id in wanted and v.pair_id not in kept:
            if isinstance(v, Verdict):
                v = v.model_copy(update={"confidence": min(1.0, max(0.0, v.confidence))})
            kept[v.pair_id] = v
        else:
            dropped += 1
    return kept, dropped


def finish_verdicts(req: Any, resp: Any, reask: Callable[[Any], Any], default: Callable[[str], Any]) -> Any:
    wanted = [p.pair_id for p in req.pairs]
    kept, dropped = _keep_asked(resp.verdicts, wanted)
    missing = [i for i in wanted if i not in kept]
    if missing:
        try:
            again = reask(type(req)(pairs=[p for p in req.pairs if p.pair_id in missing]))
            more, more_dropped = _keep_asked(again.verdicts, missing)
            kept.update(more)
            dropped += more_dropped
        except LLMError:
            pass  # the first answers stand; the rest take the safe default below
    defaulted = [i for i in wanted if i not in kept]
    for i in defaulted:
        kept[i] = default(i)
    return type(resp)(verdicts=[kept[i] for i in wanted], dropped=resp.dropped + dropped, defaulted=len(defaulted))


def clean_answer(req: AnswerRequest, resp: AnswerResponse) -> AnswerResponse:
    known = {f.fact_id for f in req.facts}
    sentences = []
    dropped = resp.dropped
    for s in resp.sentences:
        ids = list(dict.fromkeys(i for i in s.fact_ids if i in known))
        text = _clean(s.text)
        if not ids or not text:
            dropped += 1
            continue
        sentences.append(s.model_copy(update={"text": text, "fact_ids": ids}))
    return AnswerResponse(sentences=sentences, dropped=dropped)


def clean_route(resp: RouteResponse) -> RouteResponse:
    entities = list(dict.fromkeys(e for e in map(_clean, resp.entities) if e))
    type_filter = _clean(resp.type_filter or "") or None
    return resp.model_copy(update={"entities": entities, "type_filter": type_filter})


def finish(task: str, req: Any, resp: Any, reask: Callable[[Any], Any]) -> Any:
    if task == "extract":
        return finish_extract_batch(req, resp, reask)
    if task == "judge":
        return finish_verdicts(
            req, resp, reask, lambda i: Verdict(pair_id=i, verdict="DIFFERENT", confidence=0.0, reason=NO_VERDICT)
        )
    if task == "conflicts":
        return finish_verdicts(
            req, resp, reask, lambda i: ConflictVerdict(pair_id=i, relation="unrelated", reason=NO_VERDICT)
        )
    if task == "support":
        return finish_verdicts(
            req, resp, reask, lambda i: SupportVerdict(pair_id=i, supported=False, reason=NO_VERDICT)
        )
    if task == "answer":
        return clean_answer(req, resp)
    if task == "route":
        return clean_route(resp)
    if task == "summarize":
        return finish_summaries(req, resp, reask)
    if task == "community_reports":
        return finish_reports(req, resp, reask)
    raise ValueError(f"unknown task {task}")
