"""The real-document eval end to end on a real Neo4j: a folder of four markdown files read as a
user's files, four questions whose keys make one answer useful, one partly, one wrong, and
an out-of-corpus question abstained on; the samples and the CLI that writes what to label."""

from __future__ import annotations

import json

import pytest

from graphwiki_assets.cli.main import main
from graphwiki_assets.core.evals.docs import grading
from graphwiki_assets.core.evals.docs.run import DocsSet, run_docs
from graphwiki_assets.core.llm.client import build_llm

FILES = {
    "mill.md": "---\ntitle: Tarnwell Mill\ndate: 2019-04-02\n---\n\n# Tarnwell Mill\n\n"
    "Tarnwell Mill is a paper mill in Varn. Tarnwell Mill was founded by Ada Quell.\n",
    "people/quell.md": "---\ntitle: Ada Quell\n---\n\n# Ada Quell\n\n"
    "Ada Quell was an engineer from Varn. Ada Quell designed the Quorl valve.\n",
    "blog/2021-06-01-pell.md": "---\ntitle: The Pell Store\ndate: 2021-06-01\n---\n\n"
    "The Pell Store is a ledger of ferrules kept in Cobalt Weir.\n",
    "notes.txt": "Varn is a river town with one bridge.\n",
}
MILL = "What is Tarnwell Mill?"
KEY = [
    # one question answered once, graded by three keys: the grade is the key's, not luck
    {"id": "useful", "question": MILL, "facts": [["paper mill"]], "sources": ["mill.md"]},
    {"id": "partly", "question": MILL, "facts": [["paper mill"], ["built in 1820"]], "sources": ["mill.md"]},
    {"id": "wrong", "question": MILL, "facts": [["steel works"]], "sources": ["blog/2021-06-01-pell.md"]},
    {"id": "outside", "question": "What is the Brisk scheduler?", "shape": "out_of_corpus", "abstain": True},
]


@pytest.fixture
def slice_(tmp_path):
    corpus = tmp_path / "tiny" / "corpus"
    for name, text in FILES.items():
        (corpus / name).parent.mkdir(parents=True, exist_ok=True)
        (corpus / name).write_text(text, encoding="utf-8")
    rows = [{"shape": "what_is", "split": "report" if n % 2 else "tune", **q} for n, q in enumerate(KEY)]
    (tmp_path / "tiny" / "questions.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (tmp_path / "tiny" / "concept_labels.jsonl").write_text(
        json.dumps({"name": "Tarnwell Mill", "label": "real", "why": "the mill the files describe"}) + "\n"
    )
    return DocsSet.beside(corpus)


def test_a_tiny_folder_is_graded_useful_partly_wrong_and_abstained(store, embedder, settings, slice_):
    key = grading.load_key(slice_.questions, slice_.corpus)
    result = run_docs(store, embedder, build_llm(settings.llm), slice_, key)
    grades = {q.id: q.grade for q in result.questions}
    assert grades == {"useful": "useful", "partly": "partly", "wrong": "wrong", "outside": "abstained"}
    useful = next(q for q in result.questions if q.id == "useful")
    assert "mill.md" in useful.cited and useful.facts_matched == [0]
    assert result.files == 4 and result.ingest["sources"]["new"] == 4
    # Halves: tune holds useful and wrong, report holds partly and the outside question.
    assert result.by_split["tune"].useful == 0.5 and result.by_split["tune"].wrong == 0.5
    assert result.by_split["report"].partly == 1.0
    assert result.by_split["report"].abstained_out_of_corpus == 1.0
    concepts = result.concepts
    assert 0 < concepts.sample.size == min(50, concepts.concepts)
    assert concepts.fallback_share == round(concepts.fallback / concepts.concepts, 4)
    # typed by nothing is a part of the fallback: a word the taxonomy sends there was still a word
    assert 0 <= concepts.untyped <= concepts.fallback and concepts.untyped_share == round(
        concepts.untyped / concepts.concepts, 4
    )
    labelled = {i["name"]: i["label"] for i in concepts.sample.items}
    assert labelled.get("Tarnwell Mill") == "real" and concepts.sample.graded == 1
    assert len(concepts.sample.ungraded) == concepts.sample.size - 1
    assert result.contradictions.sample.size == min(20, result.contradictions.flags)

    from graphwiki_assets.defs.evals.assets import docs_metadata

    metadata = docs_metadata(result)
    halves = {r.data["half"]: r.data for r in metadata["by_half"].records}
    assert set(halves) >= {"report", "all"} and halves["all"]["n"] == metadata["n"].value == 4
    assert "outside" in {r.data["id"] for r in metadata["questions"].records}


@pytest.mark.integration  # a Neo4j or model endpoint of its own
def test_the_cli_runs_on_the_eval_instance_and_writes_what_to_label(slice_, settings, monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("GRAPHWIKI_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("GRAPHWIKI_EVAL_NEO4J_URI", settings.neo4j.uri)  # the disposable test server
    monkeypatch.setenv("GRAPHWIKI_EVAL_NEO4J_PASSWORD", settings.neo4j.password)
    todo = tmp_path / "todo"
    args = ["eval", "docs", "--corpus", str(slice_.corpus), "--limit", "1", "--write-unlabelled", str(todo), "--json"]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["n"] == 1 and out["questions"][0]["grade"] == "useful"
    names = [json.loads(line)["name"] for line in (todo / "concept_labels.todo.jsonl").read_text().splitlines()]
    assert names == [i["name"] for i in out["concepts"]["sample"]["ungraded"]] and "Tarnwell Mill" not in names


def test_a_key_naming_a_file_outside_the_corpus_is_refused(slice_, monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("GRAPHWIKI_HOME", str(tmp_path / "home"))
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({**KEY[0], "shape": "what_is", "split": "tune", "sources": ["gone.md"]}) + "\n")
    assert main(["eval", "docs", "--corpus", str(slice_.corpus), "--questions", str(bad)]) == 1
    assert "gold sources not in the corpus" in capsys.readouterr().err
