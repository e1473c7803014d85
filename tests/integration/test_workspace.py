"""The service layer behind `serve` and `mcp`: a concept's card keeps each claim's status and
provenance, search finds by name then meaning, bad requests are refused with the reason, and
a source handed over as text is ingested like a file in the sources folder."""

from __future__ import annotations

import pytest

from graphwiki_assets.core.service import BadRequest, NotFound
from tests.support.ingest import counts


def test_a_concept_is_found_by_id_name_or_alias_with_claims_status_and_sources(workspace, seed_graph):
    by_alias = workspace.concept("cypher query language")
    assert by_alias["id"] == workspace.concept("c-cypher")["id"] == workspace.concept("Cypher")["id"] == "c-cypher"
    claims = {c["id"]: c for c in by_alias["claims"]}
    assert claims["cl-cypher-declarative"]["status"] == "disputed"
    assert claims["cl-cypher-declarative"]["contradicts"] == ["cl-cql-imperative"]
    assert claims["cl-cypher-declarative"]["sources"] == ["src-cypher"]
    assert any("disputed" in f for f in by_alias["flags"])
    assert {s["id"] for s in by_alias["sources"]} >= {"src-cypher", "src-cql"}
    assert "c-neo4j" in {r["id"] for r in by_alias["related"]}


def test_an_unknown_concept_is_not_found(workspace, seed_graph):
    with pytest.raises(NotFound, match="Memgraph"):
        workspace.concept("Memgraph")


def test_search_finds_names_first_then_meaning(workspace, seed_graph):
    by_name = workspace.search("pagerank", k=3)
    assert by_name[0]["id"] == "c-pagerank" and by_name[0]["matched"] == "name"
    by_meaning = workspace.search("software that runs containers", k=5)
    assert {"c-docker", "c-kubernetes"} & {h["id"] for h in by_meaning}
    # query syntax in the text is only words
    assert workspace.search('name:* OR "', k=3) is not None


def test_bad_requests_say_what_is_wrong(workspace, seed_graph):
    with pytest.raises(BadRequest, match="shape"):
        workspace.ask({"question": "What is Cypher?", "shape": "poem"})
    with pytest.raises(BadRequest, match="blank"):
        workspace.ask({"question": "   "})
    with pytest.raises(BadRequest, match="relative path"):
        workspace.add_source({"name": "../../etc/passwd.md", "text": "x"})
    with pytest.raises(BadRequest, match="empty"):
        workspace.search(" ")
    with pytest.raises(NotFound):
        workspace.impact("src-nowhere")


def test_an_answer_keeps_citations_and_claim_status(workspace, seed_graph):
    answer = workspace.ask({"question": "What is Cypher?"})
    assert answer["citations"] and answer["shape"] == "what_is"
    assert any("disputed" in f for f in answer["flags"])
    status = {fact["id"]: fact["status"] for fact in answer["facts"]}
    cited = {f for sentence in answer["sentences"] for f in sentence["fact_ids"]}
    assert set(status) == cited
    assert status["cl-cypher-declarative"] == status["cl-cql-imperative"] == "disputed"
    assert status["cl-cypher-gql"] == "current"


def test_a_source_given_as_text_is_written_and_ingested_like_a_file(workspace, store):
    before = counts(store)["nodes"]
    report = workspace.add_source(
        {"name": "notes/raft.md", "text": "# Raft\n\nRaft is a consensus algorithm. etcd uses Raft."}
    )
    assert report["sources"]["new"] == 1 and report["sources"]["failed"] == 0
    assert (workspace.settings.sources_dir / "notes" / "raft.md").read_text(encoding="utf-8").startswith("# Raft")
    assert counts(store)["nodes"] > before
    assert workspace.concept("Raft")["sources"][0]["path"].endswith("raft.md")
    again = workspace.add_source(
        {"name": "notes/raft.md", "text": "# Raft\n\nRaft is a consensus algorithm. etcd uses Raft."}
    )
    assert again["sources"]["unchanged"] == 1
