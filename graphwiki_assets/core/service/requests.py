"""Typed inputs of the service's operations, and the two errors a caller can act on."""

from __future__ import annotations

from pathlib import PurePosixPath

from pydantic import BaseModel, Field, field_validator

from graphwiki_assets.core.documents.formats import TEXT_SUFFIXES
from graphwiki_assets.core.embeddings_remote import EmbeddingsUnavailable
from graphwiki_assets.core.llm.errors import LLMUnavailable
from graphwiki_assets.core.query.models import MAX_HOPS, MAX_K
from graphwiki_assets.core.question_shapes import SHAPE_NAMES
from graphwiki_assets.core.store.driver import GraphUnavailable
from graphwiki_assets.core.store.vector_model import VectorModelMismatch

MAX_QUESTION_CHARS = 2000
MAX_SOURCE_BYTES = 2_000_000  # the same order as a file the ingest would read whole


class BadRequest(ValueError):
    """The request cannot be served as asked; the message says why (a 4xx, never a crash)."""


class NotFound(LookupError):
    """The concept, source or job asked for does not exist."""


# What the service cannot do as it is set up (a store, model or endpoint out of reach, or an
# embedder other than the graph's): a caller can only report it, so adapters answer 503.
UNAVAILABLE: tuple[type[Exception], ...] = (
    GraphUnavailable,
    LLMUnavailable,
    EmbeddingsUnavailable,
    VectorModelMismatch,
)


class AskRequest(BaseModel):
    question: str = Field(min_length=1, max_length=MAX_QUESTION_CHARS)
    shape: str | None = Field(None, description=f"skip the router: one of {', '.join(SHAPE_NAMES)}")
    hops: int = Field(2, ge=0, le=MAX_HOPS, description="traversal depth of 'what is X'")
    k: int = Field(8, ge=1, le=MAX_K, description="ranked results for related / shaped-like / topic")
    file: bool = Field(False, description="file a good answer back into the graph (stays derived)")

    @field_validator("shape")
    @classmethod
    def _known_shape(cls, value: str | None) -> str | None:
        if value is not None and value not in SHAPE_NAMES:
            raise ValueError(f"unknown shape {value!r}; known: {', '.join(SHAPE_NAMES)}")
        return value

    @field_validator("question")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("the question is blank")
        return value.strip()


class AddSource(BaseModel):
    """A source handed over as text: written under the sources folder as ``name``, then
    ingested like any file found there (same scope, resolution and corroboration)."""

    name: str = Field(min_length=1, max_length=200, description="a file name such as notes/raft.md")
    text: str = Field(min_length=1, description="the document, UTF-8 text (markdown, HTML or plain)")

    @field_validator("name")
    @classmethod
    def _safe_relative_name(cls, value: str) -> str:
        path = PurePosixPath(value.strip())
        if path.is_absolute() or ".." in path.parts or "\\" in value or not path.name:
            raise ValueError("name must be a relative path inside the sources folder")
        if path.suffix.lower() not in TEXT_SUFFIXES:  # a PDF or Word file is bytes, not text
            raise ValueError(f"name must end in one of {', '.join(TEXT_SUFFIXES)}")
        return str(path)

    @field_validator("text")
    @classmethod
    def _bounded_text(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("the source is empty")
        if "\x00" in value:
            raise ValueError("the source holds NUL bytes: binary, not text")
        if len(value.encode("utf-8")) > MAX_SOURCE_BYTES:
            raise ValueError(f"the source is larger than {MAX_SOURCE_BYTES} bytes")
        return value
