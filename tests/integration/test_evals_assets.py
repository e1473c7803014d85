"""Eval assets: their own group, off the ingest path, gated by blocking regression checks.

The gate test runs the real er_eval_general asset twice on the test server: once to
measure, once against a baseline just above what it measured, which must fail the run.
The user's Neo4j resource points at a closed port, so any touch of it would fail too.
"""

from __future__ import annotations

import json

import dagster as dg
import pytest

from graphwiki_assets.defs.evals.assets import CHECK, EVAL_ASSETS
from graphwiki_assets.defs.resources import EmbeddingResource, GraphwikiConfig, LLMResource, Neo4jResource

EVAL_NAMES = {
    "er_eval_general",
    "er_eval_invented",
    "er_eval_products_dev",
    "er_eval_products_test",
    "multihop_eval_seed",
    "multihop_eval_musique",
    "multihop_eval_hotpotqa",
    "contradiction_eval",
    "extraction_eval_redocred",
    "answers_eval_seed",
    "docs_eval_helm",
}


def _defs() -> dg.Definitions:
    """The evals area with the resources it declares (the whole code location is another test's)."""
    from graphwiki_assets.defs.evals.definitions import defs

    return defs()


def test_eval_assets_form_their_own_group_with_nothing_upstream_or_downstream():
    graph = _defs().get_repository_def().asset_graph
    for name in EVAL_NAMES:
        node = graph.get(dg.AssetKey(name))
        # the corpus-scale sets (most of an hour) are not in the group whose "Materialize all" takes minutes
        assert node.group_name == (
            "evals_corpus" if name in {"multihop_eval_musique", "multihop_eval_hotpotqa", "docs_eval_helm"} else "evals"
        )
        assert not node.parent_keys and not node.child_keys  # not on the ingest path
        [check] = node.check_keys
        assert check.name == CHECK and graph.get_check_spec(check).blocking


def test_evals_job_selects_exactly_the_eval_group():
    job = _defs().resolve_job_def("evals_job")
    assert {key.to_user_string() for key in job.asset_layer.selected_asset_keys} == EVAL_NAMES


@pytest.fixture
def eval_env(settings, store, monkeypatch, tmp_path):
    """Evals aimed at the disposable test server, with a baselines file of our own."""
    monkeypatch.setenv("GRAPHWIKI_EVAL_NEO4J_URI", settings.neo4j.uri)
    monkeypatch.setenv("GRAPHWIKI_EVAL_NEO4J_PASSWORD", settings.neo4j.password)
    baselines = tmp_path / "baselines.json"
    monkeypatch.setenv("GRAPHWIKI_EVAL_BASELINES", str(baselines))
    resources = {
        "graphwiki": GraphwikiConfig(home=str(tmp_path), sources_dir=str(tmp_path / "sources")),
        "neo4j": Neo4jResource(uri="bolt://127.0.0.1:9"),  # the "user's graph": unreachable on purpose
        "embeddings": EmbeddingResource(),
        "llm": LLMResource(cache_dir=str(settings.cache_dir)),
    }
    return baselines, resources


def _run(resources):
    [asset] = [a for a in EVAL_ASSETS if a.key.to_user_string() == "er_eval_general"]
    return dg.materialize([asset], resources=resources, raise_on_error=False, instance=dg.DagsterInstance.ephemeral())


def _check(result) -> dg.AssetCheckEvaluation:
    [evaluation] = result.get_asset_check_evaluations()
    return evaluation


def test_regression_check_fails_the_run_when_the_baseline_is_above_the_measured_value(eval_env):
    baselines, resources = eval_env
    measured = _run(resources)
    assert measured.success and _check(measured).passed
    metadata = measured.asset_materializations_for_node("er_eval_general")[0].metadata
    f1 = metadata["two_stage.f1"].value
    assert "data:image/png;base64," in metadata["plot"].value
    assert [r.data["class"] for r in metadata["cosine_by_class"].records] == ["same", "related", "unrelated"]

    baselines.write_text(
        json.dumps(
            {
                "tolerance": 0.02,
                "evals": {
                    "er_eval_general": {
                        "date": "test",
                        "backend": "test",
                        "command": "test",
                        "higher_is_better": {"two_stage.f1": round(f1 + 0.05, 4)},
                    }
                },
            }
        )
    )
    regressed = _run(resources)
    check = _check(regressed)
    assert not check.passed and check.severity == dg.AssetCheckSeverity.ERROR
    assert "two_stage.f1" in check.description
    assert not regressed.success  # blocking + ERROR: the materialisation exits non-zero

    baselines.write_text(
        json.dumps(
            {
                "tolerance": 0.02,
                "evals": {
                    "er_eval_general": {
                        "date": "test",
                        "backend": "test",
                        "command": "test",
                        "higher_is_better": {"two_stage.f1": round(f1 + 0.01, 4)},
                    }
                },
            }
        )
    )
    assert _run(resources).success  # within tolerance: not a regression
