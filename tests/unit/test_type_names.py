"""One key for a type name (core/text/type_names.py): the whole name's for a taxonomy, its
head word's for what kind of thing it names."""

from __future__ import annotations

from graphwiki_assets.core.text.type_names import disjoint_types, head_key, type_key, types_conflict


def test_a_type_name_is_one_key_however_it_is_written():
    assert type_key("Record labels") == type_key("record label") == type_key("RecordLabel") == "recordlabel"


def test_the_kind_of_a_type_is_its_head_word_singular():
    assert head_key("Football club") == "club"
    assert head_key("Universities") == head_key("University") == "university"
    assert head_key("Churches") == "church"
    assert head_key("") == head_key("42") == ""


def test_a_plural_type_is_of_the_kind_its_singular_is():
    assert disjoint_types("Companies", "Person") and disjoint_types("Company", "Person")
    assert not disjoint_types("Companies", "Organization")
    assert types_conflict("Cities", "Person") and not types_conflict("Cities", "Town")
