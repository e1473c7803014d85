"""A type from the configured taxonomy for a concept, read from its sentence and its section,
and one concept for a name and its stated expansion or spacing variant."""

from __future__ import annotations

import pytest

from graphwiki_assets.core.config.kinds import KindIndex, type_words
from graphwiki_assets.core.config.load import default_config
from graphwiki_assets.core.ingest.extraction import written_aliases_only
from graphwiki_assets.core.ingest.screen import types_compatible
from graphwiki_assets.core.ingest.taxonomy import TypeMapper
from graphwiki_assets.core.llm.calls import ExtractedConcept, ExtractRequest, ExtractResponse, RouteRequest
from graphwiki_assets.core.llm.offline.backend import OfflineLLM
from graphwiki_assets.core.llm.offline.context_types import looks_like_person, section_type
from graphwiki_assets.core.llm.offline.routing import route
from graphwiki_assets.core.normal_forms import name_key, norm_name
from graphwiki_assets.core.store.keys import keys_for
from graphwiki_assets.core.text.type_names import type_key


def test_a_heading_that_lists_a_kind_types_the_names_under_it():
    assert section_type("Community > Maintainers", "Ada Quill") == "Person"
    assert section_type("Maintainers", "kestrel") is None  # not a person's name
    assert section_type("Supported tools", "Grafel") == "Tool"
    assert section_type("Maintenance", "Ada Quill") is None  # a singular heading lists nothing


def test_person_shape():
    assert looks_like_person("Ada Quill") and looks_like_person("Grace M. Hopper")
    assert (
        not looks_like_person("Leopold Museum")
        and not looks_like_person("Kestrel")
        and not looks_like_person("The Tools")
    )


def test_a_word_reaches_a_configured_type_through_its_kind_or_definition():
    mapper = TypeMapper(default_config().taxonomy)
    assert mapper.map("Utility") == ("Product", "mapped")
    assert mapper.map("key-value store") == ("Product", "mapped")
    assert mapper.map("Maintainer") == ("Person", "mapped")
    assert mapper.map("Summit") == ("Event", "mapped")
    assert mapper.map("Artwork") == ("Creative Work", "mapped")  # a word of the type's definition
    assert mapper.map("Xylophonics") == ("Concept", "fallback")


def test_a_word_two_types_could_claim_reaches_neither():
    from graphwiki_assets.core.config.model import EntityType, Taxonomy

    taxonomy = Taxonomy(
        types=[
            EntityType(name="Service", definition="A deployable unit.", includes=["daemon"]),
            EntityType(name="Component", definition="A part of the code.", includes=["library"]),
        ]
    )
    assert KindIndex(taxonomy).type_for("utility") is None  # both are of the software kind


def test_offline_extraction_types_by_section_and_sentence():
    text = (
        "# Kestrel\n\nKestrel is a distributed key-value store. It is used with tools such as Grafel.\n\n"
        "## Maintainers\n\n- Ada Quill\n- Bram Oster\n"
    )
    resp = OfflineLLM().extract(ExtractRequest(source_id="s", title="kestrel.md", text=text))
    types = {c.name: c.type for c in resp.concepts}
    assert types["Kestrel"] == "Store"
    assert "Grafel" in types  # typed by the recogniser's label, or the fallback when it has none
    assert types["Ada Quill"] == "Person"


def test_the_request_section_is_a_heading_path_too():
    resp = OfflineLLM().extract(
        ExtractRequest(source_id="s", title="team.md", text="Ada Quill leads releases.", section="Team > Maintainers")
    )
    assert {c.name: c.type for c in resp.concepts}["Ada Quill"] == "Person"


@pytest.mark.parametrize(
    "text",
    [
        "MVCC: Multi-Version Concurrency Control, the way Kestrel keeps old values.",
        "In Kestrel, MVCC stands for Multi-Version Concurrency Control and keeps old values.",
    ],
)
def test_a_stated_expansion_is_one_concept_with_the_term(text):
    resp = OfflineLLM().extract(ExtractRequest(source_id="s", title="glossary.md", text=text))
    found = {c.name: c for c in resp.concepts}
    assert "MVCC" not in found
    assert found["Multi-Version Concurrency Control"].aliases == ["MVCC"]


def test_a_parenthesis_that_is_a_note_states_no_alias():
    text = "The Kestrel quota (Default: Small Quota) is set by Ada Quill."
    resp = OfflineLLM().extract(ExtractRequest(source_id="s", title="t.md", text=text))
    assert all("Small Quota" not in c.aliases for c in resp.concepts)


def test_a_capitalised_word_the_text_also_writes_in_lowercase_is_not_a_name():
    text = "Size | Owner\n\nThe size of a bucket grows. Kestrel keeps the size small. Kestrel is fast."
    names = {c.name for c in OfflineLLM().extract(ExtractRequest(source_id="s", title="t.md", text=text)).concepts}
    assert "Size" not in names and "Kestrel" in names  # at most the common term "size"


