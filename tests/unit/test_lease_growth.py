"""The pure parts of the lease-growth benchmark: sizes, the ratio, and the seeded names."""

from __future__ import annotations

import pytest

from graphwiki_assets.core.config import default_config
from graphwiki_assets.core.evals.lease_growth import growth_ratio
from graphwiki_assets.core.evals.seed_concepts import SeedConcept, corpus_concepts, distinct, padded, seed_plan
from graphwiki_assets.core.store.keys import keys_for

RECORDS = [
    {
        "id": "a",
        "title": "Lake Geneva",
        "text": "Lake Geneva is a lake on the north side of the Alps, shared between Switzerland and France. "
        "The city of Geneva lies at its south-western end.",
    },
    {
        "id": "b",
        "title": "Carl Rogers",
        "text": "Carl Rogers was an American psychologist. He taught at the University of Chicago and "
        "founded person-centered therapy with colleagues at Ohio State University.",
    },
    {
        "id": "c",
        "title": "Rhone Glacier",
        "text": "The Rhone Glacier is the source of the Rhone River in the Swiss Alps. "
        "The river flows through Lake Geneva before it reaches France.",
    },
]


def concept(name: str, type_: str = "Concept") -> SeedConcept:
    keys = tuple(keys_for(name, []))
    return SeedConcept(name, type_, type_, "", (), keys, "")


def test_the_ratio_is_the_largest_sizes_median_over_the_smallests():
    assert growth_ratio([0.5, 0.75, 1.5]) == 3.0
    assert growth_ratio([0.5]) is None  # one size: nothing grew
    assert growth_ratio([0.0, 1.0]) is None


def test_a_name_is_seeded_once_by_its_normal_form_first_occurrence_first():
    names = [c.name for c in distinct([concept("Lake Geneva"), concept("lake geneva"), concept("Geneva")])]
    assert names == ["Lake Geneva", "Geneva"]


def test_padded_names_are_deterministic_new_and_typed_by_their_head():
    real = [concept("Jan Philip Solovej", "Person"), concept("George Washington University", "Organization")]
    real.append(concept("Rhone Glacier", "Place"))
    taken = {k for c in real for k in c.keys} | set(keys_for("Jan Glacier", []))
    made = padded(real, taken, 4)
    assert made == padded(real, taken, 4)  # the same rule, the same names
    assert [c.name for c in made] == [
        "Jan Washington University",
        "George Glacier",
        "Rhone Philip Solovej",
        "George Philip Solovej",
    ]  # "Jan Glacier" is a key the corpus has: skipped
    assert [c.type for c in made] == ["Organization", "Place", "Person", "Person"]
    assert all(c.padded and c.summary == "" and c.identity == "" for c in made)
    keys = [k for c in made for k in c.keys]
    assert len(keys) == len(set(keys)) and not set(keys) & taken
    assert len(padded(real, taken, 100)) == 5  # every pair of 3 names once, less the taken one


def test_the_plan_for_a_size_is_the_beginning_of_a_larger_ones_and_refuses_too_many():
    per_record = corpus_concepts(RECORDS, default_config().taxonomy)
    assert per_record == corpus_concepts(RECORDS, default_config().taxonomy)
    assert all(per_record)
    small, large = seed_plan(per_record, 2, 5), seed_plan(per_record, 2, 15)
    assert small == large[:5]
    real = [c for c in large if not c.padded]
    # the background is the first two records: a name only the probe (the third) has is no seed
    probe_only = {c.keys[0] for c in per_record[2]} - {c.keys[0] for r in per_record[:2] for c in r}
    assert probe_only and not probe_only & {c.keys[0] for c in large}
    assert len({c.id for c in large}) == 15 and real == large[: len(real)] and len(real) < 15
    with pytest.raises(ValueError, match="fewer than the 100000 concepts"):
        seed_plan(per_record, 2, 100_000)


def test_the_command_refuses_a_bad_size_before_loading_anything(capsys):
    from graphwiki_assets.cli.main import main

    with pytest.raises(SystemExit) as refused:
        main(["bench", "lease-growth", "--sizes", "2000,ten"])
    assert refused.value.code == 2
    assert "not a comma-separated list of whole numbers" in capsys.readouterr().err
