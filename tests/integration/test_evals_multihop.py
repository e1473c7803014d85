"""The multi-hop eval end to end on the seed set, through the CLI, on the test server.

One run (the 8-document ingest dominates its time) feeds every test below. MuSiQue and
HotpotQA take many minutes to ingest: they are measured into evals/baselines.json and
gated by the eval assets, not run here.
"""

from __future__ import annotations

import contextlib
import io
import json

import pytest

from graphwiki_assets.cli.main import build_parser, main
from graphwiki_assets.core.evals.datasets import MULTIHOP_SETS
from graphwiki_assets.core.evals.multihop import SWEEP_ANCHORS, SWEEP_HOPS, load_jsonl
from graphwiki_assets.core.query.retrieval import GRAPH_METHODS

SEED = MULTIHOP_SETS["multihop_eval_seed"]
K = 3


@pytest.fixture(scope="module")
def result(_session_store, settings, tmp_path_factory):
    # capsys and monkeypatch are per test; this one run is shared by the module.
    out = io.StringIO()
    with pytest.MonkeyPatch.context() as env, contextlib.redirect_stdout(out):
        env.setenv("GRAPHWIKI_HOME", str(tmp_path_factory.mktemp("home")))
        env.setenv("GRAPHWIKI_EVAL_NEO4J_URI", settings.neo4j.uri)  # the disposable test server
        env.setenv("GRAPHWIKI_EVAL_NEO4J_PASSWORD", settings.neo4j.password)
        code = main(
            [
                "eval",
                "multihop",
                "--corpus",
                str(SEED.corpus),
                "--questions",
                str(SEED.questions),
                "--k",
                str(K),
                "--json",
            ]
        )
    assert code == 0
    return json.loads(out.getvalue())


def test_report_has_every_required_number(result):
    for key in ("n", "k"):
        assert key in result
    for method in ("flat", "graph"):
        assert {"recall", "all_recall", "docs_per_question", "precision", "context_tokens"} <= set(result[method])
    assert result["n"] == 6 and result["k"] == K
    assert result["backend"].startswith("offline")


def test_retrieved_sources_map_back_to_corpus_ids(result):
    corpus = {d["id"] for d in load_jsonl(SEED.corpus)}
    for row in result["questions"]:
        assert set(row["flat"]) <= corpus and set(row["graph"]) <= corpus
        assert len(row["flat"]) == K  # flat always fills k from 8 documents
        assert len(row["graph"]) <= K


def test_recall_and_all_recall_agree_with_the_per_question_rows(result):
    needed = {q["id"]: set(q["needed"]) for q in load_jsonl(SEED.questions)}
    for method in ("flat", "graph"):
        found = [needed[r["id"]] <= set(r[method]) for r in result["questions"]]
        assert result[method]["all_found"] == sum(found)
        assert result[method]["all_recall"] == pytest.approx(sum(found) / len(found), abs=1e-4)
        recall = [len(needed[r["id"]] & set(r[method])) / len(needed[r["id"]]) for r in result["questions"]]
        assert result[method]["recall"] == pytest.approx(sum(recall) / len(recall), abs=1e-4)
    assert result["graph_beats_flat"] == (result["graph"]["all_recall"] > result["flat"]["all_recall"])


def test_context_is_measured_against_the_corpus(result):
    for method in ("flat", "graph"):
        assert 0 < result[method]["context_tokens"] <= result["corpus_tokens"]


def test_ingest_cost_is_reported_per_passage(result):
    ingest = result["ingest"]
    assert ingest["passages"] == 8 and ingest["sources_new"] == 8 and ingest["sources_failed"] == 0
    # short passages share extraction calls; judge and conflict calls are per batch
    assert 1 <= ingest["llm_calls"] + ingest["cache_hits"] <= 2 * ingest["passages"]
    assert ingest["llm_calls_per_passage"] == round((ingest["llm_calls"] + ingest["cache_hits"]) / 8, 3)
    assert ingest["seconds"] > 0


def test_traversal_reaches_more_documents_with_more_hops(result):
    """The seed's precision finding: each extra hop pulls in more documents, never fewer."""
    for fanout in {r["fanout"] for r in result["sweep"] if r["method"] == "traversal"}:
        rows = sorted(
            (r for r in result["sweep"] if r["method"] == "traversal" and r["fanout"] == fanout),
            key=lambda r: r["hops"],
        )
        assert [r["hops"] for r in rows] == list(SWEEP_HOPS)
        docs = [r["docs_per_question"] for r in rows]
        assert docs == sorted(docs)
        assert all(0 <= r["precision"] <= 1 for r in rows)


def test_every_graph_method_is_reported_beside_the_gated_one(result):
    assert result["method"] == "bridge"  # the default graph method
    for method in ("ppr", "traversal", "hybrid"):
        assert {"recall", "all_recall", "precision"} <= set(result[method])
    assert "bridge" not in result  # it is "graph" here, not reported twice


def test_bridge_sweep_reports_each_anchor_count(result):
    rows = [r for r in result["sweep"] if r["method"] == "bridge" and r["fanout"] is not None]
    assert [r["fanout"] for r in rows] == list(SWEEP_ANCHORS)
    assert all(r["k"] == K and r["docs_per_question"] <= K and 0 <= r["precision"] <= 1 for r in rows)


def test_the_cli_offers_every_graph_method_and_nothing_else():
    args = build_parser().parse_args(["eval", "multihop", "--corpus", "c", "--questions", "q"])
    assert args.method == GRAPH_METHODS[0] == "bridge"
    for method in GRAPH_METHODS:
        assert (
            build_parser()
            .parse_args(["eval", "multihop", "--corpus", "c", "--questions", "q", "--method", method])
            .method
            == method
        )
    with pytest.raises(SystemExit):
        build_parser().parse_args(["eval", "multihop", "--corpus", "c", "--questions", "q", "--method", "flat"])
