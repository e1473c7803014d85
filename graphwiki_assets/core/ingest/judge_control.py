"""A control pair in every call a model judges: two different things that share a name.

A model that calls this pair SAME is not telling entities apart in that call; it is saying
yes (a small local model did so for every pair it was shown, homonyms included). Its SAME
verdicts from that call are then not acted on: they become DIFFERENT at confidence 0, with
the reason, so no merge rests on them and each stays visible to review. RELATED and
DIFFERENT verdicts stand: the failure is a bias towards merging. The rules are measured
directly and skip the control.

The pair is invented (no real place or library has these names), so no model knows it, and
it sits in the middle of the call, where the verdicts before it cannot set its pattern.
"""

from __future__ import annotations

import logging

from graphwiki_assets.core.llm.calls import EntityView, JudgePair, Verdict

log = logging.getLogger("graphwiki.judge")

CONTROL = (
    EntityView(
        name="Vellmar",
        type="Place",
        context="Vellmar is a fishing village on a northern coast, known for its harbour and its ferry.",
    ),
    EntityView(
        name="Vellmar",
        type="Software",
        context="Vellmar is an open-source library for reading spreadsheets, written in Rust.",
    ),
)
FAILED = "not acted on: in the same call the judge called two different things that share a name the same"


def with_control(pairs: list[JudgePair]) -> tuple[list[JudgePair], str]:
    """The call's pairs with the control inserted in the middle, and the control's id."""
    control_id = str(len(pairs) + 1)
    while any(p.pair_id == control_id for p in pairs):
        control_id += "c"
    control = JudgePair(pair_id=control_id, mention=CONTROL[0], candidate=CONTROL[1])
    middle = len(pairs) // 2
    return [*pairs[:middle], control, *pairs[middle:]], control_id


def failed(found: dict[str, Verdict], control_id: str) -> bool:
    control = found.get(control_id)
    return control is not None and control.same


def distrusted(verdict: Verdict) -> Verdict:
    if not verdict.same:
        return verdict
    return verdict.model_copy(
        update={"verdict": "DIFFERENT", "confidence": 0.0, "reason": f"{FAILED} ({verdict.reason})"}
    )
