"""A shortened soak (`graphwiki bench soak`): serve under 8 HTTP askers, an MCP client and a
stream of source files, while Neo4j is killed and started again, the LLM endpoint answers
bursts of 429 and 503, and serve itself is killed and started again. No question hangs,
refusals come within the bound (all but at most 1 %), both kinds of client get answers
after the last fault, and every file is ingested exactly once."""

from __future__ import annotations

import pytest

from graphwiki_assets.core.evals.datasets import MULTIHOP_SETS
from graphwiki_assets.server.soak import SoakConfig, run_soak

pytestmark = pytest.mark.integration  # it starts (and kills) a Neo4j instance of its own


def test_serve_under_load_and_faults_loses_nothing_and_never_hangs(settings, tmp_path):
    corpus = MULTIHOP_SETS["multihop_eval_musique"].corpus
    config = SoakConfig(minutes=1.0, files=12, burst_every_s=15.0, burst_size=6, drain_timeout_s=300.0)
    result = run_soak(settings, corpus, config, home=tmp_path / "soak", log=lambda msg: None)
    report = result.as_dict()
    faults = [f["fault"] for f in result.faults]
    assert "neo4j killed and started" in faults and "serve killed and started" in faults
    assert any("x 429" in f for f in faults) and any("x 503" in f for f in faults)
    for questions in (result.questions_http, result.questions_mcp):
        assert questions["hung"] == 0, report
        # A question spends at most a few seconds (GRAPHWIKI_NEO4J_QUESTION_WAIT_S) on a graph that
        # went away, then is refused. A refusal is timed from the question's start, so one the load
        # had already slowed (4.5 s into its retrieval in one run) is refused that much later: at
        # most 1 % may be over the bound here; the 10-minute `bench soak` passes only with none.
        refused = sum(questions["refused"].values())
        assert questions["refused_within_bound"] >= 0.99 * refused, report
        assert questions["answered_after_the_last_fault"] > 0, report
    files = result.files
    # A file is ingested once, or its job failed with the reason (an LLM burst outlasting the
    # retries when the ingest alone calls the endpoint); never lost, never doubled.
    assert files["submitted"] == 12 and files["ingested_once"] + files["jobs_failed"] == 12, report
    assert all(files["failed_reasons"].values()), report
    assert files["lost"] == 0 and files["doubled"] == 0 and files["jobs_unfinished"] == 0, report
    assert result.rss_mb.get("growth", 0.0) <= 0.20, report  # the rest of what `bench soak` passes on
