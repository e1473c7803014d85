"""The shape table: every shape the router can choose has one entry, and each entry's
declared needs agree with what it reports missing and what it falls back to."""

from __future__ import annotations

from typing import get_args

import pytest

from graphwiki_assets.core.llm.calls import RouteResponse
from graphwiki_assets.core.query.models import Link, Linking, Route
from graphwiki_assets.core.query.routing import route
from graphwiki_assets.core.query.shapes import SHAPES, TABLE, Mentions
from graphwiki_assets.core.question_shapes import SHAPE_NAMES


def _link(mention: str) -> Link:
    return Link(mention=mention, concept_id=f"c-{mention}", name=mention, type="Thing", match="exact", score=1.0)


def test_every_shape_the_router_can_choose_has_exactly_one_entry():
    names = [shape.name for shape in TABLE]
    assert len(names) == len(set(names))
    assert set(names) == set(SHAPE_NAMES) == set(get_args(RouteResponse.model_fields["shape"].annotation))
    assert all(SHAPES[name].name == name for name in SHAPES)


def test_a_shape_given_by_the_caller_is_a_routed_shape_with_an_entry():
    for name in SHAPE_NAMES:
        assert route(None, "anything", shape=name).shape in SHAPES
    with pytest.raises(ValueError, match="unknown shape"):
        route(None, "anything", shape="unheard_of")


@pytest.mark.parametrize("shape", TABLE, ids=lambda s: s.name)
def test_a_shape_that_needs_entities_links_the_question_and_reports_them_missing(shape):
    entities = ["Alpha", "Beta"][: max(shape.needs, 1)]
    nothing = Linking(unlinked=list(entities))
    if shape.needs == 0:
        assert shape.missing(Route(shape.name, entities), nothing) is None
        return
    assert shape.mentions is Mentions.ANY  # it cannot need entities it never links
    assert shape.missing(Route(shape.name, entities), nothing) == entities
    assert shape.missing(Route(shape.name, entities), Linking()) == entities  # none linked nor left over
    assert shape.missing(Route(shape.name, entities), Linking(links=[_link(e) for e in entities])) is None


@pytest.mark.parametrize("shape", [s for s in TABLE if s.needs > 1], ids=lambda s: s.name)
def test_a_two_entity_shape_reports_the_one_that_did_not_link_and_falls_back_with_one(shape):
    one_linked = Linking(links=[_link("Alpha")], unlinked=["Beta"])
    assert shape.missing(Route(shape.name, ["Alpha", "Beta"]), one_linked) == ["Beta"]
    assert shape.too_few is not None  # its technique reads two groups of concepts
    fallback = SHAPES[shape.too_few.shape]
    assert fallback.needs < shape.needs and fallback.too_few is None
    settled = shape.settled(Route(shape.name, ["Alpha"], reason="two named"), Linking(links=[_link("Alpha")]))
    assert settled.shape == fallback.name and settled.reason == f"two named; {shape.too_few.reason}"
    both = Linking(links=[_link("Alpha"), _link("Beta")])
    assert shape.settled(Route(shape.name, ["Alpha", "Beta"]), both).shape == shape.name


@pytest.mark.parametrize("shape", [s for s in TABLE if s.needs <= 1], ids=lambda s: s.name)
def test_a_shape_needing_at_most_one_entity_never_falls_back(shape):
    assert shape.too_few is None
    partly = Linking(links=[_link("Alpha")], unlinked=["Beta"])
    assert shape.settled(Route(shape.name, ["Alpha", "Beta"]), partly).shape == shape.name
    if shape.needs == 1:
        assert shape.missing(Route(shape.name, ["Alpha", "Beta"]), partly) is None


@pytest.mark.parametrize("shape", [s for s in TABLE if s.mentions is not Mentions.ANY], ids=lambda s: s.name)
def test_a_shape_that_links_no_question_words_reads_no_graph_to_link_without_named_entities(shape):
    # no graph is given: linking that read one would fail here
    assert shape.link(None, None, "What are the main themes?", Route(shape.name, []), None) == Linking()
    assert shape.needs == 0  # nothing linked, so nothing can be needed


def test_only_shapes_about_sources_list_every_source_and_only_what_is_checks_coverage():
    assert [s.name for s in TABLE if s.about_sources] == ["provenance"]
    assert [s.name for s in TABLE if s.covers_question] == ["what_is"]
