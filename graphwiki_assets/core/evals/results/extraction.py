"""The extraction eval's result (``core/evals/extraction.py``)."""

from __future__ import annotations

from graphwiki_assets.core.evals.results import Num, Part, Record, Result


class Scores(Part):
    """Precision and recall of one kind of item against the gold."""

    precision: Num
    recall: Num
    f1: Num
    extracted: int
    gold: int
    correct: int
    found: int


class Threshold(Part):
    threshold: Num


class ThresholdScores(Scores, Threshold):
    """Claims scored at one cosine threshold (the threshold first)."""


class SplitScores(Part):
    concepts: Scores
    concepts_typed: Scores
    claims: Scores


class TypeRecall(Part):
    gold: int
    recall: Num


class ExtractionResult(Result):
    name: str
    backend: str
    embedding_model: str
    documents: int
    failed: list[str]
    claim_threshold: Num
    gold_entities: int
    gold_concepts: int
    gold_facts: int
    concepts: Scores
    concepts_typed: Scores
    claims: Scores
    by_split: dict[str, SplitScores]
    sweep: list[ThresholdScores]
    recall_by_type: dict[str, TypeRecall]
    llm_calls: int
    cache_hits: int
    prompt_tokens: int
    completion_tokens: int
    documents_detail: list[Record]  # per document: what was extracted, matched and missed
    seconds: Num
