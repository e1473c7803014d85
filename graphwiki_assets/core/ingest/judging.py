"""Stage 2 of entity resolution: the LLM's explicit "same entity or just related?" verdict.

Pairs are sent in a few large calls per batch rather than one call per source, and the
calls run side by side. A mention's candidates stay in one call, so its description is
paid for once; the prompt lists each distinct entity once however many pairs share it.
"""

from __future__ import annotations

from dataclasses import dataclass

from graphwiki_assets.core.llm.client import LLMClient
from graphwiki_assets.core.llm.offline.names import GENERIC_TYPES
from graphwiki_assets.core.llm.errors import LLMError
from graphwiki_assets.core.llm.pool import call_all
from graphwiki_assets.core.llm.requests import NO_VERDICT, EntityView, JudgePair, JudgeRequest, Verdict


@dataclass(frozen=True)
class JudgeConfig:
    pairs_per_call: int = 192  # large enough to share entities, small enough for a model's output limit
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
    return EntityView(name=name, type=specific, aliases=list(aliases)[:8], context=clip(context or "", config.context_chars))


def _calls(groups: list[list[int]], limit: int) -> list[list[int]]:
    """Pack groups of pair indexes (one group per mention) into calls of about ``limit`` pairs."""
    calls: list[list[int]] = []
    for group in groups:
        if calls and len(calls[-1]) + len(group) <= limit:
            calls[-1].extend(group)
        else:
            calls.append(list(group))
    return calls


def judge_pairs(llm: LLMClient, pairs: list[tuple[EntityView, EntityView]], config: JudgeConfig = JudgeConfig(),
                groups: list[list[int]] | None = None) -> list[Verdict]:
    """One verdict per (mention, candidate) pair, in order. ``groups`` lists pair indexes that
    share a mention (default: each pair alone). Raises the first ``LLMError`` of any call."""
    if not pairs:
        return []
    groups = groups if groups is not None else [[i] for i in range(len(pairs))]
    calls = _calls(groups, config.pairs_per_call)

    def ask(indexes: list[int]) -> dict[str, Verdict]:
        # Short ids within a call (the model repeats each one); mapped back to the batch's.
        request = JudgeRequest(pairs=[JudgePair(pair_id=str(n + 1), mention=pairs[i][0], candidate=pairs[i][1])
                                      for n, i in enumerate(indexes)])
        found = {v.pair_id: v for v in llm.judge(request).verdicts}
        return {f"p{i}": found[str(n + 1)].model_copy(update={"pair_id": f"p{i}"})
                for n, i in enumerate(indexes) if str(n + 1) in found}

    verdicts: dict[str, Verdict] = {}
    for result in call_all(ask, calls, llm.concurrency):
        if isinstance(result, LLMError):
            raise result
        verdicts.update(result)
    return [verdicts.get(f"p{i}") or Verdict(pair_id=f"p{i}", verdict="DIFFERENT", confidence=0.0, reason=NO_VERDICT)
            for i in range(len(pairs))]
