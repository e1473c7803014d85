"""The shapes a question can take: what each one asks, and the technique that answers it.

The one list of shape names. The router's response model and prompt (core/llm) and the query
service and CLI (core/query, cli) all read it; it sits outside both packages because the
query package imports the LLM client, so the LLM side cannot import the query package. What
each shape does (linking, what it reports missing, its technique) is its entry in the shape
table, ``core/query/shapes.py``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class QuestionShape:
    asks: str  # what the router is told the shape means (part of its prompt)
    technique: str  # how the graph answers it


QUESTION_SHAPES: dict[str, QuestionShape] = {
    "what_is": QuestionShape("describe one entity", "n-hop traversal"),
    "related": QuestionShape("what else relates to X", "personalized pagerank"),
    "connect": QuestionShape("how X connects to Y", "shortest path"),
    "shaped_like": QuestionShape("things structurally like X", "subgraph pattern matching"),
    "compare": QuestionShape("X versus Y", "neighbourhood comparison"),
    "topic": QuestionShape(
        "list all things of a type; set type_filter to the singular type, Title case", "topic by type"
    ),
    "provenance": QuestionShape("where a claim comes from", "source traceability (SHA256)"),
    "global": QuestionShape(
        "about the whole collection: its main topics or themes, or what it says about a "
        "broad subject; entities: that subject, if any",
        "community map-reduce",
    ),
}
SHAPE_NAMES: tuple[str, ...] = tuple(QUESTION_SHAPES)
