"""A concept's type is voted on by its mentions: the specific type most typed mentions give
it; a mention with no type is no vote against one; two types that split the votes leave the
fallback; a type only a recogniser's label gave must be repeated by half the votes; and its
first stated definition stays whatever later sources add."""

from __future__ import annotations

from graphwiki_assets.core.ingest import cypher

NOW = "2026-12-05T00:00:00Z"


def _mention(source: str, concept: str, type_: str, definition: str = "", guessed: bool = False) -> dict:
    return {
        "type_guessed": guessed,
        "source_id": source,
        "concept_id": concept,
        "name": "Quarrel",
        "type": type_,
        "extracted_type": type_,
        "description": definition,
        "definition": definition,
        "aliases": [],
        "keys": ["quarrel"],
        "embedding": None,
    }


def _merge(store, mentions: list[dict]) -> dict:
    store.query("UNWIND $ids AS id MERGE (:Source {id: id})", ids=sorted({m["source_id"] for m in mentions}))
    store.query(
        cypher.MERGE_CONCEPTS,
        actions=mentions,
        now=NOW,
        config_version="cfg-test",
        fallback="Concept",
        corroboration=2,
        awaiting="awaiting corroboration",
    )
    return store.query("MATCH (c:Concept {id: $id}) RETURN c.type AS type, c.definition AS definition", id="c1")[0]


def test_untyped_mentions_do_not_outvote_a_type(store):
    votes = [_mention(f"s{i}", "c1", t) for i, t in enumerate(["Concept", "Place", "Concept", "Concept"])]
    assert _merge(store, votes)["type"] == "Place"


def test_the_type_most_typed_mentions_give_wins_across_batches(store):
    _merge(store, [_mention("s1", "c1", "Person")])
    _merge(store, [_mention("s2", "c1", "Product"), _mention("s3", "c1", "Product")])
    assert _merge(store, [_mention("s4", "c1", "Concept")])["type"] == "Product"


def test_a_recognisers_label_one_source_of_many_gave_is_no_type(store):
    votes = [_mention("s0", "c1", "Person", guessed=True)] + [_mention(f"s{i}", "c1", "Concept") for i in range(1, 6)]
    assert _merge(store, votes)["type"] == "Concept"


def test_a_label_half_the_sources_repeat_is_the_type(store):
    votes = [_mention(f"s{i}", "c1", "Person", guessed=True) for i in range(3)]
    votes += [_mention(f"t{i}", "c1", "Concept") for i in range(3)]
    assert _merge(store, votes)["type"] == "Person"


def test_a_stated_type_one_source_gave_stands_among_untyped_mentions(store):
    votes = [_mention("s0", "c1", "Product")] + [_mention(f"s{i}", "c1", "Concept") for i in range(1, 6)]
    assert _merge(store, votes)["type"] == "Product"


def test_types_that_split_the_votes_leave_the_fallback(store):
    assert _merge(store, [_mention("s1", "c1", "Person"), _mention("s2", "c1", "Place")])["type"] == "Concept"


def test_the_first_definition_stays(store):
    _merge(store, [_mention("s1", "c1", "Concept")])
    _merge(store, [_mention("s2", "c1", "Concept", "Quarrel is a query language.")])
    node = _merge(store, [_mention("s3", "c1", "Concept", "Quarrel is a kind of argument.")])
    assert node["definition"] == "Quarrel is a query language."


def test_a_mention_with_no_type_at_all_keeps_the_type_the_concept_has(store):
    _merge(store, [_mention("s1", "c1", "Concept")])
    assert _merge(store, [_mention("s2", "c1", "")])["type"] == "Concept"
    _merge(store, [_mention("s3", "c1", "Product")])
    assert _merge(store, [_mention("s4", "c1", "")])["type"] == "Product"
