"""A request's data as its typed model, or one BadRequest naming every field's problem."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from graphwiki_assets.core.service.requests import BadRequest

M = TypeVar("M", bound=BaseModel)


def validated(model: type[M], data: Any) -> M:
    """``data`` as ``model``, or BadRequest with every field's problem in one line."""
    if isinstance(data, model):
        return data
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'request'}: {e['msg']}" for e in exc.errors())
        raise BadRequest(problems) from None
