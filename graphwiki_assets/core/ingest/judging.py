"""Stage 2 of entity resolution: the LLM's explicit "same entity or just related?" verdict.

Pairs are sent in a few large calls per batch rather than one call per source, and the
calls run side by side. A mention's candidates stay in one call, so its description is
paid for once; the prompt lists each distinct entity once however many pairs share it, so
mentions that share entities (a popular candidate, an earlier mention of the batch that is
itself a candidate) are packed into the same call.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from graphwiki_assets.core.ingest import controls
from graphwiki_assets.core.llm.calls import NO_VERDICT, EntityView, JudgePair, JudgeRequest, Verdict
from graphwiki_assets.core.llm.client import LLMClient
from graphwiki_assets.core.llm.halving import ask_all
from graphwiki_assets.core.llm.prompts import entity_key
from graphwiki_assets.core.text.type_names import GENERIC_TYPES


@dataclass(frozen=True)
class JudgeConfig:
    # Large calls share instructions and entities. A verdict is about 20 output tokens, so a
    # full call answers in about 8k, inside current models' 16k output limit; a model whose
    # limit is smaller cuts its reply off, and that call is asked again in halves.
    pairs_per_call: int = 384
    # About two dozen words: enough for what a thing is (and to tell two Javas apart); the
    # judge's cost grows with every character of every entity.
    context_chars: int = 120


def clip(text: str, limit: int) -> str:
    """Cut at a word boundary so the judge never sees half a word."""
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0] + " …"


def view(name: str, type_: str, aliases: list[str], context: str, config: JudgeConfig) -> EntityView:
    # A generic type ("Concept") tells the judge nothing and is not paid for.
    specific = "" if (type_ or "").strip().lower() in GENERIC_TYPES else type_
    return EntityView(
        name=name, type=specific, aliases=list(aliases)[:8], context=clip(context or "", config.context_chars)
    )


def _calls(groups: list[list[int]], limit: int, entities: list[set[str]]) -> list[list[int]]:
    """Pack groups of pair indexes (one group per mention) into as few calls of at most about
    ``limit`` pairs as fit, each group into the call that already lists most of its
    ``entities`` (the keys of the views it holds): what two groups share is paid for once."""
    total = sum(len(group) for group in groups)
    calls: list[list[int]] = [[] for _ in range(max(1, math.ceil(total / limit)))]
    listed: list[set[str]] = [set() for _ in calls]
    for n, group in enumerate(groups):
        keys = entities[n]
        room = [c for c in range(len(calls)) if not calls[c] or len(calls[c]) + len(group) <= limit]
        if not room:
            calls.append([])
            listed.append(set())
            room = [len(calls) - 1]
        best = max(room, key=lambda c: (len(keys & listed[c]), -len(calls[c]), -c))
        calls[best].extend(group)
        listed[best] |= keys
    return [call for call in calls if call]


def judge_pairs(
    llm: LLMClient,
    pairs: list[tuple[EntityView, EntityView]],
    config: JudgeConfig = JudgeConfig(),
    groups: list[list[int]] | None = None,
) -> list[Verdict]:
    """One verdict per (mention, candidate) pair, in order. ``groups`` lists pair indexes that
    share a mention (default: each pair alone). Raises the first ``LLMError`` of any call."""
    if not pairs:
        return []
    groups = groups if groups is not None else [[i] for i in range(len(pairs))]
    entities = [{entity_key(view) for i in group for view in pairs[i]} for group in groups]
    limit = llm.call_sizes.limit("judge", config.pairs_per_call)
    if not llm.offline:
        limit = max(
            1, limit - 1
        )  # room for the control pair (core/ingest/controls.py): a model's cap counts every pair it reads
    calls = _calls(groups, limit, entities)

    def ask(indexes: list[int]) -> dict[str, Verdict]:
        # Short ids within a call (the model repeats each one); mapped back to the batch's.
        asked = [
            JudgePair(pair_id=str(n + 1), mention=pairs[i][0], candidate=pairs[i][1]) for n, i in enumerate(indexes)
        ]
        control_id = None
        if not llm.offline:
            asked, control_id = controls.with_control(asked, controls.JUDGE_CONTROL)
        found = {v.pair_id: v for v in llm.judge(JudgeRequest(pairs=asked)).verdicts}
        if control_id is not None and controls.judge_failed(found, control_id):
            llm.usage.add("judge", controls_failed=1)
            controls.log.warning(
                "judge call of %d pairs failed its control pair; its SAME verdicts stand down", len(indexes)
            )
            found = {k: controls.distrusted_judgment(v) for k, v in found.items()}
        return {
            f"p{i}": found[str(n + 1)].model_copy(update={"pair_id": f"p{i}"})
            for n, i in enumerate(indexes)
            if str(n + 1) in found
        }

    verdicts = ask_all(llm, "judge", ask, calls)
    return [
        verdicts.get(f"p{i}") or Verdict(pair_id=f"p{i}", verdict="DIFFERENT", confidence=0.0, reason=NO_VERDICT)
        for i in range(len(pairs))
    ]
