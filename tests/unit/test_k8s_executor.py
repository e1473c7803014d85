"""The code location's ingest job resolves with Dagster's Kubernetes executor, without a cluster.

A deployment on the Helm chart may run an ingest run's steps as pods (`k8s_job_executor`);
that needs nothing but the same assets, checks and resources the location already defines.
"""

from __future__ import annotations

import dagster as dg
import pytest

from graphwiki_assets.definitions import defs as build_defs
from graphwiki_assets.defs.ingest.jobs import ingest_job

dagster_k8s = pytest.importorskip(
    "dagster_k8s", reason="dagster-k8s is not installed: pip install 'graphwiki[dev]' (or the k8s extra)"
)


def _on_k8s() -> dg.Definitions:
    loaded = build_defs()
    job = dg.define_asset_job(
        ingest_job.name, selection=ingest_job.selection, executor_def=dagster_k8s.k8s_job_executor
    )
    return dg.Definitions(
        assets=loaded.assets,
        asset_checks=loaded.asset_checks,
        resources=loaded.resources,
        jobs=[job],
        executor=dagster_k8s.k8s_job_executor,
    )


def test_the_ingest_job_resolves_with_the_k8s_job_executor():
    defs = _on_k8s()
    defs.validate_loadable(defs)
    job = defs.resolve_job_def(ingest_job.name)
    assert job.executor_def is dagster_k8s.k8s_job_executor
    in_process = build_defs().resolve_job_def(ingest_job.name)
    steps = {node.name for node in job.graph.node_defs}
    assert steps == {node.name for node in in_process.graph.node_defs}  # the same steps, as pods
    assert {"extracted_candidates", "resolve_and_commit"} <= steps
    config = {"execution": {"config": {"job_namespace": "graphwiki", "env_secrets": ["graphwiki-neo4j"]}}}
    resolved = dg.validate_run_config(job, config)["execution"]["k8s"]
    assert (resolved["job_namespace"], resolved["env_secrets"]) == ("graphwiki", ["graphwiki-neo4j"])


def test_k8s_executor_config_is_checked_before_a_run():
    job = _on_k8s().resolve_job_def(ingest_job.name)
    with pytest.raises(dg.DagsterInvalidConfigError):
        dg.validate_run_config(job, {"execution": {"config": {"job_namespace": 3}}})
