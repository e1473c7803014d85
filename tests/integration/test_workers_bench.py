"""`graphwiki bench workers` against endpoints in another process that only sleep: after the
warm-up every reply is a remembered one, every pass builds the same graph, and the lease's
ceiling is reported beside the measured throughput."""

from __future__ import annotations

import json
import urllib.request

import numpy as np
import pytest

from graphwiki_assets.cli.main import main
from graphwiki_assets.core.evals.workers_bench import sleeping_endpoints

RECORDS = [
    {
        "id": f"r{i}",
        "title": f"Station {i}",
        "text": f"Station {i} is a weather station run by the Harrow Survey. Station {i} records rainfall "
        f"in the Velden valley. The Harrow Survey was founded in 19{10 + i}.",
    }
    for i in range(6)
]


def _post(url: str, body: dict) -> dict:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"content-type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=30) as reply:
        return json.loads(reply.read())


@pytest.mark.integration  # a Neo4j or model endpoint of its own
def test_the_sleeping_embeddings_endpoint_remembers_real_vectors(embedder):
    with sleeping_endpoints(chat_latency=0.0, embed_latency=0.0, embedding_model="all-MiniLM-L6-v2") as base:
        texts = ["a weather station", "rainfall in a valley"]
        first = _post(f"{base}/embeddings", {"model": "all-MiniLM-L6-v2", "input": texts})
        again = _post(f"{base}/embeddings", {"model": "all-MiniLM-L6-v2", "input": texts[::-1]})
        with urllib.request.urlopen(base.removesuffix("/v1") + "/stats") as reply:
            stats = json.loads(reply.read())
    local = embedder.encode(texts)
    served = [row["embedding"] for row in first["data"]]
    assert np.allclose(local, np.array(served), atol=1e-5)
    assert [row["embedding"] for row in again["data"]] == served[::-1]
    assert stats["embeddings"] == {"requests": 2, "misses": 1, "max_in_flight": 1}


@pytest.mark.integration  # a Neo4j or model endpoint of its own
def test_the_bench_measures_each_worker_count_on_the_same_graph(settings, monkeypatch, tmp_path, capsys):
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text("".join(json.dumps(r) + "\n" for r in RECORDS), encoding="utf-8")
    monkeypatch.setenv("GRAPHWIKI_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("GRAPHWIKI_EVAL_NEO4J_URI", settings.neo4j.uri)  # the disposable test server
    monkeypatch.setenv("GRAPHWIKI_EVAL_NEO4J_PASSWORD", settings.neo4j.password)
    plot = tmp_path / "workers.png"
    argv = ["bench", "workers", "--corpus", str(corpus), "--batch", "2", "--workers", "1,2", "--plot", str(plot)]
    assert main([*argv, "--chat-latency", "0.05", "--embed-latency", "0.01"]) == 0
    result = json.loads(capsys.readouterr().out)

    assert [r["workers"] for r in result["runs"]] == [1, 2]
    assert result["same_graph_every_pass"]
    for run in result["runs"]:
        assert run["sources"]["new"] == len(RECORDS)
        assert (run["chat"]["misses"], run["embeddings"]["misses"]) == (0, 0), run  # only sleeps after the warm-up
        assert run["lease_ceiling_passages_per_second"] > 0
        # drafted after its turn, a batch's pairs do not change before its lease: none asked again
        assert run["rechecked"]["judge_asked"] == run["rechecked"]["conflicts_asked"] == 0, run["rechecked"]
        assert run["turn_held_seconds"] >= run["lease_held_seconds"] > 0
        assert run["order_ceiling_passages_per_second"] <= run["lease_ceiling_passages_per_second"]
    assert result["warm_up"]["chat"]["misses"] > 0
    assert plot.read_bytes().startswith(b"\x89PNG")
    assert main(["bench", "workers", "--workers", "0,2"]) == 2
