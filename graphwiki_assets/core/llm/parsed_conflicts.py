"""Conflict calls that first read each claim pair on the parse, whatever the backend.

Two claims that are one statement with other values, other units, other dates, or a denial
(``offline/statements.py``) are decided without a model: such a pair is decided by
arithmetic, and the 1.5B local model called every one of them compatible. Only the pairs the
parse leaves open (different wordings, antonyms, paraphrases) go to the model, so calls and
tokens fall with them. A verdict read on the parse says so in its reason; the model's control
pair (``core/ingest/controls.py``) tests the model, so a failed control never stands such a
verdict down.
"""

from __future__ import annotations

import re
from typing import Any

from graphwiki_assets.core.llm.base import BaseLLM, Task
from graphwiki_assets.core.llm.calls import ClaimPair, ConflictRequest, ConflictResponse, ConflictVerdict
from graphwiki_assets.core.llm.halving import CallSizes
from graphwiki_assets.core.llm.offline.changes import is_statement
from graphwiki_assets.core.llm.offline.statements import DENYING_VERBS, NEGATIONS, decide, read_all, sides
from graphwiki_assets.core.llm.offline.values import NUMBER_WORDS

ON_THE_PARSE = "on the parse: "  # how a verdict read on the parse begins its reason
# What the parse can decide on: a digit or a number word (a value), or a word that denies;
# the words are the ones ``values`` and ``statements`` read as such.
# (a verb by its first four letters, whatever its tense: "forgot"; a false cue costs a parse)
_CUE_WORDS = sorted({*NUMBER_WORDS, *NEGATIONS, "cannot", *(f"{verb[:4]}\\w*" for verb in DENYING_VERBS)})
_CUES = re.compile(r"\d|n't|\b(?:" + "|".join(w for w in _CUE_WORDS if w != "n't") + r")\b", re.IGNORECASE)


def _cued(text: str) -> bool:
    return _CUES.search(text) is not None


def read_on_the_parse(pairs: list[ClaimPair], nlp: Any) -> dict[str, ConflictVerdict]:
    """The pairs the parse decides, by pair id (all the call's claims parsed together)."""
    # code, a command line or markup is no statement: the other rules say so; and a pair
    # with no number and no negation in either claim has nothing the parse decides
    prose = [
        p
        for p in pairs
        if is_statement(p.new_claim)
        and is_statement(p.existing_claim)
        and (_cued(p.new_claim) or _cued(p.existing_claim))
    ]
    texts = {p.pair_id: sides(p) for p in prose}
    read = read_all([text for pair in texts.values() for text in pair], nlp)
    decided = {}
    for pair_id, (new, old) in texts.items():
        found = decide(read[new], read[old])
        if found is not None:
            relation, reason = found
            decided[pair_id] = ConflictVerdict(pair_id=pair_id, relation=relation, reason=ON_THE_PARSE + reason)
    return decided


class ParsedFirst(BaseLLM):
    """``inner`` with its conflict calls asked only for what the parse leaves open."""

    def __init__(self, inner: BaseLLM, nlp_model: str) -> None:
        self.inner = inner
        self.nlp_model = nlp_model
        self.label = inner.label
        self.offline = inner.offline
        self.usage = inner.usage
        self.concurrency = inner.concurrency

    def __getattr__(self, name: str) -> Any:
        # anything else is the inner client's (a cache's paths, an endpoint's response form)
        return getattr(self.__dict__["inner"], name)

    @property
    def call_sizes(self) -> CallSizes:
        return self.inner.call_sizes

    def version_of(self, task: Task) -> str:
        return self.inner.version_of(task)

    def _run(self, task: Task, req: Any) -> Any:
        if task.name != "conflicts" or not req.pairs:
            return self.inner._run(task, req)
        from graphwiki_assets.core.nlp.model import load_pipeline

        decided = read_on_the_parse(req.pairs, load_pipeline(self.nlp_model))
        rest = [p for p in req.pairs if p.pair_id not in decided]
        if not rest:
            return ConflictResponse(verdicts=list(decided.values()), backend=self.label)
        resp = self.inner._run(task, ConflictRequest(pairs=rest))
        return resp.model_copy(update={"verdicts": [*decided.values(), *resp.verdicts]})
