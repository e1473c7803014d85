"""`graphwiki bench ingest` reports, beside the wall time, the CPU the ingest and the local
Neo4j used against what the machine's cores could give, and the word pieces it encoded; with
an embeddings service configured it embeds there, as ingest does."""

from __future__ import annotations

import json

import pytest

from graphwiki_assets.cli.main import main
from graphwiki_assets.core.cpu_time import cores
from graphwiki_assets.core.ingest.commit import source_text
from tests.support.embeddings_server import embeddings_server

RECORDS = [
    {
        "id": f"p{i}",
        "title": f"Lantern Pass {i}",
        "text": f"Lantern Pass {i} is a mountain road kept by the Orlen Roadwardens. The Orlen Roadwardens "
        f"closed Lantern Pass {i} in the winter of 19{20 + i}.",
    }
    for i in range(4)
]


@pytest.mark.integration
def test_the_bench_sets_the_cpu_of_the_ingest_and_of_neo4j_against_the_cores(
    settings, embedder, monkeypatch, tmp_path, capsys
):
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text("".join(json.dumps(r) + "\n" for r in RECORDS), encoding="utf-8")
    monkeypatch.setenv("GRAPHWIKI_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("GRAPHWIKI_EVAL_NEO4J_URI", settings.neo4j.uri)  # the disposable test server, on this machine
    monkeypatch.setenv("GRAPHWIKI_EVAL_NEO4J_PASSWORD", settings.neo4j.password)
    assert main(["bench", "ingest", "--corpus", str(corpus), "--no-rerun"]) == 0
    out = json.loads(capsys.readouterr().out)
    cpu = out["cpu"]

    assert out["sources"]["new"] == len(RECORDS)
    assert cpu["cores"] == cores()
    assert cpu["process_seconds"] > 0
    assert cpu["neo4j_seconds"] > 0  # the server answered every query and write of the run
    assert cpu["total_seconds"] == pytest.approx(cpu["process_seconds"] + cpu["neo4j_seconds"], abs=0.11)
    assert cpu["least_wall_seconds"] == pytest.approx(cpu["total_seconds"] / cores(), abs=0.11)
    assert 0 < cpu["busy_share"] <= 1.05  # the CPU used is at most what the cores gave in the wall time
    # Every source is embedded once at least (their texts are new to this process).
    sources = [source_text(r["title"], r["text"]) for r in RECORDS]
    assert cpu["word_pieces_encoded"] >= sum(embedder.word_pieces(sources))


@pytest.mark.integration
def test_with_an_embeddings_service_the_bench_embeds_there_and_counts_no_local_word_pieces(
    settings, embedder, monkeypatch, tmp_path, capsys
):
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text("".join(json.dumps(r) + "\n" for r in RECORDS[:2]), encoding="utf-8")
    monkeypatch.setenv("GRAPHWIKI_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("GRAPHWIKI_EVAL_NEO4J_URI", settings.neo4j.uri)
    monkeypatch.setenv("GRAPHWIKI_EVAL_NEO4J_PASSWORD", settings.neo4j.password)
    with embeddings_server(embedder) as server:
        monkeypatch.setenv("GRAPHWIKI_EMBEDDINGS_BASE_URL", server.url)
        assert main(["bench", "ingest", "--corpus", str(corpus), "--no-rerun"]) == 0
        out = json.loads(capsys.readouterr().out)
        asked = [text for request in server.requests for text in request]

    sources = [source_text(r["title"], r["text"]) for r in RECORDS[:2]]
    assert set(sources) <= set(asked)  # the sources' vectors came from the service
    assert out["embedding_model"] == "all-MiniLM-L6-v2"
    assert out["cpu"]["word_pieces_encoded"] is None  # the model ran in the service's process
    assert out["cpu"]["process_seconds"] > 0
