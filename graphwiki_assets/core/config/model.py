"""The schema config a user edits (``graphwiki.yaml``): what the knowledge base is for, the
entity types it keeps, and the thresholds its stages use. Validated as a whole before
anything is written; its version is a hash of the validated content, recorded on what it
produced, so a changed config is a new version."""

from __future__ import annotations

import hashlib
import json
import re
from typing import TypedDict

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from graphwiki_assets.core.text.type_names import type_key

# The relationship types between concepts that the graph knows (see core/store/schema.py).
RELATIONS = ("RELATED_TO", "PART_OF")


class _Strict(BaseModel):
    # a misspelt key is an error, not a silently ignored setting
    model_config = ConfigDict(extra="forbid", frozen=True)


class EntityType(_Strict):
    name: str = Field(min_length=1, max_length=60)
    definition: str = Field(min_length=1, max_length=300)  # one line, shown to the extractor
    includes: list[str] = Field(default_factory=list)  # narrower nouns that map to this type
    # entity labels of the offline extractor's recogniser (OntoNotes: PERSON, ORG, GPE, LOC,
    # FAC, PRODUCT, EVENT, WORK_OF_ART, LAW, LANGUAGE, NORP) that mean this type
    entity_labels: list[str] = Field(default_factory=list)
    relations: list[str] = Field(default_factory=lambda: list(RELATIONS))

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9 \-]*", value.strip()):
            raise ValueError(f"{value!r}: a type name is letters, digits, spaces and hyphens, starting with a letter")
        return value.strip()

    @field_validator("entity_labels")
    @classmethod
    def _labels(cls, value: list[str]) -> list[str]:
        return [label.strip().upper() for label in value if label.strip()]

    @field_validator("relations")
    @classmethod
    def _relations(cls, value: list[str]) -> list[str]:
        unknown = [r for r in value if r not in RELATIONS]
        if unknown:
            raise ValueError(f"unknown relation type(s) {unknown}; known: {', '.join(RELATIONS)}")
        return value


class Taxonomy(_Strict):
    types: list[EntityType] = Field(min_length=1)
    # Where an extracted type that is none of the above goes: the name of one of the types,
    # or null to drop such concepts (each mapped or dropped one is counted).
    fallback: str | None = None

    @model_validator(mode="after")
    def _consistent(self) -> Taxonomy:
        seen: dict[str, str] = {}
        for t in self.types:
            for word in [t.name, *t.includes]:
                key = type_key(word)
                if key in seen and seen[key] != t.name:
                    raise ValueError(f"{word!r} is listed under both {seen[key]} and {t.name}")
                seen[key] = t.name
        labelled: dict[str, str] = {}
        for t in self.types:
            for label in t.entity_labels:
                if labelled.setdefault(label, t.name) != t.name:
                    raise ValueError(f"entity label {label!r} is listed under both {labelled[label]} and {t.name}")
        if self.fallback is not None and type_key(self.fallback) not in {type_key(t.name) for t in self.types}:
            raise ValueError(
                f"fallback {self.fallback!r} is not one of the types ({', '.join(t.name for t in self.types)})"
            )
        return self

    def names(self) -> list[str]:
        return [t.name for t in self.types]

    def relations(self) -> dict[str, list[str]]:
        """The relationship types each entity type may take part in."""
        return {t.name: list(t.relations) for t in self.types}


class Purpose(_Strict):
    description: str = Field(min_length=1, max_length=500)
    # Topics the knowledge base is for; empty means every source is in scope.
    focus: list[str] = Field(default_factory=list)
    exclude: list[str] = Field(default_factory=list)  # topics kept out even when near the focus


class Thresholds(_Strict):
    stage1_k: int = Field(default=5, ge=1, le=100)  # nearest existing concepts stage 1 looks at per mention
    stage1_floor: float = Field(default=0.2, ge=-1.0, le=1.0)  # cosine below which a candidate is not judged
    corroboration: int = Field(default=2, ge=1, le=20)  # independent sources that make a fact corroborated
    staleness_days: int = Field(default=90, ge=1)  # a source not re-seen for this long may be outdated
    hub_size: int = Field(default=200, ge=2)  # concepts with more relationships are oversized hubs
    # cosine a source needs to a focus topic to be in scope (unrelated text sits around 0-0.2)
    scope_floor: float = Field(default=0.25, ge=-1.0, le=1.0)


class Stamp(TypedDict):
    """What ingest records on the nodes it writes, from the schema config."""

    config_version: str
    extraction_version: str
    fallback: str | None  # the type an unlisted extracted type maps to (None: dropped)
    corroboration: int
    relations: dict[str, list[str]]  # relationship types each entity type may take part in


class SchemaConfig(_Strict):
    purpose: Purpose
    taxonomy: Taxonomy
    thresholds: Thresholds = Field(default_factory=Thresholds)

    @property
    def version(self) -> str:
        """Content hash of the validated config: comments and key order do not change it."""
        return _digest("cfg-", self.model_dump(mode="json"))

    @property
    def extraction_version(self) -> str:
        """Hash of what decides what a source yields (purpose and taxonomy): a source ingested
        under another one is processed again on its next ingest; a threshold change is not."""
        return _digest("ext-", self.model_dump(mode="json", include={"purpose", "taxonomy"}))

    def stamp(self) -> Stamp:
        """What ingest records on the nodes it writes (and the fallback its type rule needs)."""
        return {
            "config_version": self.version,
            "extraction_version": self.extraction_version,
            "fallback": self.taxonomy.fallback,
            "corroboration": self.thresholds.corroboration,
            "relations": self.taxonomy.relations(),
        }


def _digest(prefix: str, data: dict) -> str:
    body = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return prefix + hashlib.sha256(body.encode("utf-8")).hexdigest()[:12]
