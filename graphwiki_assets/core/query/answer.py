"""The answer: facts from the retrieved subgraph only, every sentence cited, status flagged.

Facts are the retrieved claims (and the summaries of the concepts a technique ranks),
each with the sources it derives from. Whatever backend writes the sentences, this
module enforces the rules afterwards: a sentence that cites no known fact is dropped; a
cited fact that is disputed, needs review or rests on a stale source gets its inline
flag ("[disputed — see claim-2]") if the writer left it out, and so does a fact whose
newest source is dated before the staleness age ("[may be outdated, last stated
2015-03-01]"); every sentence ends with its source ids. Superseded claims never become
facts: they are listed as history. A fact none of whose sources is dated is not dated: it
is never called outdated, since nothing says when it was stated.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field

from graphwiki_assets.core.llm.calls import AnswerRequest, AnswerSentence, Fact
from graphwiki_assets.core.llm.client import LLMError
from graphwiki_assets.core.normal_forms import name_key
from graphwiki_assets.core.query.models import ClaimRow, CommunityRow, ConceptRow, Retrieval, Sentence, Subgraph
from graphwiki_assets.core.store.schema import AWAITING_CORROBORATION

NOT_ANSWERED = "The retrieved subgraph holds nothing that answers this question."


def estimate_tokens(characters: int) -> int:
    """About four characters per token; the corpus side (cypher.CORPUS_CHARACTERS) uses the same ruler."""
    return (characters + 3) // 4


@dataclass
class Facts:
    facts: list[Fact] = field(default_factory=list)
    marks: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # fact id -> [(label, see)]
    notes: dict[str, list[str]] = field(default_factory=dict)  # fact id -> status notes, in words
    flags: list[str] = field(default_factory=list)  # notes on the retrieval as a whole
    history: list[str] = field(default_factory=list)
    outdated_before: dt.date | None = None  # a fact last stated before this day may be outdated
    outdated: dict[str, str] = field(default_factory=dict)  # fact id -> the newest date of its sources
    leading: list[str] = field(default_factory=list)  # facts that define the entity: their sentences lead

    def flags_for(self, fact_ids: list[str]) -> list[str]:
        """General notes, then the notes of the facts the answer cites (each once)."""
        notes = self.flags + [n for f in dict.fromkeys(fact_ids) for n in self.notes.get(f, [])]
        return list(dict.fromkeys(notes))

    def by_id(self) -> dict[str, Fact]:
        return {f.fact_id: f for f in self.facts}

    def characters(self) -> int:
        return sum(len(f.fact_id) + len(f.text) + sum(map(len, f.source_ids)) for f in self.facts)


def citable(ids: list[str], sub: Subgraph) -> list[str]:
    """Current sources when there are any: a replaced file is cited only if nothing newer says it."""
    live = [s for s in ids if s in sub.sources and sub.sources[s].status != "superseded"]
    return live or list(ids)


def _source_marks(ids: list[str], sub: Subgraph) -> tuple[list[tuple[str, str]], list[str]]:
    """A fact resting only on replaced or long-unseen sources is marked stale; each such source is noted."""
    rows = [sub.sources[s] for s in ids if s in sub.sources]
    notes = [
        f"source {r.id} ({r.path}) was replaced by a changed file ({r.superseded_by}); "
        "what derives from it is kept for history"
        if r.status == "superseded"
        else f"source {r.id} ({r.path}) may be outdated (last updated {str(r.last_seen_at)[:10]})"
        for r in rows
        if r.status == "superseded" or r.stale
    ]
    stale = rows and all(r.status == "superseded" or r.stale for r in rows)
    return ([("stale source", ", ".join(r.id for r in rows))] if stale else []), notes


def _add(
    out: Facts,
    fact_id: str,
    text: str,
    sources: list[str],
    marks: list[tuple[str, str]],
    notes: list[str],
    stated: str | None = None,
) -> None:
    """The writer sees the main status; the inline marks and the notes stay here to enforce.
    ``stated`` is the newest date among the fact's sources, checked against the staleness age."""
    if stated and out.outdated_before and stated < out.outdated_before.isoformat():
        out.outdated[fact_id] = stated
        marks.append((f"may be outdated, last stated {stated}", ""))
        notes.append(
            f"{fact_id} may be outdated: its newest source is dated {stated}, "
            f"before {out.outdated_before.isoformat()} (the staleness age)"
        )
    status = next((label for label, see in marks if see), "current")
    out.marks[fact_id], out.notes[fact_id] = marks, notes
    out.facts.append(Fact(fact_id=fact_id, text=text, source_ids=sources, status=status))


