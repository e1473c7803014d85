"""The kinds of eval (``graphwiki eval <command>``): each one's headline numbers, the numbers
its baselines gate and in which direction, its report text and bench's extra fields."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import JsonValue

from graphwiki_assets.core.evals import reports
from graphwiki_assets.core.evals.metrics import SPLITS
from graphwiki_assets.core.evals.results import Part
from graphwiki_assets.core.evals.results.contradictions import ContradictionsResult
from graphwiki_assets.core.evals.results.docs import DocsResult, Sample
from graphwiki_assets.core.evals.results.er import ErResult
from graphwiki_assets.core.evals.results.extraction import ExtractionResult
from graphwiki_assets.core.evals.results.retrieval import AnswersResult, MultihopResult
from graphwiki_assets.core.evals.spec import EvalKind, Summary, higher, lower


def _rows(parts: Sequence[Part]) -> list[JsonValue]:
    return [p.as_json() for p in parts]


def _er_extras(r: ErResult) -> Summary:
    # bench runs every ER set in population mode
    population = _rows(r.population.errors) if r.population else None
    return {"judge": r.judge, "errors": _rows(r.errors), "population_errors": population}


def _multihop_extras(r: MultihopResult) -> Summary:
    return {"graph_beats_flat": r.graph_beats_flat, "sweep": _rows(r.sweep or [])}


def _ungraded(sample: Sample) -> list[JsonValue]:
    return [i.get("name") or [i["a"], i["b"]] for i in sample.ungraded]


def _docs_extras(r: DocsResult) -> Summary:
    ungraded: dict[str, JsonValue] = {
        "concepts": _ungraded(r.concepts.sample),
        "contradictions": _ungraded(r.contradictions.sample),
    }
    return {"grades": {q.id: q.grade for q in r.questions}, "ungraded": ungraded}


def _contradictions_extras(r: ContradictionsResult) -> Summary:
    return {"errors": _rows(r.errors)}


def _answers_extras(r: AnswersResult) -> Summary:
    return {"unsupported": _rows(r.unsupported)}


ER = EvalKind[ErResult](
    command="er",
    about="entity resolution on labelled pairs (JSONL)",
    numbers=(
        higher("cosine_only.best_f1"),
        "cosine_only.best_threshold",
        "cosine_only.f1_at_0_55",
        higher("stage1.same_passed"),
        higher("stage1.unrelated_screened"),
        higher("two_stage.precision"),
        higher("two_stage.recall"),
        higher("two_stage.f1"),
        lower("two_stage.llm_calls"),
        higher("population.stage1.same_passed"),
        higher("population.stage1.unrelated_screened"),
        "population.two_stage.precision",
        "population.two_stage.recall",
        higher("population.two_stage.f1"),
        "population.two_stage.llm_calls",
        "by_split.report.cosine_only_best_f1",
        higher("by_split.report.precision"),
        "by_split.report.recall",
        higher("by_split.report.f1"),
    ),
    text=reports.er_text,
    bench_extras=_er_extras,
)
MULTIHOP = EvalKind[MultihopResult](
    command="multihop",
    about="flat vs graph retrieval on a corpus + questions",
    numbers=(
        "n",
        "k",
        higher("graph_margin"),
        higher("flat.recall"),
        higher("flat.all_recall"),
        "flat.precision",
        "flat.docs_per_question",
        higher("graph.recall"),
        higher("graph.all_recall"),
        higher("graph.precision"),
        "graph.docs_per_question",
        "ppr.recall",
        higher("ppr.all_recall"),
        "traversal.recall",
        higher("traversal.all_recall"),
        "hybrid.recall",
        higher("hybrid.all_recall"),
        *(f"by_split.{split}.{m}" for split in SPLITS for m in ("flat", "graph", "hybrid")),
        "flat.context_tokens",
        "graph.context_tokens",
        "corpus_tokens",
        lower("ingest.llm_calls_per_passage"),
        "ingest.prompt_tokens_per_passage",
        "ingest.seconds",
    ),
    text=reports.multihop_text,
    bench_extras=_multihop_extras,
)
CONTRADICTIONS = EvalKind[ContradictionsResult](
    command="contradictions",
    about="the conflict stage on labelled claim pairs (JSONL)",
    numbers=(
        "n",
        higher("catch_rate"),
        lower("false_alarm.consistent"),
        "false_alarm.unrelated_aspect",
        lower("false_alarm.all"),
        higher("precision"),
        lower("llm_calls"),
        "prompt_tokens",
        "by_split.tune.catch_rate",
        "by_split.tune.false_alarm.all",
        higher("by_split.report.catch_rate"),
        "by_split.report.false_alarm.all",
        "end_to_end.injected",
        "end_to_end.found",
        higher("end_to_end.catch_rate"),
        "end_to_end.controls",
        lower("end_to_end.false_alarms"),
        "end_to_end.ingest.conflict_calls",
    ),
    text=reports.contradictions_text,
    bench_extras=_contradictions_extras,
)
EXTRACTION = EvalKind[ExtractionResult](
    command="extraction",
    about="extraction precision/recall against a gold set (JSONL)",
    numbers=(
        "documents",
        higher("concepts.precision"),
        higher("concepts.recall"),
        higher("concepts_typed.precision"),
        higher("concepts_typed.recall"),
        higher("claims.precision"),
        higher("claims.recall"),
        higher("by_split.report.concepts.precision"),
        higher("by_split.report.concepts.recall"),
        higher("by_split.report.claims.precision"),
        higher("by_split.report.claims.recall"),
        lower("llm_calls"),
        "prompt_tokens",
    ),
    text=reports.extraction_text,
)
ANSWERS = EvalKind[AnswersResult](
    command="answers",
    about="answer faithfulness and abstention on multi-hop questions",
    numbers=(
        "n",
        "sentences",
        higher("supported_rate"),
        lower("control_supported_rate"),
        lower("uncited_sentences"),
        higher("abstention_correct"),
        "needed_not_retrieved",
        "abstained_when_missing",
        higher("answered_when_retrieved"),
        higher("answer_found"),
        "checker.llm_calls",
        "checker.prompt_tokens",
        "ingest.llm_calls_per_passage",
    ),
    text=reports.answers_text,
    bench_extras=_answers_extras,
)
DOCS = EvalKind[DocsResult](
    command="docs",
    about="a real documentation folder: answers graded against a key, samples",
    numbers=(
        "n",
        higher("by_split.tune.useful"),
        "by_split.tune.partly",
        "by_split.tune.wrong",
        "by_split.tune.missed",
        higher("by_split.report.useful"),
        "by_split.report.partly",
        lower("by_split.report.wrong"),
        "by_split.report.missed",
        "by_split.tune.abstained_out_of_corpus",
        higher("by_split.report.abstained_out_of_corpus"),
        higher("useful"),
        "wrong",
        higher("abstained_out_of_corpus"),
        "concepts.concepts",
        lower("concepts.fallback_share"),
        "concepts.sample.shares.junk",
        "concepts.sample.shares.duplicate",
        "concepts.sample.graded",
        "contradictions.flags",
        "contradictions.superseded",
        "contradictions.sample.shares.real",
        "contradictions.sample.graded",
        "ingest.seconds",
        "ask_seconds",
        "seconds",
    ),
    text=reports.docs_text,
    bench_extras=_docs_extras,
)
KINDS = (ER, MULTIHOP, CONTRADICTIONS, EXTRACTION, ANSWERS, DOCS)
