"""Answer faithfulness: the offline support check, the eval's arithmetic on hand-made
answers, the support call over the OpenAI protocol, and one tiny invented corpus answered
end to end on a real Neo4j."""

from __future__ import annotations

from dataclasses import replace

import pytest

from graphwiki_assets.cli.main import main
from graphwiki_assets.core.evals import answers
from graphwiki_assets.core.llm.calls import SupportPair, SupportRequest
from graphwiki_assets.core.llm.client import build_llm
from graphwiki_assets.core.llm.offline.support import check
from graphwiki_assets.core.llm.rules_server import RulesServer

FACT = "The Quorl valve opens at a pressure of 40 bar during the night shift."


@pytest.mark.parametrize(
    "statement, supported",
    [
        ("The Quorl valve opens at 40 bar.", True),  # the fact's own words, fewer of them
        ("The Quorl valve opens at 60 bar.", False),  # a number the fact does not give
        ("The Quorl valve never opens during the night shift.", False),  # a negation it does not have
        ("The Quorl valve was designed by Ada Quell in Varn.", False),  # mostly new words
    ],
)
def test_the_offline_check_reads_support_off_the_words(statement, supported):
    assert check(SupportPair(pair_id="1", statement=statement, evidence=[FACT]))[0] is supported


def test_rendered_marks_are_not_part_of_the_statement():
    rendered = "Lake Ombra is 40 m deep [disputed — see claim-2] [needs review — see claim-9] [source: src-1, src-2]."
    assert answers.statement(rendered) == "Lake Ombra is 40 m deep."


def test_the_control_pairs_each_statement_with_other_evidence():
    pairs = [SupportPair(pair_id=str(i), statement=f"s{i}", evidence=[e]) for i, e in enumerate(["a", "a", "b"])]
    swapped = answers.swapped(pairs)
    assert [(p.statement, p.evidence) for p in swapped] == [("s0", ["b"]), ("s1", ["b"]), ("s2", ["a"])]
    assert answers.swapped(pairs[:2]) == []  # nothing different to swap in


def _question(needed_retrieved: bool, abstained: bool, supported: list[bool]) -> dict:
    return {
        "needed_retrieved": needed_retrieved,
        "abstained": abstained,
        "abstention_correct": abstained == (not needed_retrieved),
        "answer_found": False,
        "uncited": [],
        "sentences": [{"supported": s} for s in supported],
    }


def test_abstention_is_right_exactly_when_it_matches_what_was_retrieved():
    rows = [
        _question(True, False, [True, False]),  # answered with the documents: right
        _question(False, True, []),  # abstained without them: right
        _question(False, False, [True]),  # answered without them: wrong
        _question(True, True, []),
    ]  # abstained with them: wrong
    s = answers.summarise(rows)
    assert s["abstention_correct"] == 0.5 and s["needed_not_retrieved"] == 2
    assert s["abstained_when_missing"] == 0.5 and s["answered_when_retrieved"] == 0.5
    assert (s["sentences"], s["supported"], s["supported_rate"]) == (3, 2, round(2 / 3, 4))


def test_an_answer_line_that_is_no_cited_sentence_is_counted():
    answer = {
        "sentences": [{"text": "A is B [source: s1].", "fact_ids": ["f1"], "source_ids": ["s1"]}],
        "answer": "A is B [source: s1].\nA is surely C.\nHistory (superseded, not current):\n- old",
    }
    assert answers.uncited_lines(answer) == ["A is surely C."]


def test_the_support_call_runs_unchanged_over_the_openai_protocol(settings):
    request = SupportRequest(
        pairs=[
            SupportPair(pair_id="1", statement="The Quorl valve opens at 40 bar.", evidence=[FACT]),
            SupportPair(pair_id="2", statement="The Quorl valve opens at 60 bar.", evidence=[FACT]),
        ]
    )
    with RulesServer() as server:
        llm = build_llm(replace(settings.llm, base_url=server.base_url, api_key="test", model="rules"))
        reply = llm.support(request)
        assert server.requests == 1
    assert [v.supported for v in reply.verdicts] == [True, False]
    assert reply.backend.startswith("openai")


CORPUS = [
    {
        "id": "mill",
        "title": "Tarnwell Mill",
        "text": "Tarnwell Mill is a paper mill in Varn. Tarnwell Mill was founded by Ada Quell.",
    },
    {
        "id": "quell",
        "title": "Ada Quell",
        "text": "Ada Quell was an engineer from Varn. Ada Quell designed the Quorl valve.",
    },
]
QUESTIONS = [
    {"id": "q1", "question": "What is Tarnwell Mill?", "answer": "paper mill", "needed": ["mill"]},
    {"id": "q2", "question": "What is the Brisk scheduler?", "answer": "none", "needed": ["quell"]},
]


def test_a_tiny_corpus_answered_end_to_end(store, embedder, settings):
    result = answers.run_answers(store, embedder, build_llm(settings.llm), CORPUS, QUESTIONS, name="tiny")
    rows = {q.id: q for q in result.questions}
    assert not rows["q1"].abstained and rows["q1"].needed_retrieved and rows["q1"].answer_found
    assert rows["q2"].abstained and rows["q2"].abstention_correct  # nothing in the graph names it
    sentences = [s for q in rows.values() for s in q.sentences]
    assert result.sentences == len(sentences) > 0
    assert result.supported == sum(s.supported for s in sentences)
    assert {u.sentence for u in result.unsupported} == {s.statement for s in sentences if not s.supported}
    assert result.uncited_sentences == 0 and result.checker.llm_calls >= 1

    from graphwiki_assets.defs.evals.assets import answers_metadata

    metadata = answers_metadata(result)
    assert metadata["abstention_correct"].value == result.abstention_correct
    table = {r.data["id"]: r.data for r in metadata["questions"].records}
    assert table["q2"]["abstained"] is True and table["q2"]["sentences"] == len(rows["q2"].sentences)
    assert "data:image/png;base64," in metadata["plot"].value


def test_the_cli_wants_corpus_and_questions_together(tmp_path, capsys):
    assert main(["eval", "answers", "--corpus", str(tmp_path / "c.jsonl")]) == 1
    assert "give both --corpus and --questions" in capsys.readouterr().err
