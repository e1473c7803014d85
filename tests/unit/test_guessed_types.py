"""A type that is only an entity recogniser's label is a guess: it keeps no two mentions of
one name apart, and a chunk's stated kind replaces it when one source's chunks are joined."""

from __future__ import annotations

from graphwiki_assets.core.ingest.extraction import merge_extractions
from graphwiki_assets.core.ingest.models import Mention
from graphwiki_assets.core.ingest.screen import exact_batch_homes
from graphwiki_assets.core.llm.calls import ExtractedConcept, ExtractResponse


def mention(index: int, doc: int, type_: str, taxonomy: str, guessed: bool, name: str = "Helm 3") -> Mention:
    return Mention(
        index=index,
        doc=doc,
        source_id=f"s{doc}",
        name=name,
        type=type_,
        taxonomy_type=taxonomy,
        type_guessed=guessed,
        description="",
        aliases=[],
        context="",
        keys=[name.lower()],
        identity="",
    )


def test_two_guesses_of_one_name_are_one_thing():
    mentions = [mention(0, 0, "Place", "Place", True), mention(1, 1, "Organization", "Organization", True)]
    assert exact_batch_homes(mentions, {}) == {1: 0}


def test_stated_kinds_that_are_disjoint_still_keep_one_name_apart():
    mentions = [mention(0, 0, "City", "Place", False), mention(1, 1, "Person", "Person", False)]
    assert exact_batch_homes(mentions, {}) == {}


def test_a_guess_gives_way_to_a_stated_kind_in_its_group():
    mentions = [
        mention(0, 0, "Place", "Place", True),
        mention(1, 1, "Person", "Person", False),
        mention(2, 2, "City", "Place", False),
    ]
    # the group takes the stated kind of mention 1; a stated place is then another thing
    assert exact_batch_homes(mentions, {}) == {1: 0}


def test_a_chunks_stated_kind_replaces_another_chunks_label():
    guessed = ExtractedConcept(name="Helm", type="Person", type_guessed=True)
    stated = ExtractedConcept(name="Helm", type="Manager")
    [joined] = merge_extractions(
        [ExtractResponse(concepts=[guessed], claims=[]), ExtractResponse(concepts=[stated], claims=[])]
    ).concepts
    assert (joined.type, joined.type_guessed) == ("Manager", False)
    [kept] = merge_extractions(
        [ExtractResponse(concepts=[stated], claims=[]), ExtractResponse(concepts=[guessed], claims=[])]
    ).concepts
    assert (kept.type, kept.type_guessed) == ("Manager", False)
