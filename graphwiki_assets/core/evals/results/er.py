"""The entity-resolution eval's result (``core/evals/er.py``)."""

from __future__ import annotations

from pydantic import StrictBool

from graphwiki_assets.core.evals.results import Num, Part, Result


class Distribution(Part):
    """``metrics.distribution``: n, and the five numbers and the mean when n > 0."""

    n: int
    mean: Num | None = None
    min: Num | None = None
    q1: Num | None = None
    median: Num | None = None
    q3: Num | None = None
    max: Num | None = None


class Stage1Config(Part):
    top_k: int
    floor: Num
    judge_pairs_per_call: int


class CosineOnly(Part):
    by_class: dict[str, Distribution]
    best_f1: Num
    best_threshold: Num
    best_precision: Num
    best_recall: Num
    f1_at_0_55: Num
    precision_at_0_55: Num
    recall_at_0_55: Num
    f1_at_floor: Num
    all_same_f1: Num


class Stage1(Part):
    """Stage 1's screen; population mode adds the kNN candidates and ranks."""

    same_passed: Num
    related_passed: Num
    unrelated_screened: Num
    survivors: int
    candidates_all_mentions: int | None = None
    same_in_top: dict[str, Num] | None = None
    same_rank: Distribution | None = None
    floor_cosine: Num | None = None


class Scores(Part):
    """``metrics.scored``: precision, recall, F1 and the confusion counts."""

    precision: Num
    recall: Num
    f1: Num
    tp: int
    fp: int
    fn: int
    tn: int


class TwoStage(Scores):
    llm_calls: int
    judged_pairs: int
    verdicts_by_label: dict[str, dict[str, int]]
    errors_by_cause: dict[str, int]
    prompt_tokens: int
    llm_usage: dict[str, Num]
    judge_only: Scores | None = None  # the judge's SAME alone, before the merge decision
    decision_threshold: Num | None = None


class Wrong(Part):
    """One pair the two stages decided wrongly, and why."""

    pair: int
    domain: str
    label: str
    a: str
    b: str
    score: Num
    predicted: str
    cause: str
    reason: str


class DomainScore(Part):
    n: int
    same_passed: Num
    f1: Num


class Half(Part):
    n: int
    cosine_only_best_f1: Num
    stage1_same_passed: Num
    precision: Num
    recall: Num
    f1: Num


class Population(Part):
    stage1: Stage1
    two_stage: TwoStage
    errors: list[Wrong]
    by_domain: dict[str, DomainScore]


class PairRow(Part):
    """One pair as reported; the population columns only in population mode."""

    pair: int
    domain: str
    label: str
    a: str
    b: str
    cosine: Num
    stage1: StrictBool
    predicted: str
    knn_rank: int | None = None
    population_stage1: StrictBool | None = None
    population_predicted: str | None = None


class ErResult(Result):
    name: str
    n: int
    counts: dict[str, int]
    embedding_model: str
    text_form: str
    judge: str
    stage1_config: Stage1Config
    cosine_only: CosineOnly
    stage1: Stage1
    two_stage: TwoStage
    errors: list[Wrong]
    by_domain: dict[str, DomainScore]
    by_split: dict[str, Half]
    population: Population | None = None
    pairs: list[PairRow]
    seconds: Num
