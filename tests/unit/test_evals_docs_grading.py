"""The real-document eval's grader, its key and its label files, without a database."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graphwiki_assets.core.evals.datasets import DOCS_SETS
from graphwiki_assets.core.evals.docs import grading, samples
from graphwiki_assets.core.evals.docs.run import corpus_files

KEY = grading.KeyQuestion(
    id="q",
    question="What is a quorl?",
    shape="what_is",
    split="report",
    facts=[["valve"], ["40 bar", "forty bar"]],
    sources=["docs/quorl.md"],
)
OUTSIDE = grading.KeyQuestion(
    id="o", question="Who is the mayor of Varn?", shape="out_of_corpus", split="tune", abstain=True
)


def _answer(text: str, cited: bool = True, sentences: bool = True) -> dict:
    return {
        "shape": "what_is",
        "answer": text,
        "sentences": [{"text": text, "fact_ids": ["c1"], "source_ids": ["s1"]}] if sentences else [],
        "citations": ["s1"] if cited else [],
        "rung": "graph" if sentences else "nothing",
    }


@pytest.mark.parametrize(
    "text, cited, grade",
    [
        ("A quorl is a valve that opens at 40 bar.", ["docs/quorl.md"], "useful"),
        ("A Quorl is a VALVE; it opens at forty-bar.", ["docs/quorl.md", "docs/other.md"], "useful"),
        ("A quorl is a valve that opens at 40 bar.", ["docs/other.md"], "partly"),  # right facts, wrong file
        ("A quorl is a valve.", ["docs/quorl.md"], "partly"),  # one fact of two
        ("Quorls are painted blue.", ["docs/quorl.md"], "partly"),  # only the gold file
        ("Quorls are painted blue.", ["docs/other.md"], "wrong"),
        ("A quorl opens at 140 bar.", [], "wrong"),  # whole words: "140 bar" is not "40 bar"
    ],
)
def test_an_answer_is_graded_by_its_facts_and_its_cited_files(text, cited, grade):
    assert grading.graded(KEY, _answer(text), cited).grade == grade


def test_an_abstention_is_missed_on_an_answerable_question_and_right_on_an_outside_one():
    nothing = _answer("The graph has no information on this.", cited=False, sentences=False)
    assert grading.graded(KEY, nothing, []).grade == "missed"
    assert grading.graded(OUTSIDE, nothing, []).grade == "abstained"
    # Quoting raw sources that share a word is an answer, not an abstention.
    quoted = _answer('No concept matches "mayor":\n- "Varn has a mill." [s1]', cited=True, sentences=False)
    assert grading.graded(OUTSIDE, quoted, ["docs/varn.md"]).grade == "answered"


def test_normalising_folds_case_accents_and_punctuation():
    assert grading.normalise("Reinhard Nägele, n-3; get.helm.sh") == "reinhard nagele n 3 get helm sh"
    assert grading.phrase_in("n 3", grading.normalise("compatible with `n-3` versions"))
    assert not grading.phrase_in("n 3", grading.normalise("compatible with n-30 versions"))


def test_shares_are_per_split_and_outside_questions_apart():
    rows = [
        grading.graded(KEY, _answer("a valve at 40 bar"), ["docs/quorl.md"]),  # useful
        grading.graded(KEY, _answer("a valve"), []),  # partly
        grading.graded(KEY, _answer("nothing", cited=False, sentences=False), []),  # missed
        grading.graded(KEY, _answer("blue"), []),  # wrong
        grading.graded(OUTSIDE, _answer("x", cited=False, sentences=False), []),  # abstained (tune)
    ]
    total = grading.summarise(rows)
    assert (total.answerable, total.out_of_corpus) == (4, 1)
    assert (total.useful, total.partly, total.wrong, total.missed) == (0.25, 0.25, 0.25, 0.25)
    split = grading.by_split(rows)
    assert split["report"].abstained_out_of_corpus is None and split["tune"].abstained_out_of_corpus == 1.0
    assert split["tune"].useful is None  # no answerable question in that half


def test_a_bad_key_row_is_refused_with_where_it_stands(tmp_path):
    path = tmp_path / "q.jsonl"
    good = {"id": "a", "question": "?", "shape": "what_is", "split": "tune", "facts": [["x"]], "sources": ["f.md"]}
    bad = {**good, "id": "b", "facts": []}
    path.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n")
    with pytest.raises(ValueError, match=r"q.jsonl:2: .*needs facts and sources"):
        grading.load_key(path)
    path.write_text(json.dumps(good) + "\n")
    with pytest.raises(ValueError, match=r"gold sources not in the corpus"):
        grading.load_key(path, tmp_path)


def test_the_committed_key_is_consistent_with_its_corpus():
    """Every fact of the Helm key is written in one of its gold files, the halves are even
    and each has out-of-corpus questions: the key can be met, on both halves."""
    ds = DOCS_SETS["docs_eval_helm"]
    key = grading.load_key(ds.questions, ds.corpus)
    for q in key:
        text = " ".join(grading.normalise((ds.corpus / s).read_text(encoding="utf-8")) for s in q.sources)
        for fact in q.facts:
            assert any(grading.phrase_in(grading.normalise(p), text) for p in fact), (q.id, fact)
    halves = {s: [q for q in key if q.split == s] for s in ("tune", "report")}
    assert len(key) >= 36 and abs(len(halves["tune"]) - len(halves["report"])) <= 1
    assert sum(q.abstain for q in key) >= 6 and all(any(q.abstain for q in h) for h in halves.values())


def test_the_corpus_folder_is_read_as_a_user_folder():
    """Every file is counted, read or not: the reader decides (today .md, .mdx left out)."""
    corpus = DOCS_SETS["docs_eval_helm"].corpus
    files, others = corpus_files(corpus)
    assert len(files) + sum(others.values()) == 127
    assert set(corpus.rglob("*.md")) <= set(files) and set(others) <= {".mdx"}


def test_labels_are_found_by_name_or_by_the_pair_in_either_order(tmp_path):
    concepts = tmp_path / "concept_labels.jsonl"
    concepts.write_text(json.dumps({"name": "Chart Museum", "label": "real", "why": "a project"}) + "\n")
    labels = samples.load_labels(concepts, "concept")
    assert samples.concept_key("chart museum") in labels
    pairs = tmp_path / "contradiction_labels.jsonl"
    pairs.write_text(json.dumps({"a": "X is on.", "b": "X is off.", "label": "real"}) + "\n")
    assert samples.pair_key("X is off", "x is ON") in samples.load_labels(pairs, "contradiction")
    pairs.write_text(json.dumps({"a": "X is on.", "b": "X is off.", "label": "maybe"}) + "\n")
    with pytest.raises(ValueError, match="label must be one of"):
        samples.load_labels(pairs, "contradiction")
    assert samples.load_labels(tmp_path / "absent.jsonl", "concept") == {}


def test_a_sample_counts_the_graded_and_lists_the_rest(tmp_path):
    items = [{"name": n} for n in ("Helm", "1m", "Tiller", "helm")]
    labels = {samples.concept_key("Helm"): {"label": "real"}, samples.concept_key("1m"): {"label": "junk"}}
    sample = samples._labelled(items, [samples.concept_key(i["name"]) for i in items], labels, samples.CONCEPT_LABELS)
    assert (sample.size, sample.graded) == (4, 3)
    assert sample.counts == {"real": 2, "junk": 1, "duplicate": 0}
    assert sample.shares["junk"] == round(1 / 3, 4)
    assert [i["name"] for i in sample.ungraded] == ["Tiller"]
    written = samples.write_unlabelled(tmp_path, sample, samples._labelled([], [], {}, samples.CONTRADICTION_LABELS))
    rows = [json.loads(line) for line in Path(written["concepts"]).read_text().splitlines()]
    assert rows == [{"name": "Tiller", "label": "", "why": "", "type": None}]


def test_the_sample_moves_by_at_most_one_item_when_one_concept_is_added():
    """Labels are written for the names a sample draws; a run that builds one concept more
    must not draw a new sample (random.sample by index would)."""
    rows = [{"name": f"concept {n}"} for n in range(500)]
    key = lambda r: samples.concept_key(r["name"])  # noqa: E731
    before = {r["name"] for r in samples._draw(rows, 50, 29, key)}
    after = {r["name"] for r in samples._draw([*rows, {"name": "one more"}], 50, 29, key)}
    assert len(before) == len(after) == 50 and len(before - after) <= 1
    assert before != {r["name"] for r in samples._draw(rows, 50, 30, key)}  # the seed matters
