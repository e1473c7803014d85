"""A rejected SAME: split the mention back out of the node it was merged into.

The mention becomes its own concept (cited by the judgment's source, linked to the old
node by a NOT_SAME_AS verdict edge); its name leaves the old node's aliases and keys. Claims of that
source about the old node follow the mention where the text makes it determinable: a
claim naming only the mention moves, one naming both is about both, one naming neither
stays. The old node keeps citing the source only while something still ties it there.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import datetime

from neo4j import ManagedTransaction

from graphwiki_assets.core.lint.judgments import JudgmentView
from graphwiki_assets.core.review import cypher
from graphwiki_assets.core.review.record import Embed, ReviewError, ReviewOutcome, live_concept, mark
from graphwiki_assets.core.store.driver import rows
from graphwiki_assets.core.store.keys import keys_for, name_key


def split_concept_id(judgment_id: str) -> str:
    """Deterministic, so re-running a split converges on the same node."""
    return "concept-" + hashlib.sha1(f"split\x1f{judgment_id}".encode()).hexdigest()[:16]


def _named(name: str) -> re.Pattern:
    return re.compile(rf"(?<!\w){re.escape(name)}(?!\w)", re.IGNORECASE)


def names(text: str | None, candidates: list[str]) -> bool:
    return bool(text) and any(_named(n).search(text) for n in candidates if n)


def without(text: str | None, name: str) -> str:
    return _named(name).sub(" ", text or "")


@dataclass(frozen=True)
class SplitPlan:
    aliases: list[str]  # the old node's aliases without the mention
    keys: list[str]
    moved: list[str]  # claims now about the mention only
    shared: list[str]  # claims about both
    keep_citation: bool


def plan_split(mention: str, concept: dict, source_text: str | None, claims: list[dict]) -> SplitPlan:
    key = name_key(mention)
    aliases = [a for a in concept["aliases"] if name_key(a) != key]
    others = [n for n in [concept["name"], *aliases] if name_key(n) != key]
    moved: list[str] = []
    shared: list[str] = []
    for claim in claims:
        if names(claim["text"], [mention]):
            (shared if names(without(claim["text"], mention), others) else moved).append(claim["id"])
    still_about = len(claims) > len(moved)
    return SplitPlan(
        aliases=aliases,
        keys=keys_for(concept["name"], aliases),
        moved=moved,
        shared=shared,
        keep_citation=still_about or names(without(source_text, mention), others),
    )


def split_rejected_same(
    tx: ManagedTransaction, j: JudgmentView, by: str, reason: str, now: datetime, embed: Embed | None
) -> ReviewOutcome:
    if j.concept_id != j.candidate_id:
        # The mention went to another node (a better SAME); nothing was merged into this candidate.
        mark(tx, j, "rejected", "recorded", by, reason, now, concept_id=None)
        return ReviewOutcome(j.id, j.verdict, "rejected", "recorded", j.concept_id)
    old = live_concept(tx, j.concept_id)
    context = rows(tx, cypher.SPLIT_CONTEXT, source_id=j.source_id, concept_id=old["id"])
    if not context:
        raise ReviewError(f"judgment {j.id} cites source {j.source_id!r}, which does not exist")
    plan = plan_split(j.mention, old, context[0]["text"], context[0]["claims"])
    new_id = split_concept_id(j.id)
    new = {
        "id": new_id,
        "name": j.mention,
        "type": old["type"],
        "aliases": [],
        "keys": keys_for(j.mention, []),
        "summary": j.mention_context or "",
        "split_from": old["id"],
        "split_by_judgment": j.id,
        "embedding": embed(f"{j.mention}. {j.mention_context or ''}") if embed else None,
    }
    params = {"concept_id": old["id"], "new_id": new_id, "source_id": j.source_id, "now": now}
    rows(tx, cypher.SPLIT_CREATE, new=new, aliases=plan.aliases, keys=plan.keys, judgment_id=j.id, **params)
    claims = [{"id": c, "move": True} for c in plan.moved] + [{"id": c, "move": False} for c in plan.shared]
    rows(tx, cypher.SPLIT_MOVE_CLAIMS, claims=claims, **params)
    rows(tx, cypher.SPLIT_MOVE_ASSOCIATIONS, moved=plan.moved, shared=plan.shared, **params)
    if not plan.keep_citation:
        rows(tx, cypher.SPLIT_DROP_CITATION, **params)
    rows(tx, cypher.RECOUNT_SOURCES, ids=[old["id"], new_id])
    mark(tx, j, "rejected", "split", by, reason, now, concept_id=new_id)
    return ReviewOutcome(
        j.id,
        j.verdict,
        "rejected",
        "split",
        new_id,
        {
            "split_from": old["id"],
            "moved_claims": plan.moved,
            "shared_claims": plan.shared,
            "old_node_keeps_citation": plan.keep_citation,
        },
    )
