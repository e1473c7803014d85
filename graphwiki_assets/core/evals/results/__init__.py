"""The typed results of the evals and benchmarks: what crosses from ``core/evals`` into the
CLI and the Dagster assets.

Each eval still computes its numbers as before; its run returns one of these models, built
from them at the end. A model's JSON form (:meth:`Result.as_json`) is the object the CLI
prints with ``--json`` and the baselines are read from: the same keys in the same order,
a key the run had no value for left out (a field never set) and a None kept as null.

Numbers are strict: an int stays an int and a float a float (``Num``), so the JSON form is
the one the run computed, never a coerced copy. Per-item detail that is only printed or
tabulated, with keys that vary by run (a method per column, a sample in its label file's
format), stays a JSON record (``Record``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self

from pydantic import BaseModel, ConfigDict, JsonValue, StrictFloat, StrictInt

Num = StrictInt | StrictFloat
Rate = Num | None  # a share, or None where there was nothing to share out
Record = dict[str, JsonValue]


class Part(BaseModel):
    """A typed piece of a result: strict, closed to unknown keys and frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    def as_json(self) -> dict[str, Any]:
        """The JSON object this part stands for: set fields only, in declaration order."""
        return self.model_dump(exclude_unset=True)

    @classmethod
    def of(cls, data: dict[str, Any]) -> Self:
        """Made from the JSON object a run computed (its keys those the model declares)."""
        return cls.model_validate(data)

    def with_(self, **fields: Any) -> Self:
        """A copy with ``fields`` set (added after the run, e.g. where a plot was written)."""
        return self.model_validate({**self.as_json(), **fields})


class Result(Part):
    """One eval's or benchmark's whole result."""


def rows(parts: Sequence[Part] | Sequence[Record]) -> list[dict[str, Any]]:
    """Rows as the JSON objects they stand for, to tabulate."""
    return [p.as_json() if isinstance(p, Part) else p for p in parts]
