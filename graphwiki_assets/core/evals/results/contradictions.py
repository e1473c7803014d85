"""The contradiction eval's result (``core/evals/contradictions.py``; the end-to-end part
from ``core/evals/injection.py``)."""

from __future__ import annotations

from pydantic import StrictBool

from graphwiki_assets.core.evals.results import Num, Part, Rate, Record, Result
from graphwiki_assets.core.evals.results.er import Distribution
from graphwiki_assets.core.evals.results.retrieval import CorpusIngest


class ConflictConfig(Part):
    similarity_floor: Num
    per_claim: int
    pairs_per_call: int


class FalseAlarms(Part):
    consistent: Rate
    unrelated_aspect: Rate
    all: Rate


class Rates(Part):
    """Catch rate, false alarms by class and precision over a set of pairs."""

    n: int
    catch_rate: Rate
    false_alarm: FalseAlarms
    precision: Rate
    caught: int
    contradicts: int
    false_alarms: int
    not_contradicts: int


class PairOutcome(Part):
    """How the conflict stage ended one labelled pair."""

    id: str
    domain: str
    kind: str
    label: str
    split: str
    concept: str
    a: str
    b: str
    cosine: Num
    outcome: str
    flagged: StrictBool
    reason: str


class InjectionSummary(Part):
    injected: int
    found: int
    catch_rate: Rate
    found_any_status: int
    compared_with_target: int
    without_claims: int
    controls: int
    false_alarms: int
    false_alarm_rate: Rate


class InjectedSources(Part):
    """The injected sources' ingest, from its report."""

    sources: dict[str, int]  # by status
    claims: int
    contradictions: int
    settled: int
    llm_calls: int
    prompt_tokens: int


class InjectedIngest(Part):
    corpus: CorpusIngest
    injected: InjectedSources
    conflict_calls: int
    conflict_prompt_tokens: int


class EndToEnd(InjectionSummary):
    by_split: dict[str, InjectionSummary]
    corpus_contradictions: int
    contradictions_after: int
    ingest: InjectedIngest
    injections: list[Record]  # each injected source: caught or why not, with its edges
    seconds: Num
    corpus: str | None = None
    injections_file: str | None = None


class PairsRun(Part):
    """What was run: the set, the backend, the labels' counts and the stage's settings."""

    name: str
    backend: str
    embedding_model: str
    counts: dict[str, int]
    config: ConflictConfig


class ContradictionsResult(Rates, PairsRun, Result):
    """The run (PairsRun), the Rates of every pair after it, then the rest."""

    by_split: dict[str, Rates]
    by_kind: dict[str, Rates]
    outcomes: dict[str, dict[str, int]]
    screened: dict[str, Num]
    cosine_by_label: dict[str, Distribution]
    llm_calls: int
    cache_hits: int
    prompt_tokens: int
    completion_tokens: int
    errors: list[PairOutcome]
    pairs: list[PairOutcome]
    seconds: Num
    end_to_end: EndToEnd | None = None
