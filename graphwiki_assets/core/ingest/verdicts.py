"""From the stage-1 screen and the judge's verdicts to each source's resolution plan: the
concept every mention goes to (an exact match, an earlier mention's, the best SAME
candidate, or a new one), the concepts it was judged apart from, and the judgments the
commit records.
"""

from __future__ import annotations

import hashlib

from graphwiki_assets.core.ingest.models import Candidates, ConceptAction, JudgmentRecord, Mention, ResolutionPlan
from graphwiki_assets.core.ingest.screen import SOURCE, Candidate, Stage1
from graphwiki_assets.core.llm.calls import Verdict
from graphwiki_assets.core.store.keys import name_key

EXACT_BACKEND = "rules:exact-name"
TYPES_BACKEND = "rules:disjoint-types"

Pair = tuple[Mention, Candidate]


def _hash(*parts: str) -> str:
    return hashlib.sha1("\x1f".join(parts).encode()).hexdigest()[:16]


def concept_id_for(source_id: str, name: str) -> str:
    return f"concept-{_hash(source_id, name_key(name))}"


def decide(
    batch: list[Candidates],
    mentions: list[Mention],
    s: Stage1,
    pairs: list[Pair],
    verdicts: list[Verdict],
    backends: list[str],
) -> list[ResolutionPlan]:
    """One plan per source of ``batch``; ``verdicts`` and ``backends`` follow ``pairs``."""
    judged: dict[int, list[tuple[Candidate, Verdict]]] = {}
    for (m, cand), verdict in zip(pairs, verdicts):
        judged.setdefault(m.index, []).append((cand, verdict))
    target: dict[int, str] = {}  # mention -> the concept it goes to
    actions = _actions(mentions, s, judged, target)
    judgments = _judged_records(mentions, pairs, verdicts, backends, target) + _exact_records(mentions, s, target)
    return _plans(batch, mentions, s, pairs, backends, actions, judgments)


def _concept_of(c: Candidate, target: dict[int, str]) -> str:
    """A graph candidate's node, or the concept its mention went to (an earlier one's)."""
    return c.id if c.other is None else target[c.other]


def _actions(
    mentions: list[Mention], s: Stage1, judged: dict[int, list[tuple[Candidate, Verdict]]], target: dict[int, str]
) -> list[ConceptAction]:
    """Each mention's concept, in order (a later mention may go where an earlier one went),
    filling ``target`` as it goes."""
    actions: list[ConceptAction] = []
    created_here: set[str] = set()
    for m in mentions:
        mine = judged.get(m.index, [])
        concept_id, matched = _destination(m, mine, s, target)
        created = concept_id not in created_here and not matched
        if created:
            created_here.add(concept_id)
        target[m.index] = concept_id
        not_same, related = _kept_apart(m, mine, concept_id, mentions, target)
        actions.append(_action(m, concept_id, created, not_same, related, mentions))
    return actions


def _destination(
    m: Mention, mine: list[tuple[Candidate, Verdict]], s: Stage1, target: dict[int, str]
) -> tuple[str, bool]:
    """The concept ``m`` goes to, and whether it matched one (else the concept is its own)."""
    across = sorted(
        ((c, v) for c, v in mine if v.same and c.kind != SOURCE),
        key=lambda cv: (cv[1].confidence, cv[0].score),
        reverse=True,
    )
    local = [c for c, v in mine if v.same and c.kind == SOURCE]
    if m.index in s.exact_graph:
        concept_id = s.exact_graph[m.index]["id"]
    elif m.index in s.home:
        concept_id = target[s.home[m.index]]
    elif across:
        concept_id = _concept_of(across[0][0], target)
    elif local:
        concept_id = _concept_of(local[0], target)
    else:
        concept_id = concept_id_for(m.source_id, m.name)
    matched = m.index in s.exact_graph or m.index in s.home or bool(across) or bool(local)
    return concept_id, matched


def _kept_apart(
    m: Mention, mine: list[tuple[Candidate, Verdict]], concept_id: str, mentions: list[Mention], target: dict[int, str]
) -> tuple[dict[str, str], dict[str, str]]:
    """The other concepts the judge kept ``m`` apart from (each with its judgment), and
    those of them it found related (each with the reason)."""
    not_same: dict[str, str] = {}  # the other concept -> the judgment that kept them apart
    related: dict[str, str] = {}  # the other concept -> why the judge found them related
    for c, v in mine:
        if v.same or c.kind == SOURCE:
            continue
        other = _concept_of(c, target)
        if other != concept_id and other not in not_same:
            not_same[other] = _judgment_id(m, c, mentions)
            if v.verdict == "RELATED":
                related[other] = v.reason
    return not_same, related


