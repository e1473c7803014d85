"""Two claims that are one statement (the same subject, verb and counted thing) are compared
value by value: other numbers, units, dates or polarity decide, not shared words."""

from __future__ import annotations

import pytest

from graphwiki_assets.core.llm.calls import ClaimPair
from graphwiki_assets.core.llm.offline.statements import compare
from graphwiki_assets.core.nlp.model import load_pipeline


@pytest.fixture(scope="module")
def nlp():
    return load_pipeline()


def relation(nlp, a: str, b: str, concept: str = "Tovik Works", aliases: list[str] | None = None):
    pair = ClaimPair(pair_id="p", concept=concept, concept_aliases=aliases or [], new_claim=a, existing_claim=b)
    found = compare(pair, nlp)
    return found[0] if found else None


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        # one statement, two counts of the same thing
        ("Tovik Works runs 14 furnaces.", "Tovik Works runs 9 furnaces.", "contradicts"),
        ("Tovik Works runs fourteen furnaces.", "Tovik Works runs 14 furnaces.", "supports"),
        # the same length in other units, as a writer would round it, and a different one
        ("The Tovik canal is 2,400 metres long.", "The Tovik canal is 7,900 feet long.", "supports"),
        ("The Tovik canal is 2,400 metres long.", "The Tovik canal is 3 miles long.", "contradicts"),
        (
            "The Tovik kiln fires at 1,200 degrees Celsius.",
            "The Tovik kiln fires at 2,192 degrees Fahrenheit.",
            "supports",
        ),
        # "about" admits a rounded figure, not any figure
        ("Tovik Works employs about 300 people.", "Tovik Works employs 312 people.", "supports"),
        ("Tovik Works employs about 300 people.", "Tovik Works employs 900 people.", "contradicts"),
        # a day inside the month the other claim gives is the same date; another year is not
        ("Tovik Works opened on 3 March 1921.", "Tovik Works opened in March 1921.", "supports"),
        ("Tovik Works opened in March 1921.", "Tovik Works opened in the spring of 1930.", "contradicts"),
        # one claim denies the other, by a negation or by a verb that denies its complement
        ("Tovik Works exports steel to Norway.", "Tovik Works does not export steel to Norway.", "contradicts"),
        ("The Tovik furnace reached full heat.", "The Tovik furnace failed to reach full heat.", "contradicts"),
        # the date a statement was true at is not what it states
        ("As of 2019, Tovik Works had no mill in Oslo.", "As of 2021, Tovik Works had no mill in Oslo.", "supports"),
    ],
)
def test_one_statement_is_compared_by_its_values(nlp, a, b, expected):
    assert relation(nlp, a, b) == expected


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # different statements about the same subject: nothing to compare here
        ("Tovik Works runs 14 furnaces.", "Tovik Works was founded in 1921."),
        ("Tovik Works employs 300 people.", "Tovik Works employs 300 engineers in Oslo and 20 in Bergen."),
        # a number right after a name says which thing, so these are two subjects
        ("Tovik 2 was released in 2019.", "Tovik 3 was released in 2021."),
        # two values that changed together over time are a change, left to the other rules
        ("In 2019 Tovik Works had 12 furnaces.", "In 2022 Tovik Works had 20 furnaces."),
        # a count and a length are not one kind of value
        ("The Tovik line has 12 stations.", "The Tovik line has 12 kilometres."),
        # the concept is only mentioned: "it" is something else, in each claim another thing
        ("It was sold to Tovik Works in 1971.", "It was sold to Tovik Works in 1988."),
        ("The population was 1,089 at the Tovik Works census.", "The population was 1,519 at the Tovik Works census."),
    ],
)
def test_claims_that_are_not_one_statement_are_left_to_the_other_rules(nlp, a, b):
    assert relation(nlp, a, b) is None


def test_a_subject_stands_for_the_concept_when_its_clause_names_nothing_of_it(nlp):
    assert relation(nlp, "It was founded in 1921 by two brothers.", "Tovik Works was founded in 1930.") == "contradicts"


def test_an_alias_is_read_as_the_concept_it_names(nlp):
    a, b = "TW runs 14 furnaces.", "Tovik Works runs 9 furnaces."
    assert relation(nlp, a, b, aliases=["TW"]) == "contradicts"
    # a part of it, in a sentence of a document about it
    a, b = "The open-source edition of Tovik Works runs 8 furnaces.", "The open-source edition runs 4 furnaces."
    assert relation(nlp, a, b) == "contradicts"


def test_two_claims_that_each_leave_their_subject_to_their_document_are_not_compared(nlp):
    # two towns of one region, each in its own article: nothing says they are one town
    a, b = "The population was 1,089 at the census.", "The population was 1,519 at the census."
    assert relation(nlp, a, b) is None
    assert relation(nlp, "Tovik Works had 1,089 workers at the census.", b.replace("population", "staff")) is None