def _claim_fact(claim: ClaimRow, sub: Subgraph, out: Facts) -> None:
    cite = ", ".join(claim.sources) or "no source"
    if claim.status == "superseded":
        decided = f" — decided by {claim.decided_by}" if claim.decided_by else ""
        out.history.append(
            f'"{claim.text}" [superseded by {claim.superseded_by or "a later claim"}{decided}] [source: {cite}]'
        )
        return
    if not claim.sources:
        out.flags.append(f"{claim.id} has no DERIVED_FROM source and is left out of the answer")
        return
    sources = citable(claim.sources, sub)
    marks, notes = _source_marks(sources, sub)
    if claim.status == "disputed":
        live = [o for o in claim.opponents if o in sub.claims and sub.claims[o].status != "superseded"]
        marks.insert(0, ("disputed", ", ".join(live or claim.opponents) or claim.id))
        against = "; ".join(f'{o}: "{sub.claims[o].text}"{_when(sub.claims[o])}' for o in live)
        notes.insert(
            0,
            f'{claim.id} is disputed: "{claim.text}"{_when(claim)} is contradicted by {against or "an unresolved CONTRADICTS"}',
        )
    if claim.needs_review:
        _review_mark(claim.id, claim.id, claim.review_reason, marks, notes)
    _add(out, claim.id, claim.text, sources, marks, notes, claim.stated)


def _when(claim: ClaimRow) -> str:
    """When a claim was last stated, so a reader can tell the older side of a dispute."""
    return f" (last stated {claim.stated})" if claim.stated else ""


def _review_mark(node_id: str, named: str, reason: str | None, marks: list[tuple[str, str]], notes: list[str]) -> None:
    """A flagged fact's mark: "one source" while it awaits corroboration, else "needs review"."""
    if reason == AWAITING_CORROBORATION:
        marks.append(("one source", node_id))
        notes.append(f"{named} rests on one source so far")
    else:
        marks.append(("needs review", node_id))
        notes.append(f"{named} needs review: {reason or 'flagged at ingest'}")


ALIASES_SHOWN = 3


def concept_fact_text(name: str, type_: str, summary: str, aliases: list[str] | None = None) -> str:
    """The text a concept's summary stands as when it is a fact of the answer: with its other
    names, since "what is the DCO" is half answered by what DCO stands for. A spelling of the
    name itself (case, a plural) is no other name."""
    same = name_key(name)
    others = [a for a in dict.fromkeys(aliases or []) if name_key(a) != same]
    also = f"; also {', '.join(others[:ALIASES_SHOWN])}" if others else ""
    return f"{name} ({type_}{also}): {summary}"


def _concept_fact(concept: ConceptRow, sub: Subgraph, out: Facts) -> None:
    if not concept.summary or not concept.sources:
        return
    sources = citable(concept.sources, sub)
    marks, notes = _source_marks(sources, sub)
    if concept.status != "current":
        marks.insert(0, (concept.status, concept.id))
        notes.insert(0, f"concept {concept.name} ({concept.id}) is {concept.status}")
    if concept.needs_review:
        _review_mark(concept.id, f"concept {concept.name} ({concept.id})", concept.review_reason, marks, notes)
    text = concept_fact_text(concept.name, concept.type, concept.summary, concept.aliases)
    _add(out, concept.id, text, sources, marks, notes, concept.stated)


def community_fact_text(community: CommunityRow) -> str:
    return f"Community '{community.title}' ({community.size} concepts): {community.summary}"


def _community_fact(community: CommunityRow, sub: Subgraph, out: Facts) -> None:
    if not community.summary:
        return
    sources = citable(community.sources, sub)
    marks, notes = _source_marks(sources, sub)
    if community.kind == "extractive":
        notes.insert(
            0,
            f"community {community.id}'s report is extractive (sentences of its members' summaries "
            "and claims, chosen by the offline rules), not written by a model",
        )
    _add(out, community.id, community_fact_text(community), sources, marks, notes)


_CITATION = re.compile(r"\s*\[source: [^\]]*\]")


