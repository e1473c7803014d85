"""Each task's reply schema is made from its response model, in the strict form."""

from __future__ import annotations

from graphwiki_assets.core.llm.base import TASKS
from graphwiki_assets.core.question_shapes import SHAPE_NAMES

OURS = {"backend", "dropped", "defaulted", "missing", "extracted_type"}


def _objects(schema):
    if schema.get("type") == "object":
        yield schema
        for prop in schema["properties"].values():
            yield from _objects(prop)
    elif schema.get("type") == "array":
        yield from _objects(schema["items"])


def test_every_property_is_required_nothing_extra_and_bookkeeping_is_not_asked_for():
    for task in TASKS.values():
        for obj in _objects(task.schema):
            assert obj["required"] == list(obj["properties"]) and obj["additionalProperties"] is False, task.name
            assert not OURS & set(obj["properties"]), task.name


def test_the_route_schema_names_every_shape_and_an_optional_type():
    assert TASKS["route"].schema == {
        "type": "object",
        "properties": {
            "shape": {"type": "string", "enum": list(SHAPE_NAMES)},
            "entities": {"type": "array", "items": {"type": "string"}},
            "type_filter": {"type": ["string", "null"]},
            "reason": {"type": "string"},
        },
        "required": ["shape", "entities", "type_filter", "reason"],
        "additionalProperties": False,
    }
