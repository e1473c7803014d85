"""Answers filed back: kept with their question, citations and facts; found again by the same
question reworded; flagged when a source they cite changes; never a source themselves."""

from __future__ import annotations

import json

import dagster as dg
import pytest

from graphwiki_assets.cli.main import main
from graphwiki_assets.core.llm.client import build_llm
from graphwiki_assets.core.query import ask
from graphwiki_assets.core.query.filed import NotFileable, file_answer
from tests.support.ingest import SMOKE_TEXTS, ingest, write_sources


@pytest.fixture
def smoke(store, embedder, settings, tmp_path):
    folder = tmp_path / "sources"
    ingest(store, embedder, settings, write_sources(folder, SMOKE_TEXTS), cache=False)
    return folder, build_llm(settings.llm)


def _answer_nodes(store) -> list[dict]:
    return store.query("""
        MATCH (a:Answer)
        RETURN a.id AS id, a.question AS question, a.needs_review AS needs_review, a.review_reason AS reason,
               [(a)-[:CITES]->(s:Source) | s.id] AS cites, COUNT { (a)-[:USED]->() } AS used,
               COUNT { (a)-[:DERIVED_FROM]->() } AS derived_from""")


def test_a_good_answer_is_filed_once_with_what_it_cites_and_used(store, embedder, smoke):
    _, llm = smoke
    answer = ask(store, embedder, llm, "What is Cypher?")
    first, again = file_answer(store, embedder, answer), file_answer(store, embedder, answer)
    assert first == again
    [node] = _answer_nodes(store)
    assert node["id"] == first and node["question"] == "What is Cypher?"
    assert set(node["cites"]) == set(answer.citations) and node["used"] >= 1
    assert node["derived_from"] == 0 and node["needs_review"] is False


def test_an_answer_that_found_nothing_is_not_filed(store, embedder, smoke):
    _, llm = smoke
    empty = ask(store, embedder, llm, "What is the Zubrowka Protocol?")
    with pytest.raises(NotFileable, match="found nothing"):
        file_answer(store, embedder, empty)
    assert _answer_nodes(store) == []


def test_the_same_question_reworded_is_shown_the_filed_answer(store, embedder, smoke):
    _, llm = smoke
    fid = file_answer(store, embedder, ask(store, embedder, llm, "What is Cypher?"))
    later = ask(store, embedder, llm, "What's Cypher?")
    assert later.retrieved["answers"] == [fid]
    # shown as what it is, and cited through the sources it cited
    assert fid in {f for s in later.sentences for f in s.fact_ids}
    assert any(fid in flag and "not a source itself" in flag for flag in later.flags)
    other = ask(store, embedder, llm, "What is Neo4j Graph Data Science?")
    assert other.retrieved["answers"] == []


def test_a_changed_cited_source_flags_the_filed_answer_and_it_never_counts_as_a_source(
    store, embedder, settings, smoke
):
    folder, llm = smoke
    answer = ask(store, embedder, llm, "What is Cypher?")
    fid = file_answer(store, embedder, answer)
    before = store.query("MATCH (s:Source) RETURN count(s) AS n")[0]["n"]
    counts = {
        r["id"]: r["n"]
        for r in store.query("MATCH (c:Concept) RETURN c.id AS id, COUNT { (c)-[:DERIVED_FROM]->() } AS n")
    }

    cited = store.query("MATCH (:Answer {id: $id})-[:CITES]->(s:Source) RETURN s.path AS path LIMIT 1", id=fid)[0]
    path = folder / cited["path"].rsplit("/", 1)[-1]
    path.write_text(path.read_text() + "\nCypher also reads CSV files.", encoding="utf-8")
    ingest(store, embedder, settings, [path], cache=False)

    [node] = _answer_nodes(store)
    assert node["needs_review"] is True and node["reason"].startswith("a source it cites changed")
    # the changed file adds one Source; the answer adds none and is no concept's provenance
    assert store.query("MATCH (s:Source) RETURN count(s) AS n")[0]["n"] == before + 1
    assert not store.query("MATCH (a:Answer)-[r:DERIVED_FROM|CONTRADICTS|ABOUT]-() RETURN r LIMIT 1")
    after = {
        r["id"]: r["n"]
        for r in store.query("MATCH (c:Concept) RETURN c.id AS id, COUNT { (c)-[:DERIVED_FROM]->() } AS n")
    }
    assert all(after.get(cid, n) >= n for cid, n in counts.items())
    later = ask(store, embedder, llm, "What is Cypher?")
    assert fid in later.retrieved["answers"]
    assert any(f"{fid} needs review" in flag for flag in later.flags)
    assert any(fid in s.fact_ids and "[needs review — see" in s.text for s in later.sentences)


def test_ask_file_from_the_command_line(store, embedder, smoke, settings, monkeypatch, tmp_path, capsys):
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "NEO4J_USERNAME", "NEO4J_DATABASE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NEO4J_URI", settings.neo4j.uri)
    monkeypatch.setenv("NEO4J_PASSWORD", settings.neo4j.password)
    monkeypatch.setenv("GRAPHWIKI_HOME", str(tmp_path))
    assert main(["ask", "What is Cypher?", "--file", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["filed"] and [n["id"] for n in _answer_nodes(store)] == [data["filed"]]
    assert main(["ask", "What is the Zubrowka Protocol?", "--file"]) == 1
    assert "Not filed: the answer found nothing" in capsys.readouterr().out


def test_the_dagster_asset_files_a_batch_of_questions(store, embedder, smoke, settings, tmp_path):
    from graphwiki_assets.defs.query.definitions import filed_answers
    from graphwiki_assets.defs.resources import EmbeddingResource, GraphwikiConfig, LLMResource, Neo4jResource

    resources = {
        "neo4j": Neo4jResource(
            uri=settings.neo4j.uri, username=settings.neo4j.username, password=settings.neo4j.password
        ),
        "embeddings": EmbeddingResource(),
        "llm": LLMResource(cache_dir=str(tmp_path / "llm-cache")),
        "graphwiki": GraphwikiConfig(home=str(tmp_path / "home"), sources_dir=str(tmp_path / "sources")),
    }
    result = dg.materialize(
        [filed_answers],
        resources=resources,
        run_config={
            "ops": {"filed_answers": {"config": {"questions": ["What is Cypher?", "What is the Zubrowka Protocol?"]}}}
        },
    )
    assert result.success
    meta = result.get_asset_materialization_events()[0].materialization.metadata
    assert (meta["questions"].value, meta["filed"].value) == (2, 1)
    why_not = {r.data["question"]: r.data["why not"] for r in meta["answers"].records}
    assert "found nothing" in why_not["What is the Zubrowka Protocol?"] and len(_answer_nodes(store)) == 1
