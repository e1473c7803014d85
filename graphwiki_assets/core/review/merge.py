"""A rejected NOT_SAME: the mention's node and the candidate are one entity, so merge them.

The candidate (the node the mention was compared with) survives; the mention's node is
absorbed: its ABOUT, RELATED_TO, PART_OF and NOT_SAME_AS edges move to the survivor, its citations are copied
(it keeps its own as history), its name and aliases become the survivor's aliases. The
absorbed node is never deleted: it stays with status 'superseded' and ``merged_into``.
"""

from __future__ import annotations

from datetime import datetime

from neo4j import ManagedTransaction

from graphwiki_assets.core.lint.judgments import JudgmentView
from graphwiki_assets.core.review import cypher
from graphwiki_assets.core.review.record import ReviewOutcome, live_concept, mark
from graphwiki_assets.core.store.driver import rows
from graphwiki_assets.core.store.keys import keys_for


def merged_aliases(survivor: dict, absorbed: dict) -> list[str]:
    aliases = list(survivor["aliases"])
    for name in [absorbed["name"], *absorbed["aliases"]]:
        if name and name != survivor["name"] and name not in aliases:
            aliases.append(name)
    return aliases


def merge_rejected_not_same(
    tx: ManagedTransaction, j: JudgmentView, by: str, reason: str, now: datetime
) -> ReviewOutcome:
    survivor = live_concept(tx, j.candidate_id)
    absorbed = live_concept(tx, j.concept_id)
    if survivor["id"] == absorbed["id"]:
        # Already one node (merged since); only the review is left to record.
        mark(tx, j, "rejected", "recorded", by, reason, now, concept_id=survivor["id"])
        return ReviewOutcome(j.id, j.verdict, "rejected", "recorded", survivor["id"])
    aliases = merged_aliases(survivor, absorbed)
    keys = list(dict.fromkeys(keys_for(survivor["name"], aliases) + survivor["keys"] + absorbed["keys"]))
    params = {"survivor": survivor["id"], "absorbed": absorbed["id"], "now": now}
    rows(tx, cypher.MERGE_DROP_LINKS, **params)
    for statement in cypher.MERGE_MOVES:
        rows(tx, statement, **params)
    rows(tx, cypher.MERGE_COPY_CITATIONS, **params)
    rows(tx, cypher.MERGE_MARK, aliases=aliases, keys=keys, by=by, **params)
    rows(tx, cypher.RECOUNT_SOURCES, ids=[survivor["id"]])
    mark(tx, j, "rejected", "merged", by, reason, now, concept_id=survivor["id"])
    return ReviewOutcome(
        j.id, j.verdict, "rejected", "merged", survivor["id"], {"absorbed": absorbed["id"], "aliases": aliases}
    )
