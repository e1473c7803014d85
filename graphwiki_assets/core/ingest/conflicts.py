"""Stage: new claims compared with what is already claimed about the same concepts.

Only claims that share a concept and are close in meaning are compared (a cheap screen
before the LLM): those in the graph, and those of earlier sources in the same batch; and
claims of other files that restate a new claim, whatever concepts they are about (a second
screen, see ``restatements``), so a fact stated in several files is corroborated. The
comparisons of a whole batch go out in a few large calls, side by side. A contradiction
disputes both claims and records which of the two is the newer statement, by their
sources' dates. A new claim that supports one side of an open dispute settles it: the
other side becomes superseded, never deleted, unless it is the newer claim (see
``chronology``): then both stay disputed and the reason is kept on their CONTRADICTS.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

import numpy as np

from graphwiki_assets.core.ingest import controls, cypher
from graphwiki_assets.core.ingest.answered import Kept, conflict_key
from graphwiki_assets.core.ingest.chronology import as_date, hold_reason, newer_of
from graphwiki_assets.core.ingest.claims import ClaimLinks
from graphwiki_assets.core.ingest.comparable import comparable
from graphwiki_assets.core.ingest.compared import Existing, Pair
from graphwiki_assets.core.ingest.models import ContradictionRecord, ResolutionPlan, SettlementRecord
from graphwiki_assets.core.ingest.restatements import RestatementConfig, restatement_pairs
from graphwiki_assets.core.ingest.timing import StageTimes
from graphwiki_assets.core.llm.calls import ClaimPair, ConflictRequest, ConflictVerdict
from graphwiki_assets.core.llm.client import LLMClient
from graphwiki_assets.core.llm.halving import ask_all
from graphwiki_assets.core.query.definitions import defines
from graphwiki_assets.core.store.driver import GraphStore


@dataclass(frozen=True)
class ConflictConfig:
    similarity_floor: float = 0.25  # claims sharing a concept yet less alike than this talk past each other
    per_claim: int = 5  # existing claims compared with each new claim
    # Like stage 2's calls: large enough to list a shared claim once for many pairs, small
    # enough to answer inside a model's output limit (a reply cut off is asked in halves).
    pairs_per_call: int = 192
    # near-restatements in other files, about any concept (see restatements.py)
    restatements: RestatementConfig = field(default_factory=RestatementConfig)


def _names(existing_rows: list[dict], plans: list[ResolutionPlan]) -> dict[str, tuple[str, list[str]]]:
    """Every name a concept goes by, including names only the new sources use."""
    aliases: dict[str, list[str]] = {}
    names: dict[str, str] = {}
    for row in existing_rows:
        names.setdefault(row["concept_id"], row["concept"])
        aliases.setdefault(row["concept_id"], list(row["aliases"]))
    for plan in plans:
        for action in plan.actions:
            names.setdefault(action.concept_id, action.name)
            aliases.setdefault(action.concept_id, []).extend(action.aliases)
    return {cid: (names[cid], [a for a in dict.fromkeys(aliases.get(cid, [])) if a != names[cid]]) for cid in names}


def _pairs(
    links: list[ClaimLinks], paths: list[str], existing_rows: list[dict], names: dict, config: ConflictConfig
) -> list[Pair]:
    in_graph: dict[str, list[Existing]] = {}
    for row in existing_rows:
        if row["embedding"] is not None:
            in_graph.setdefault(row["concept_id"], []).append(
                Existing(
                    row["id"],
                    row["text"],
                    row["status"],
                    row["embedding"],
                    None,
                    as_date(row["stated"]),
                    frozenset(row["paths"]),
                )
            )
    in_batch: dict[str, list[Existing]] = {}
    pairs: list[Pair] = []
    for doc, link in enumerate(links):
        for claim in link.claims:
            vector = np.asarray(claim.embedding, dtype=np.float32)
            scored: list[tuple[float, Existing, str]] = []
            seen: set[str] = set()
            for cid in claim.about:
                for other in in_graph.get(cid, []) + in_batch.get(cid, []):
                    if other.id in seen or other.id == claim.id:
                        continue
                    if not comparable(claim.text, other.text, same_file=paths[doc] in other.paths):
                        continue  # different releases, or two files each speaking of itself
                    score = float(vector @ np.asarray(other.embedding, dtype=np.float32))
                    if score >= config.similarity_floor:
                        seen.add(other.id)
                        scored.append((score, other, cid))
            scored.sort(key=lambda t: -t[0])
            chosen = scored[: config.per_claim]
            chosen += _other_definitions(claim.text, scored[config.per_claim :], names)
            for _, other, cid in chosen:
                pairs.append(Pair(doc, claim.id, claim.text, other, names[cid][0], names[cid][1]))
        # this source's claims are "existing" for the later sources of the batch
        for claim in link.claims:
            for cid in claim.about:
                in_batch.setdefault(cid, []).append(
                    Existing(claim.id, claim.text, "current", claim.embedding, doc, link.date, frozenset([paths[doc]]))
                )
    return pairs


def _other_definitions(
    text: str, rest: list[tuple[float, Existing, str]], names: dict
) -> list[tuple[float, Existing, str]]:
    """Two definitions of one concept ("Cypher is a declarative ...", "CQL is an imperative
    ...") say what the same thing is, so they are always compared, however far apart their
    words are: the names they open with are the concept's aliases, which the vectors do
    not know are one."""
    known = {cid: [names[cid][0], *names[cid][1]] for cid in {cid for _, _, cid in rest}}
    defining = {cid for cid, named in known.items() if defines(text, named)}
    return [(score, other, cid) for score, other, cid in rest if cid in defining and defines(other.text, known[cid])]


def _shown(pair: Pair, pair_id: str = "") -> ClaimPair:
    """What the model is shown of a pair."""
    return ClaimPair(
        pair_id=pair_id,
        concept=pair.concept,
        concept_aliases=pair.aliases,
        new_claim=pair.claim_text,
        existing_claim=pair.existing.text,
    )


def _ask(llm: LLMClient, pairs: list[Pair], config: ConflictConfig) -> list[ConflictVerdict | None]:
    size = llm.call_sizes.limit("conflicts", config.pairs_per_call)
    if not llm.offline:
        size = max(1, size - 1)  # room for the control pair (core/ingest/controls.py)
    calls = [list(range(i, min(i + size, len(pairs)))) for i in range(0, len(pairs), size)]

    def ask(indexes: list[int]) -> dict[str, ConflictVerdict]:
        asked = [_shown(pairs[i], str(n + 1)) for n, i in enumerate(indexes)]
        control_id = None
        if not llm.offline:
            asked, control_id = controls.with_control(asked, controls.CONFLICT_CONTROL)
        found = {v.pair_id: v for v in llm.conflicts(ConflictRequest(pairs=asked)).verdicts}
        if control_id is not None and controls.conflict_failed(found, control_id):
            llm.usage.add("conflicts", controls_failed=1)
            controls.log.warning(
                "conflict call of %d pairs failed its control pair; its contradictions stand down", len(indexes)
            )
            found = {k: controls.distrusted_conflict(v) for k, v in found.items()}
        return {f"c{i}": found[str(n + 1)] for n, i in enumerate(indexes) if str(n + 1) in found}

    verdicts = ask_all(llm, "conflicts", ask, calls)
    return [verdicts.get(f"c{i}") for i in range(len(pairs))]


def _screen(
    store: GraphStore,
    plans: list[ResolutionPlan],
    links: list[ClaimLinks],
    paths: list[str],
    config: ConflictConfig,
    times: StageTimes,
) -> list[Pair]:
    """The pairs to judge: claims sharing a concept, then restatements in other files."""
    concept_ids = sorted({cid for link in links for claim in link.claims for cid in claim.about})
    with times.stage("vector_search"):
        existing = (
            store.query(
                cypher.EXISTING_CLAIMS_ABOUT, concept_ids=concept_ids, source_ids=[link.source_id for link in links]
            )
            if concept_ids
            else []
        )
    names = _names(existing, plans)
    pairs = _pairs(links, paths, existing, names, config)
    known = {(p.claim_id, p.existing.id) for p in pairs}
    with times.stage("vector_search"):
        restated = restatement_pairs(store, links, paths, names, known, config.restatements)
    for doc, link in enumerate(links):
        link.restated = sum(1 for p in restated if p.doc == doc)
        link.compared = sum(1 for p in pairs if p.doc == doc) + link.restated
    return pairs + restated


def find_conflicts(
    store: GraphStore,
    llm: LLMClient,
    plans: list[ResolutionPlan],
    links: list[ClaimLinks],
    config: ConflictConfig = ConflictConfig(),
    times: StageTimes | None = None,
    answered: Kept[ConflictVerdict] | None = None,
) -> None:
    """Fills each source's contradictions and settlements in ``links`` (same order as ``plans``).
    Pairs shown as a pair in ``answered`` was take its answer without a call."""
    times = times or StageTimes()
    paths = [plan.candidates.path for plan in plans]
    pairs = _screen(store, plans, links, paths, config, times)
    kept = answered if answered is not None else Kept[ConflictVerdict]()
    with times.stage("conflict"):
        verdicts = kept.through(
            [conflict_key(_shown(p)) for p in pairs], lambda missing: _ask(llm, [pairs[n] for n in missing], config)
        )

    supports: list[dict[str, list[str]]] = [{} for _ in links]  # per source: supported claim -> its backers
    opponents: dict[str, list[tuple[str, int]]] = {}  # in-batch disputes: claim -> (opponent, doc that made it)
    for pair, verdict in zip(pairs, verdicts):
        if verdict is None:
            continue
        if verdict.relation == "contradicts":
            newer, order = newer_of(pair.claim_id, links[pair.doc].date, pair.existing.id, pair.existing.date)
            links[pair.doc].contradictions.append(
                ContradictionRecord(
                    new_claim=pair.claim_id,
                    existing_claim=pair.existing.id,
                    reason=verdict.reason,
                    source_id=links[pair.doc].source_id,
                    newer_claim=newer,
                    order=order,
                )
            )
            opponents.setdefault(pair.claim_id, []).append((pair.existing.id, pair.doc))
            opponents.setdefault(pair.existing.id, []).append((pair.claim_id, pair.doc))
        elif verdict.relation == "supports":
            links[pair.doc].supports.append((pair.claim_id, pair.existing.id))
            if paths[pair.doc] not in pair.existing.paths:  # a file restating itself settles nothing
                supports[pair.doc].setdefault(pair.existing.id, []).append(pair.claim_id)
    supported_in_graph = sorted({w for per in supports for w in per if w not in _batch_claims(links)})
    dates = _claim_dates(links, pairs)
    with times.stage("vector_search"):
        graph_opponents: dict[str, list[str]] = {}
        for row in store.query(cypher.DISPUTE_OPPONENTS, ids=supported_in_graph) if supported_in_graph else []:
            graph_opponents.setdefault(row["claim"], []).append(row["opponent"])
            dates[row["opponent"]] = as_date(row["opponent_stated"])
    for doc, per in enumerate(supports):
        settled = _settlements(per, graph_opponents, opponents, doc, links[doc].source_id)
        for record in settled:
            held = hold_reason(
                record.winner, dates.get(record.winner), record.loser, dates.get(record.loser), links[doc].date
            )
            if held is None:
                links[doc].settlements.append(record)
            else:
                links[doc].held.append(record.model_copy(update={"reason": f"{record.reason}; kept disputed: {held}"}))


def _claim_dates(links: list[ClaimLinks], pairs: list[Pair]) -> dict[str, dt.date | None]:
    """The newest source date of every claim the batch compared: its own, and those it was compared with."""
    dates: dict[str, dt.date | None] = {p.existing.id: p.existing.date for p in pairs}
    dates.update({claim.id: link.date for link in links for claim in link.claims})
    return dates


def _batch_claims(links: list[ClaimLinks]) -> set[str]:
    return {claim.id for link in links for claim in link.claims}


def _settlements(
    supports: dict[str, list[str]],
    graph_opponents: dict[str, list[str]],
    batch_opponents: dict[str, list[tuple[str, int]]],
    doc: int,
    source_id: str,
) -> list[SettlementRecord]:
    """A source siding with one claim of a dispute open before it supersedes the other side."""
    settled = []
    for winner, backers in supports.items():
        rivals = graph_opponents.get(winner, []) + [
            o for o, made_by in batch_opponents.get(winner, []) if made_by < doc
        ]
        for loser in dict.fromkeys(rivals):
            # Only settle when the new source takes one side: it neither backs the loser
            # nor states a claim against the winner itself.
            if loser in supports or any(made_by == doc for _, made_by in batch_opponents.get(winner, [])):
                continue
            settled.append(
                SettlementRecord(
                    winner=winner,
                    loser=loser,
                    source_id=source_id,
                    reason=f"a later source agrees with {winner} (claims {', '.join(sorted(backers))})",
                )
            )
    return settled
