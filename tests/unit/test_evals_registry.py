"""The eval registry holds the CLI, bench, the Dagster assets and evals/baselines.json together:
every eval is declared once, and each place that runs or gates one finds it there."""

from __future__ import annotations

import argparse
import json

import pytest

from graphwiki_assets.cli.main import build_parser
from graphwiki_assets.core.evals.datasets import evals_dir
from graphwiki_assets.core.evals.registry import BY_NAME, EVALS, KINDS, UnknownEval, bench_plan
from graphwiki_assets.core.evals.spec import Better, Headline

COMMITTED = json.loads((evals_dir() / "baselines.json").read_text(encoding="utf-8"))


def _gated(entry: dict) -> dict[str, set[str]]:
    return {b.value: set(entry.get(b.value, {})) for b in Better}


def _declared(name: str) -> dict[str, set[str]]:
    return {b.value: {g.metric for g in BY_NAME[name].gates if g.better is b} for b in Better}


def test_every_eval_has_one_spec_and_every_committed_baseline_belongs_to_one():
    assert len(BY_NAME) == len(EVALS)
    assert set(COMMITTED["evals"]) == set(BY_NAME)


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_the_offline_baseline_gates_exactly_the_spec_s_numbers_in_the_spec_s_direction(name):
    assert _gated(COMMITTED["evals"][name]) == _declared(name)


def test_a_model_s_baselines_gate_only_numbers_its_spec_declares_in_the_same_direction():
    sections = [v for v in COMMITTED.values() if isinstance(v, dict) and "label" in v]
    assert sections, "the committed file has a model's section"
    for section in sections:
        for name, entry in section["evals"].items():
            declared = _declared(name)
            assert all(_gated(entry)[d] <= declared[d] for d in declared), name


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.command)
def test_every_gated_number_is_a_headline_number_of_its_kind(kind):
    assert {g.metric for g in kind.gates} <= set(kind.headline_keys)
    assert len(set(kind.headline_keys)) == len(kind.headline_keys)


def test_every_kind_is_a_graphwiki_eval_subcommand_and_nothing_else_is():
    [evals] = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    [commands] = [a for a in evals.choices["eval"]._actions if isinstance(a, argparse._SubParsersAction)]
    assert list(commands.choices) == [k.command for k in KINDS]
    for kind in KINDS:
        assert commands.choices[kind.command].get_default("handler") is not None


def test_every_eval_is_an_asset_with_its_description_and_group():
    from graphwiki_assets.defs.evals.assets import EVAL_ASSETS, GROUP, LARGE_GROUP

    assets = {key.to_user_string(): a for a in EVAL_ASSETS for key in a.keys}
    assert list(assets) == [s.name for s in EVALS]
    for spec in EVALS:
        [key] = assets[spec.name].keys
        assert assets[spec.name].descriptions_by_key[key] == spec.description
        assert assets[spec.name].group_names_by_key[key] == (LARGE_GROUP if spec.large else GROUP)


def test_bench_runs_the_quick_evals_and_the_large_ones_only_when_full_or_named():
    quick = [s.name for s in bench_plan()]
    assert quick == [s.name for s in EVALS if not s.large] and "multihop_eval_seed" in quick
    assert [s.name for s in bench_plan(full=True)] == [s.name for s in EVALS]
    named = bench_plan(only=["docs_eval_helm", "er_eval_invented"])
    assert [s.name for s in named] == ["er_eval_invented", "docs_eval_helm"]  # quick ones first
    with pytest.raises(UnknownEval, match="unknown eval er_eval_nowhere; choose from answers_eval_seed"):
        bench_plan(only=["er_eval_general", "er_eval_nowhere"])


def test_a_headline_keeps_the_kind_s_order_and_leaves_out_what_the_result_lacks():
    result = {"two_stage": {"f1": 0.5, "llm_calls": 3}, "cosine_only": {"best_f1": 0.25}}
    headline = Headline.of(result, ["cosine_only.best_f1", "by_split.report.f1", "two_stage.llm_calls"])
    assert headline.as_dict() == {"cosine_only.best_f1": 0.25, "two_stage.llm_calls": 3}
    assert list(headline.as_dict()) == ["cosine_only.best_f1", "two_stage.llm_calls"]