def _action(
    m: Mention,
    concept_id: str,
    created: bool,
    not_same: dict[str, str],
    related: dict[str, str],
    mentions: list[Mention],
) -> ConceptAction:
    return ConceptAction(
        source_id=m.source_id,
        mention_index=m.index - _first_of_doc(mentions, m.doc),
        concept_id=concept_id,
        created=created,
        name=m.name,
        type=m.taxonomy_type or m.type,
        extracted_type=m.type,
        type_guessed=m.type_guessed,
        description=m.description or m.context,
        definition=m.definition,
        aliases=list(dict.fromkeys([m.name, *m.aliases])),  # the surface form becomes an alias
        keys=m.keys,
        embedding=m.embedding,
        not_same_as=not_same,
        related_to=related,
    )


def _judgment_id(m: Mention, cand: Candidate, mentions: list[Mention]) -> str:
    other = mentions[cand.other] if cand.other is not None else None
    key = cand.id if other is None else f"{other.source_id}/{other.name}"
    return f"judgment-{_hash(m.source_id, m.name, key)}"


def _judged_records(
    mentions: list[Mention], pairs: list[Pair], verdicts: list[Verdict], backends: list[str], target: dict[int, str]
) -> list[JudgmentRecord]:
    """A record of each judged pair with another source or the graph (a pair within one
    source is not recorded)."""
    judgments: list[JudgmentRecord] = []
    for (m, cand), verdict, backend in zip(pairs, verdicts, backends):
        if cand.kind == SOURCE:
            continue
        judgments.append(
            JudgmentRecord(
                id=_judgment_id(m, cand, mentions),
                source_id=m.source_id,
                mention=m.name,
                mention_context=m.context,
                candidate_id=_concept_of(cand, target),
                candidate_name=cand.name,
                verdict=verdict.verdict,
                score=round(float(cand.score), 4),
                backend=backend,
                reason=verdict.reason,
                concept_id=target[m.index],
            )
        )
    return judgments


def _exact_records(mentions: list[Mention], s: Stage1, target: dict[int, str]) -> list[JudgmentRecord]:
    """A SAME record of each mention an exact name settled, with the node or earlier mention."""
    judgments: list[JudgmentRecord] = []
    for m in mentions:
        if m.index in s.exact_graph:
            row = s.exact_graph[m.index]
            cand_id, cand_name = row["id"], row["name"]
        elif m.index in s.home:
            root = mentions[s.home[m.index]]
            cand_id, cand_name = target[root.index], root.name
        else:
            continue
        judgments.append(
            JudgmentRecord(
                id=f"judgment-{_hash(m.source_id, m.name, cand_id)}",
                source_id=m.source_id,
                mention=m.name,
                mention_context=m.context,
                candidate_id=cand_id,
                candidate_name=cand_name,
                verdict="SAME",
                score=1.0,
                backend=EXACT_BACKEND,
                reason="normalised name or alias is identical",
                concept_id=target[m.index],
            )
        )
    return judgments


def _plans(
    batch: list[Candidates],
    mentions: list[Mention],
    s: Stage1,
    pairs: list[Pair],
    backends: list[str],
    actions: list[ConceptAction],
    judgments: list[JudgmentRecord],
) -> list[ResolutionPlan]:
    plans = []
    for doc, candidates in enumerate(batch):
        ids = {m.index for m in mentions if m.doc == doc}
        plans.append(
            ResolutionPlan(
                candidates=candidates,
                actions=[a for a in actions if a.source_id == candidates.source_id],
                judgments=[j for j in judgments if j.source_id == candidates.source_id],
                stage1_pairs=sum(s.considered.get(i, 0) for i in ids),
                stage1_screened=sum(s.screened.get(i, 0) for i in ids),
                exact_matches=sum(i in s.exact_graph or i in s.home for i in ids),
                judged_pairs=sum(
                    1 for (m, _), b in zip(pairs, backends) if m.index in ids and b not in (TYPES_BACKEND,)
                ),
            )
        )
    return plans


def _first_of_doc(mentions: list[Mention], doc: int) -> int:
    return next(m.index for m in mentions if m.doc == doc)
