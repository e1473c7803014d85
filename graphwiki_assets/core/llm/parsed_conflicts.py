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

from typing import Any

from graphwiki_assets.core.llm.base import BaseLLM, Task
from graphwiki_assets.core.llm.calls import ClaimPair, ConflictRequest, ConflictResponse, ConflictVerdict
from graphwiki_assets.core.llm.halving import CallSizes

ON_THE_PARSE = "on the parse: "  # how a verdict read on the parse begins its reason


def read_on_the_parse(pairs: list[ClaimPair], nlp: Any) -> dict[str, ConflictVerdict]:
    """The pairs the parse decides, by pair id."""
    from graphwiki_assets.core.llm.offline.changes import is_statement
    from graphwiki_assets.core.llm.offline.statements import compare

    decided = {}
    for pair in pairs:
        if not (is_statement(pair.new_claim) and is_statement(pair.existing_claim)):
            continue  # code, a command line or markup: the other rules say so
        found = compare(pair, nlp)
        if found is not None:
            relation, reason = found
            decided[pair.pair_id] = ConflictVerdict(
                pair_id=pair.pair_id, relation=relation, reason=ON_THE_PARSE + reason
            )
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
