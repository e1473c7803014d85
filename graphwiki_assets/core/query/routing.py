"""Choosing the question's shape (and so the technique) with the configured LLM.

The LLM client answers a typed ``RouteRequest``; with no endpoint configured its offline
backend does it with patterns. A caller may also force the shape (evals, notebooks). If
the router fails, the question is treated as "what is X" and the reason says so.
"""

from __future__ import annotations

import re

from graphwiki_assets.core.llm.calls import RouteRequest
from graphwiki_assets.core.llm.client import LLMError
from graphwiki_assets.core.query.models import Route
from graphwiki_assets.core.question_shapes import SHAPE_NAMES

_EDGES = re.compile(r"^[\s\"'“”‘’`]+|[\s\"'“”‘’`?.!,;:]+$")
_ARTICLE = re.compile(r"^(the|a|an)\s+", re.IGNORECASE)


def clean_entity(text: str) -> str:
    return _ARTICLE.sub("", _EDGES.sub("", text or "")).strip()


def route(
    llm, question: str, shape: str | None = None, entities: list[str] | None = None, type_filter: str | None = None
) -> Route:
    if shape is not None:
        if shape not in SHAPE_NAMES:
            raise ValueError(f"unknown shape {shape!r}; one of {', '.join(SHAPE_NAMES)}")
        return Route(shape, _clean(entities or []), type_filter, "shape given by the caller", "caller")
    if llm is None:
        raise ValueError("no LLM client to classify the question: pass llm= or shape=")
    try:
        reply = llm.route(RouteRequest(question=question))
    except LLMError as exc:
        return Route(
            "what_is",
            _clean(entities or []),
            type_filter,
            f"router failed ({exc}); answered as 'what is X'",
            getattr(llm, "label", ""),
        )
    return Route(
        reply.shape,
        _clean(entities if entities is not None else reply.entities),
        type_filter or reply.type_filter,
        reply.reason,
        reply.backend,
    )


def _clean(entities: list[str]) -> list[str]:
    return [e for e in dict.fromkeys(clean_entity(e) for e in entities) if e]