def test_spacing_variants_of_a_proper_name_share_a_key():
    assert set(keys_for("Alert Manager", [])) & set(keys_for("AlertManager", []))
    assert set(keys_for("Alert-Manager", [])) & set(keys_for("Alertmanager", []))
    assert not set(keys_for("data base", [])) & set(keys_for("database", []))  # a common phrase: other rules


def test_one_name_under_two_wordings_of_one_kind_is_compatible():
    assert types_compatible("Store", "Software", "Product", "Product")
    assert types_compatible("Project", "Store", "Concept", "Product")  # the fallback says nothing of kind
    assert not types_compatible("Person", "City", "Person", "Place")
    assert not types_compatible("Planet", "Element", "Concept", "Concept")  # two stated, different kinds


def test_an_alias_the_source_never_writes_is_dropped():
    extraction = ExtractResponse(
        concepts=[ExtractedConcept(name="Kestrel", aliases=["Kestrel DB", "Osprey"])], claims=[]
    )
    kept = written_aliases_only(extraction, "Kestrel (also written kestrel-db, or Kestrel DB) is a store.")
    assert kept.concepts[0].aliases == ["Kestrel DB"]


@pytest.mark.parametrize(
    ("question", "wanted"),
    [
        ("Which people are mentioned?", "Person"),
        ("list all persons", "Person"),
        ("Who is mentioned?", "Person"),
        ("List the companies", "Organization"),
        ("list the orgs", "Organization"),
        ("Which organisations are mentioned?", "Organization"),
        ("list the tools", "Product"),
        ("What products are there?", "Product"),
    ],
)
def test_a_type_is_asked_for_by_any_of_its_words(question, wanted):
    reply = route(RouteRequest(question=question))
    assert reply.shape == "topic"
    types = ["Person", "Organization", "Place", "Product", "Creative Work", "Event", "Concept"]
    exact = [t for t in types if type_key(t) == type_key(reply.type_filter or "")]
    assert (exact or [t for t in types if type_key(reply.type_filter or "") in type_words(t)]) == [wanted]


def test_a_point_release_does_not_split_a_name_and_a_major_version_is_one_name_either_way():
    text = (
        "The server was built with Golem 1.12 last year. Golem v3.1.0 is faster. Route 66 is a road. "
        "Golem v2 dropped the daemon. Golem 2 needs no daemon at all."
    )
    resp = OfflineLLM().extract(ExtractRequest(source_id="s", title="t.md", text=text))
    names = {c.name: c.type for c in resp.concepts}
    assert "Golem" in names and "Golem 1.12" not in names and "Golem v3.1.0" not in names
    assert "Route 66" in names  # a number that is part of a name stays
    assert len({"Golem v2", "Golem 2"} & set(names)) == 1
    assert norm_name("Golem v2") == norm_name("Golem 2") == name_key("golem V2")


def test_a_column_title_in_capitals_is_not_a_name_when_the_text_uses_its_words():
    text = (
        "RAFT INDEX | IS LEADER\n\nThe raft index grows when the leader writes. Kestrel uses the WAL. Kestrel is fast."
    )
    names = {c.name for c in OfflineLLM().extract(ExtractRequest(source_id="s", title="t.md", text=text)).concepts}
    assert "RAFT INDEX" not in names and "IS LEADER" not in names  # at most the common term "raft index"
    assert "WAL" in names  # a short acronym is one whatever the prose says


def test_entity_labels_map_to_the_types_a_config_states():
    from graphwiki_assets.core.llm.calls import ExtractBatchRequest, TypeHint

    text = "Tova Renn joined Harbor Freight Systems in 2019. Harbor Freight Systems hired Tova Renn as its lead."
    hints = [
        TypeHint(name="Team", definition="A group of people.", entity_labels=["ORG"]),
        TypeHint(name="Member", definition="A person.", entity_labels=["PERSON"]),
    ]
    resp = OfflineLLM().extract_batch(
        ExtractBatchRequest(documents=[ExtractRequest(source_id="s", title="t.md", text=text)], types=hints)
    )
    types = {c.name: c.type for c in resp.documents[0].concepts}
    assert types["Harbor Freight Systems"] == "Team" and types["Tova Renn"] == "Member"


def test_a_label_listed_under_two_types_is_refused():
    from graphwiki_assets.core.config.model import Taxonomy

    with pytest.raises(ValueError, match="listed under both"):
        Taxonomy.model_validate(
            {
                "types": [
                    {"name": "Team", "definition": "a group", "entity_labels": ["ORG"]},
                    {"name": "Company", "definition": "a firm", "entity_labels": ["org"]},
                ]
            }
        )
