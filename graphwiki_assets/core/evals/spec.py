"""The shape of an eval in the registry (core/evals/registry.py): its kind, its spec, the
options every run gets, and the typed headline numbers the CLI, bench and the assets read.

A kind and its specs are generic in the kind's typed result (``core/evals/results/``): its
run returns one, its report text and bench's extra fields read one."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantic import JsonValue

from graphwiki_assets.core.evals.metrics import dotted
from graphwiki_assets.core.evals.results import Result

if TYPE_CHECKING:
    from graphwiki_assets.core.embeddings import Embedder
    from graphwiki_assets.core.llm.client import LLMClient
    from graphwiki_assets.core.settings import Settings

Log = Callable[[str], None]
# A kind's typed result; its JSON form (Result.as_json) is what is printed (--json) and gated.
R = TypeVar("R", bound=Result)
# What bench prints for one eval: the headline numbers and the kind's extra fields, as JSON.
Summary = dict[str, JsonValue]
# The asset group of the corpus-scale sets, whose ingest alone takes tens of minutes.
CORPUS_GROUP = "evals_corpus"


class Better(Enum):
    """The direction a gated number must not move in; the values are evals/baselines.json's keys."""

    HIGHER = "higher_is_better"
    LOWER = "lower_is_better"


@dataclass(frozen=True)
class Gate:
    """One headline number the committed baseline holds every run to (a dotted key into the
    result, the same key in evals/baselines.json)."""

    metric: str
    better: Better


def higher(metric: str) -> Gate:
    return Gate(metric, Better.HIGHER)


def lower(metric: str) -> Gate:
    return Gate(metric, Better.LOWER)


@dataclass(frozen=True)
class Number:
    key: str
    value: float | int


@dataclass(frozen=True)
class Headline:
    """The flat numbers of one result that bench prints and the asset shows, in the kind's order
    (a key the result lacks, e.g. a split the set does not have, is left out)."""

    numbers: tuple[Number, ...]

    @classmethod
    def of(cls, result: Mapping[str, Any], keys: Iterable[str]) -> Headline:
        """The numbers at ``keys`` (dotted) of a result's JSON form."""
        return cls(tuple(Number(k, v) for k in keys if (v := dotted(result, k)) is not None))

    def as_dict(self) -> dict[str, float | int]:
        return {n.key: n.value for n in self.numbers}


@dataclass(frozen=True)
class EvalOptions:
    """What every run gets: the user's settings (the eval instance is derived from them), the
    clients, where progress goes, and ``k`` (documents retrieved per multi-hop question)."""

    settings: Settings
    embedder: Embedder
    llm: LLMClient
    log: Log = field(default=lambda message: None)
    k: int = 5


def _no_extras(result: Result) -> Summary:
    return {}


@dataclass(frozen=True)
class EvalKind(Generic[R]):
    """One kind of eval: ``graphwiki eval <command>``, its headline numbers in the order they
    are printed (a :class:`Gate` where the baselines hold the number to a direction), its
    report text and the fields bench prints beside the numbers."""

    command: str
    about: str
    numbers: tuple[str | Gate, ...]
    text: Callable[[R], str]
    bench_extras: Callable[[R], Summary] = _no_extras

    @property
    def headline_keys(self) -> tuple[str, ...]:
        return tuple(n.metric if isinstance(n, Gate) else n for n in self.numbers)

    @property
    def gates(self) -> tuple[Gate, ...]:
        return tuple(n for n in self.numbers if isinstance(n, Gate))

    def headline(self, result: R) -> Headline:
        return Headline.of(result.as_json(), self.headline_keys)


@dataclass(frozen=True)
class EvalSpec(Generic[R]):
    """One eval on one labelled set: the asset, the bench entry and the baselines entry of
    ``name``. ``large`` sets (a corpus-scale ingest) run in bench only with ``--full``."""

    name: str
    kind: EvalKind[R]
    description: str
    run: Callable[[EvalOptions], R]
    large: bool = False
    ungated: frozenset[str] = frozenset()  # the kind's gates this set cannot measure

    @property
    def gates(self) -> tuple[Gate, ...]:
        return tuple(g for g in self.kind.gates if g.metric not in self.ungated)

    def headline(self, result: R) -> Headline:
        return self.kind.headline(result)

    def bench_summary(self, result: R) -> Summary:
        return {**self.headline(result).as_dict(), **self.kind.bench_extras(result)}
