"""The JSON schema of each task's reply, made from its pydantic response model.

Structured output in strict mode takes a plain form: definitions inlined, every property
required, nothing extra, an optional value as a type list. The same schema is pasted into
the prompt when an endpoint cannot enforce it, so only what tells the model something is
kept: types, enums and field descriptions (``Field(description=...)``); titles, defaults
and a class's docstring (written for developers) are left out. Fields the model never
fills (``backend``, counts of dropped answers...) are marked ``SkipJsonSchema`` on the
model and so are not asked for.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel


def response_schema(model: type[BaseModel]) -> dict[str, Any]:
    raw = model.model_json_schema()
    return _strict(raw, raw.get("$defs", {}))


def _strict(node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    if "$ref" in node:
        return _strict(defs[node["$ref"].rsplit("/", 1)[-1]], defs)
    if "anyOf" in node:
        options = [_strict(option, defs) for option in node["anyOf"]]
        if all(set(option) == {"type"} for option in options):
            return {"type": [option["type"] for option in options]}
        return {"anyOf": options}
    if node.get("type") == "object":
        props = {name: _described(_strict(prop, defs), prop) for name, prop in node.get("properties", {}).items()}
        return {"type": "object", "properties": props, "required": list(props), "additionalProperties": False}
    if node.get("type") == "array":
        return {"type": "array", "items": _strict(node["items"], defs)}
    return {"type": node["type"], **({"enum": list(node["enum"])} if "enum" in node else {})}


def _described(schema: dict[str, Any], prop: dict[str, Any]) -> dict[str, Any]:
    """A field's description, which sits beside its type (or its ``$ref``) in pydantic's schema."""
    return {**schema, "description": prop["description"]} if "description" in prop else schema
