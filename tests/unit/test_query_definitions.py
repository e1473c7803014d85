"""The form of a defining sentence, and the name forms a near match may take."""

from __future__ import annotations

import pytest

from graphwiki_assets.core.query.closeness import name_form_of
from graphwiki_assets.core.query.definitions import defines


@pytest.mark.parametrize(
    "text",
    [
        "Quillbase is a distributed key-value store.",
        "The tessel is the unit of replication.",
        "Quillbase (QB) is an open-source database.",
        "Quillbase, a key-value store, keeps configuration data.",
        "Tessel: the unit of replication in Quillbase.",
        "Tessels are one of the building blocks of a cluster.",
        "QB stands for Quillbase.",
        "Quillbase is also a library.",
    ],
)
def test_a_definitional_sentence_defines_its_subject(text):
    assert defines(text, ["Quillbase", "QB", "tessel", "Tessels"])


@pytest.mark.parametrize(
    "text",
    [
        "Quillbase is written in Go.",
        "Quillbase runs on Linux.",
        "Quillbasement is a room.",
        "A snapshot of Quillbase is a file.",
        "Compaction is a process.",
    ],
)
def test_other_sentences_do_not(text):
    assert not defines(text, ["Quillbase"])


def test_a_near_match_is_the_name_in_another_form_not_a_name_sharing_a_word():
    assert name_form_of("Neo4j GDS", ["Neo4j Graph Data Science", "GDS"])
    assert name_form_of("Kuberntes", ["Kubernetes"])
    assert not name_form_of("Docker Swarm", ["docker run"])
    assert not name_form_of("France", ["United States"])
    assert not name_form_of("Zab protocol", ["zap"])


def test_a_plural_name_is_defined_by_its_singular():
    # a concept named after its section ("Tessel Stores") is defined sentence by sentence
    assert defines("A tessel store is a directory of replicated tessels.", ["Tessel Stores"])
    assert not defines("A tessel is a unit.", ["Tessel Stores"])
