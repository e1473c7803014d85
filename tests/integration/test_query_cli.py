"""`graphwiki ask` prints the answer with its shape, technique, citations and flags."""

from __future__ import annotations

import json

from graphwiki_assets.cli.main import main


def test_ask_json_holds_the_documented_fields(seed_graph, cli_env, capsys):
    assert main(["ask", "How does Cypher connect to PageRank?", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    for key in (
        "shape",
        "technique",
        "entities",
        "answer",
        "citations",
        "flags",
        "retrieved",
        "context_tokens",
        "latency_ms",
        "corpus_tokens",
        "reason",
        "backend",
    ):
        assert key in data, key
    assert (data["shape"], data["technique"]) == ("connect", "shortest path")
    assert [e["name"] for e in data["entities"]] == ["Cypher", "PageRank"]
    assert {"concepts", "claims", "sources"} <= set(data["retrieved"]) and data["citations"]


def test_ask_text_says_what_was_chosen_and_why(seed_graph, cli_env, capsys):
    assert main(["ask", "What is Cypher?", "--hops", "1", "--k", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("[what_is -> n-hop traversal] matches a 'what_is' question pattern")
    assert "[disputed — see " in out and "[source: src-cypher]" in out
    assert "tokens of a" in out and "backend offline" in out


def test_ask_reports_no_information_for_an_unknown_entity(seed_graph, cli_env, capsys):
    assert main(["ask", "What is Zorblax?", "--json", "--refresh"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["found"] is False and data["answer"] == "The graph has no information on this."
