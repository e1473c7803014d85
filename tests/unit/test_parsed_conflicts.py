"""Every backend's conflict calls are asked only for what the parse leaves open: one
statement with other values is decided without a model, and a model's failed control pair
never stands such a verdict down."""

from __future__ import annotations

from graphwiki_assets.core.ingest.controls import distrusted_conflict
from graphwiki_assets.core.llm.calls import ClaimPair, ConflictRequest
from graphwiki_assets.core.llm.offline.backend import OfflineLLM
from graphwiki_assets.core.llm.parsed_conflicts import ON_THE_PARSE, ParsedFirst


class Recording(OfflineLLM):
    """The offline backend, noting the pairs each conflict call was asked about."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[list[str]] = []

    def _run(self, task, req):
        if task.name == "conflicts":
            self.asked.append([p.pair_id for p in req.pairs])
        return super()._run(task, req)


def _pair(pair_id: str, new: str, old: str) -> ClaimPair:
    return ClaimPair(pair_id=pair_id, concept="Tovik Works", new_claim=new, existing_claim=old)


def test_pairs_the_parse_decides_never_reach_the_backend():
    inner = Recording()
    llm = ParsedFirst(inner, "en_core_web_md")
    resp = llm.conflicts(
        ConflictRequest(
            pairs=[
                _pair("1", "Tovik Works runs 14 furnaces.", "Tovik Works runs 9 furnaces."),
                _pair("2", "Tovik Works is a cheerful place.", "Tovik Works makes copper wire."),
            ]
        )
    )
    verdicts = {v.pair_id: v for v in resp.verdicts}
    assert verdicts["1"].relation == "contradicts" and verdicts["1"].reason.startswith(ON_THE_PARSE)
    assert "2" in verdicts and not verdicts["2"].reason.startswith(ON_THE_PARSE)
    assert inner.asked == [["2"]]


def test_a_call_the_parse_decides_entirely_costs_nothing():
    inner = Recording()
    llm = ParsedFirst(inner, "en_core_web_md")
    resp = llm.conflicts(
        ConflictRequest(pairs=[_pair("1", "Tovik Works opened in 1921.", "Tovik Works opened in 1930.")])
    )
    assert [v.relation for v in resp.verdicts] == ["contradicts"] and inner.asked == []
    assert inner.usage.snapshot().as_dict()["calls"] == 0


def test_a_failed_control_stands_down_the_models_contradictions_only():
    inner = Recording()
    llm = ParsedFirst(inner, "en_core_web_md")
    (parsed,) = llm.conflicts(
        ConflictRequest(pairs=[_pair("1", "Tovik Works runs 14 furnaces.", "Tovik Works runs 9 furnaces.")])
    ).verdicts
    modelled = parsed.model_copy(update={"reason": "the model says so"})
    assert distrusted_conflict(parsed).relation == "contradicts"
    assert distrusted_conflict(modelled).relation == "unrelated"


def test_a_pair_with_no_value_and_no_denial_is_not_parsed_at_all():
    # nothing for the parse to decide: the backend answers it, the pipeline never runs
    class Unparsed:
        def pipe(self, texts, batch_size=256):
            texts = list(texts)
            assert not texts, texts
            return iter(())

    from graphwiki_assets.core.llm.parsed_conflicts import read_on_the_parse

    assert (
        read_on_the_parse([_pair("1", "Tovik Works is a cheerful place.", "Tovik Works makes wire.")], Unparsed()) == {}
    )
