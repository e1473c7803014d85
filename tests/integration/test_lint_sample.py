"""The spot-check sample is sized for a person: N judgments of all verdicts together,
stratified by verdict, the same for the same seed, with the report saying how many exist."""

from __future__ import annotations

from collections import Counter

from graphwiki_assets.core.lint.judgments import SAMPLE_SIZE, allocate, sample_judgments
from graphwiki_assets.core.lint.report import LintConfig, run_lint

# A corpus's shape: DIFFERENT verdicts far outnumber RELATED ones, and merges are rare.
PLANTED = {"SAME": 3, "RELATED": 12, "DIFFERENT": 85}


def plant_judgments(store, reviewed: int = 0) -> None:
    rows = [
        {"id": f"judgment-{verdict.lower()}-{n:03d}", "verdict": verdict, "reviewed": n < reviewed}
        for verdict, count in PLANTED.items()
        for n in range(count)
    ]
    store.query(
        "UNWIND $rows AS r CREATE (:Judgment {id: r.id, verdict: r.verdict, reviewed: r.reviewed, "
        "mention: 'm-' + r.id, candidate_id: 'c-' + r.id, candidate_name: 'candidate', backend: 'rules'})",
        rows=rows,
    )


def test_the_sample_takes_equal_shares_of_each_verdict_while_they_last():
    assert allocate({"SAME": 3, "RELATED": 12, "DIFFERENT": 85}, 20) == {"SAME": 3, "RELATED": 9, "DIFFERENT": 8}
    assert allocate({"SAME": 3, "RELATED": 4, "DIFFERENT": 85}, 20) == {"SAME": 3, "RELATED": 4, "DIFFERENT": 13}
    assert allocate({"SAME": 1, "DIFFERENT": 2}, 20) == {"SAME": 1, "DIFFERENT": 2}
    assert allocate({"SAME": 5}, 0) == {"SAME": 0}


def test_lint_samples_twenty_of_a_hundred_judgments_with_every_verdict(store):
    plant_judgments(store)

    sample = run_lint(store).check("judgment_sample")

    assert SAMPLE_SIZE == 20 and LintConfig().sample_size == SAMPLE_SIZE
    assert (sample.count, sample.total, sample.severity) == (20, 100, "info")
    assert Counter(r["verdict"] for r in sample.rows) == {"SAME": 3, "RELATED": 9, "DIFFERENT": 8}
    assert len({r["id"] for r in sample.rows}) == 20
    assert "20 sampled of 100 unreviewed (SAME 3 of 3, RELATED 9 of 12, DIFFERENT 8 of 85), seed 0" in (
        sample.description
    )


def test_the_report_says_how_many_exist_and_how_many_are_sampled(store):
    plant_judgments(store)

    text = run_lint(store, config=LintConfig(sample_size=5)).markdown()

    section = text.split("### judgment_sample")[1]
    assert "5 sampled of 100 unreviewed" in section
    assert "more (100 in total)" not in section


def test_one_seed_draws_one_sample_and_another_seed_another(store):
    plant_judgments(store)

    first = [j.id for j in sample_judgments(store, 20, seed=7).judgments]

    assert first == [j.id for j in sample_judgments(store, 20, seed=7).judgments]
    assert first != [j.id for j in sample_judgments(store, 20, seed=8).judgments]
    assert [j.verdict for j in sample_judgments(store, 3, seed=7).judgments] == ["SAME", "RELATED", "DIFFERENT"]


def test_reviewed_judgments_are_never_sampled(store):
    plant_judgments(store, reviewed=2)

    sample = sample_judgments(store, 100)

    assert sample.unreviewed == {"SAME": 1, "RELATED": 10, "DIFFERENT": 83}
    assert len(sample.judgments) == 94
    assert not any(j.reviewed for j in sample.judgments)
