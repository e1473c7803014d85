"""What no question can mean is refused before the graph is read, with the reason:
an empty question, a depth or result count out of range (Python ``ask``, the CLI and the
server share the bounds); and a question before any ingest says to ingest first."""

from __future__ import annotations

import pytest

from graphwiki_assets.cli.main import main
from graphwiki_assets.core.query import ask
from graphwiki_assets.core.query.models import QueryOptions


@pytest.mark.parametrize("question", ["", "   ", "\n"])
def test_ask_refuses_an_empty_question(seed_graph, embedder, offline_llm, question):
    with pytest.raises(ValueError, match="the question is empty"):
        ask(seed_graph, embedder, offline_llm, question)


@pytest.mark.parametrize(
    "options,name",
    [
        ({"hops": -1}, "hops"),
        ({"k": -1}, "k"),
        ({"k": 0}, "k"),
        ({"hops": 9}, "hops"),
        ({"k": 51}, "k"),
        ({"fanout": 0}, "fanout"),
        ({"shape_pool": 0}, "shape_pool"),
        ({"damping": 1.0}, "damping"),
        ({"ppr_via": "gremlin"}, "ppr_via"),
    ],
)
def test_ask_refuses_options_out_of_range_by_name(seed_graph, embedder, offline_llm, options, name):
    with pytest.raises(ValueError, match=f"^{name} must"):
        ask(seed_graph, embedder, offline_llm, "What is Cypher?", **options)


def test_zero_hops_is_the_entity_alone(seed_graph, embedder, offline_llm):
    answer = ask(seed_graph, embedder, offline_llm, "What is Cypher?", hops=0)
    assert answer.details["levels"] == {"c-cypher": 0}
    assert QueryOptions(hops=0).hops == 0


@pytest.mark.parametrize(
    "argv,message",
    [
        (["ask", "What is Cypher?", "--hops", "-1"], "argument --hops: must be at least 0, not -1"),
        (["ask", "What is Cypher?", "--k", "-1"], "argument --k: must be at least 1, not -1"),
        (["ask", "What is Cypher?", "--hops", "9"], "argument --hops: must be at most 8, not 9"),
        (["ask", "What is Cypher?", "--k", "51"], "argument --k: must be at most 50, not 51"),
        (["ask", "  "], "the question is empty"),
        (["ask", "What is Cypher?", "--k", "two"], "'two' is not a whole number"),
        (["latency", "--n", "0"], "argument --n: must be at least 1, not 0"),
        (["latency", "--hops", "-1"], "argument --hops: must be at least 0, not -1"),
        (["latency", "--k", "-1"], "argument --k: must be at least 1, not -1"),
        (["bench", "query", "--sizes", "10,-5"], "sizes must be whole numbers of at least 1"),
        (["bench", "generate", "--concepts", "0"], "must be at least 1, not 0"),
        (["bench", "query", "--ppr-via", "gremlin"], "argument --ppr-via: invalid choice: 'gremlin'"),
    ],
)
def test_the_cli_refuses_them_with_the_reason(argv, message, capsys, cli_env):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2 and message in capsys.readouterr().err


def test_each_answer_says_where_its_time_went(seed_graph, embedder, offline_llm):
    answer = ask(seed_graph, embedder, offline_llm, "How does Cypher connect to PageRank?")
    assert set(answer.timings_ms) == {"linking", "retrieval", "synthesis"}
    assert all(v >= 0 for v in answer.timings_ms.values())
    assert sum(answer.timings_ms.values()) <= answer.latency_ms + 1
    missing = ask(seed_graph, embedder, offline_llm, "What is Zorblax?")
    assert not missing.found and set(missing.timings_ms) == {"linking", "retrieval", "synthesis"}


def test_a_question_before_any_ingest_says_to_ingest_first(store, embedder, offline_llm):
    answer = ask(store, embedder, offline_llm, "What is Cypher?").as_dict()
    assert answer["found"] is False and answer["rung"] == "empty"
    assert "no source has been ingested yet" in answer["answer"] and "graphwiki ingest" in answer["answer"]
