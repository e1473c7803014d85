"""A control pair in every call a model judges, whose right answer is known.

- Entity resolution: two different things that share a name. A model that calls them SAME
  is not telling entities apart in that call, it is saying yes (a small local model did so
  for every pair it was shown, homonyms included).
- Contradictions: two claims about one thing that can both be true. A model that calls them
  contradictory flags whatever it is shown (the same model flagged all 70 labelled pairs).

A call that fails its control keeps its other verdicts, but the one its bias produces is
not acted on: SAME becomes DIFFERENT, contradicts becomes unrelated, at confidence 0 and
with the reason, so no merge or dispute rests on it. The rules are measured directly and
skip the controls. The controls are invented (no real place or library has these names),
so no model knows them, and each sits in the middle of its call, where the verdicts before
it cannot set its pattern.
"""

from __future__ import annotations

import logging
from typing import TypeVar

from graphwiki_assets.core.llm.calls import ClaimPair, ConflictVerdict, EntityView, JudgePair, Verdict
from graphwiki_assets.core.llm.parsed_conflicts import ON_THE_PARSE

log = logging.getLogger("graphwiki.controls")

_VILLAGE = "Vellmar is a fishing village on a northern coast, known for its harbour and its ferry."
JUDGE_CONTROL = JudgePair(
    pair_id="",
    mention=EntityView(name="Vellmar", type="Place", context=_VILLAGE),
    candidate=EntityView(
        name="Vellmar", type="Software", context="Vellmar is an open-source library for reading spreadsheets."
    ),
)
CONFLICT_CONTROL = ClaimPair(
    pair_id="",
    concept="Vellmar",
    new_claim="Vellmar has a harbour used by fishing boats.",
    existing_claim="Vellmar lies on a northern coast.",
)
FAILED = "not acted on: in the same call the model failed its control pair"

P = TypeVar("P", JudgePair, ClaimPair)


def with_control(pairs: list[P], control: P) -> tuple[list[P], str]:
    """The call's pairs with ``control`` inserted in the middle, and the control's id."""
    control_id = str(len(pairs) + 1)
    while any(p.pair_id == control_id for p in pairs):
        control_id += "c"
    middle = len(pairs) // 2
    asked: list[P] = list(pairs)
    asked.insert(middle, control.model_copy(update={"pair_id": control_id}))
    return asked, control_id


def judge_failed(found: dict[str, Verdict], control_id: str) -> bool:
    control = found.get(control_id)
    return control is not None and control.same


def conflict_failed(found: dict[str, ConflictVerdict], control_id: str) -> bool:
    control = found.get(control_id)
    return control is not None and control.relation == "contradicts"


def distrusted_judgment(verdict: Verdict) -> Verdict:
    if not verdict.same:
        return verdict
    reason = f"{FAILED} ({verdict.reason})"
    return verdict.model_copy(update={"verdict": "DIFFERENT", "confidence": 0.0, "reason": reason})


def distrusted_conflict(verdict: ConflictVerdict) -> ConflictVerdict:
    if verdict.relation != "contradicts" or verdict.reason.startswith(ON_THE_PARSE):
        return verdict  # a verdict read on the parse is not the model's: its control says nothing of it
    return verdict.model_copy(update={"relation": "unrelated", "reason": f"{FAILED} ({verdict.reason})"})