def _filed_fact(filed: dict, sub: Subgraph, out: Facts) -> None:
    """A filed answer is shown as what it is: derived, with the date and the sources it cited."""
    text = _CITATION.sub("", filed["text"]).strip()
    if not text:
        return
    sources = citable(filed["citations"] or [], sub)
    marks, notes = _source_marks(sources, sub)
    notes.insert(
        0,
        f'{filed["id"]} is an answer filed on {str(filed["filed_at"])[:10]} to "{filed["question"]}"; '
        "it is derived from the sources it cites, not a source itself",
    )
    if filed["needs_review"]:
        marks.insert(0, ("needs review", filed["id"]))
        notes.insert(1, f"{filed['id']} needs review: {filed['review_reason'] or 'flagged'}")
    _add(out, filed["id"], f'Filed answer to "{filed["question"]}": {text}', sources, marks, notes)


def build_facts(retrieval: Retrieval, sub: Subgraph, max_facts: int, outdated_before: dt.date | None = None) -> Facts:
    """Claims that define the entity first, then summaries of the ranked concepts, community
    reports and answers filed to the same question, then claims in the technique's order. A
    fact whose newest source is dated before ``outdated_before`` is marked as possibly outdated."""
    out = Facts(outdated_before=outdated_before)
    for cid in retrieval.defining:
        if cid in sub.claims:
            _claim_fact(sub.claims[cid], sub, out)
    out.leading = [f.fact_id for f in out.facts]
    leading = len(out.facts)
    for cid in dict.fromkeys(retrieval.summaries):
        if cid in sub.concepts:
            _concept_fact(sub.concepts[cid], sub, out)
    for kid in dict.fromkeys(retrieval.communities):
        if kid in sub.communities:
            _community_fact(sub.communities[kid], sub, out)
    for filed in sub.filed:
        _filed_fact(filed, sub, out)
    summaries = len(out.facts) - leading
    done = set(retrieval.defining)
    for cid in dict.fromkeys(retrieval.claims):
        if len(out.facts) - summaries >= max_facts:
            break
        # a disputed claim and the claims contradicting it travel together
        for claim_id in [cid] + (sub.claims[cid].opponents if cid in sub.claims else []):
            if claim_id in sub.claims and claim_id not in done:
                done.add(claim_id)
                _claim_fact(sub.claims[claim_id], sub, out)
    return out


def extractive(facts: list[Fact]) -> list[AnswerSentence]:
    """No writer available: each fact is its own sentence (still only retrieved text)."""
    return [AnswerSentence(text=f.text, fact_ids=[f.fact_id]) for f in facts]


def synthesise(llm, question: str, shape: str, facts: Facts) -> tuple[list[AnswerSentence], str]:
    if not facts.facts:
        return [], getattr(llm, "label", "") if llm is not None else "none"
    if llm is None:
        return extractive(facts.facts), "extractive (no LLM client)"
    try:
        reply = llm.answer(AnswerRequest(question=question, shape=shape, facts=facts.facts))
    except LLMError as exc:
        return extractive(facts.facts), f"extractive fallback ({type(exc).__name__}: {exc})"
    return reply.sentences, reply.backend


def render(sentences: list[AnswerSentence], facts: Facts) -> list[Sentence]:
    """Sentences that cite a known fact, with their marks and sources; whatever order the
    writer chose, a sentence stating a definition of the entity comes first."""
    known = facts.by_id()
    leading = set(facts.leading)
    sentences = sorted(sentences, key=lambda s: not leading & set(s.fact_ids))
    out = []
    for s in sentences:
        ids = [f for f in dict.fromkeys(s.fact_ids) if f in known]
        text = s.text.strip()
        if not ids or not text:
            continue  # uncited text is not an answer from the graph
        marks = [m for f in ids for m in facts.marks.get(f, [])]
        missing = [
            f"[{label} — see {see}]" if see else f"[{label}]"
            for label, see in dict.fromkeys(marks)
            if f"[{label}" not in text.lower()
        ]
        sources = list(dict.fromkeys(src for f in ids for src in known[f].source_ids))
        body = text.rstrip(". ")
        out.append(
            Sentence(
                text=" ".join([body, *missing, f"[source: {', '.join(sources)}]"]) + ".",
                fact_ids=ids,
                source_ids=sources,
            )
        )
    return out


def compose(sentences: list[Sentence], facts: Facts) -> str:
    lines = [s.text for s in sentences] or [NOT_ANSWERED]
    if facts.history:
        lines += ["History (superseded, not current):"] + [f"- {h}" for h in facts.history]
    return "\n".join(lines)
