"""Answers kept by what the model was shown: reused when a pair is shown again unchanged,
asked when it is new or shown differently, never kept when the model gave none."""

from __future__ import annotations

from graphwiki_assets.core.ingest.answered import Answered, Kept, judge_key
from graphwiki_assets.core.llm.calls import EntityView


def test_a_pair_shown_again_takes_its_answer_and_only_new_pairs_are_asked():
    kept: Kept[str] = Kept()
    calls: list[list[str]] = []

    def ask(keys):
        def answer(missing):
            calls.append([keys[n] for n in missing])
            return [f"answer {keys[n]}" for n in missing]

        return answer

    first = ["a", "b"]
    assert kept.through(first, ask(first)) == ["answer a", "answer b"]
    second = ["b", "c", "a"]
    assert kept.through(second, ask(second)) == ["answer b", "answer c", "answer a"]
    assert calls == [["a", "b"], ["c"]]
    assert (kept.reused, kept.asked) == (2, 3)


def test_a_pair_without_an_answer_is_asked_again():
    kept: Kept[str] = Kept()
    assert kept.through(["a"], lambda missing: [None]) == [None]
    assert kept.through(["a"], lambda missing: ["now"]) == ["now"]
    assert kept.asked == 2 and kept.reused == 0


def test_nothing_is_asked_when_every_pair_was_answered():
    kept: Kept[str] = Kept()
    kept.through(["a"], lambda missing: ["x"])

    def never(missing):
        raise AssertionError("asked the model again")

    assert kept.through(["a", "a"], never) == ["x", "x"]


def test_a_candidate_shown_with_another_summary_is_another_pair():
    mention = EntityView(name="Quillmesh", type="Software", context="a message broker")
    before = EntityView(name="Quillmesh", context="a broker")
    after = EntityView(name="Quillmesh", context="a broker written in Rust")
    assert judge_key(mention, before) != judge_key(mention, after)
    assert judge_key(mention, before) == judge_key(mention.model_copy(), before.model_copy())


def test_counts_restart_for_the_commits_pass():
    answered = Answered()
    answered.judge.through(["a"], lambda missing: ["x"])
    answered.restart_counts()
    answered.judge.through(["a"], lambda missing: ["y"])
    assert answered.counts() == {"judge_reused": 1, "judge_asked": 0, "conflicts_reused": 0, "conflicts_asked": 0}
