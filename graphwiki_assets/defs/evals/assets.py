"""Eval assets: each runs one benchmark on the eval instance and gates it against the baseline.

They sit in their own group with no upstream assets, so nothing on the ingest path waits
for them, and they never open the user's graph: the Neo4j resource is read only to derive
(and refuse to collide with) the eval instance. Each emits its numbers, its tables (Dagster
table metadata, one entry per table) and a PNG plot, and one blocking check that fails (ERROR) when a metric falls below
evals/baselines.json minus the tolerance, so the run exits non-zero on a regression.
"""

# No `from __future__ import annotations`: Dagster checks the context annotation's type.
from collections.abc import Callable, Mapping
from typing import Any

import dagster as dg
import pandas as pd

from graphwiki_assets.core.evals import baselines, contradictions, kinds, plots
from graphwiki_assets.core.evals.registry import CORPUS_GROUP, EVALS, EvalOptions, EvalSpec
from graphwiki_assets.core.evals.results import Part, Result, rows
from graphwiki_assets.core.evals.results.contradictions import ContradictionsResult
from graphwiki_assets.core.evals.results.docs import DocsResult
from graphwiki_assets.core.evals.results.er import ErResult
from graphwiki_assets.core.evals.results.extraction import ExtractionResult
from graphwiki_assets.core.evals.results.retrieval import AnswersResult, MultihopResult
from graphwiki_assets.core.evals.spec import Headline
from graphwiki_assets.defs.metadata import rows_table, table_metadata
from graphwiki_assets.defs.resources import EmbeddingResource, GraphwikiConfig, LLMResource, Neo4jResource

GROUP = "evals"
# "Materialize all" in the evals group takes minutes; the corpus-scale sets take most of an hour.
LARGE_GROUP = CORPUS_GROUP
CHECK = "no_regression"
VERDICTS = ("SAME", "RELATED", "DIFFERENT")
ANSWER_COLUMNS = ["id", "shape", "needed_retrieved", "abstained", "answer_found"]


def _numbers(headline: Headline) -> dict:
    return {
        n.key: dg.MetadataValue.float(float(n.value))
        if isinstance(n.value, float)
        else dg.MetadataValue.int(int(n.value))
        for n in headline.numbers
        if isinstance(n.value, (int, float)) and not isinstance(n.value, bool)
    }


def _plot(png: bytes) -> dg.MetadataValue:
    return dg.MetadataValue.md(plots.markdown_image(png))


def regression_check(eval_name: str, result: Result, label: str) -> dg.AssetCheckResult:
    committed = baselines.load()
    comparisons = baselines.compare(eval_name, result, committed, label)
    failed = baselines.regressions(comparisons)
    entry = baselines.section(committed, label).get("evals", {}).get(eval_name, {})
    return dg.AssetCheckResult(
        check_name=CHECK,
        asset_key=eval_name,
        passed=not failed,
        severity=dg.AssetCheckSeverity.ERROR,
        description=(
            "; ".join(c.describe() for c in failed)
            if failed
            else f"{len(comparisons)} metrics at or above baseline"
            if comparisons
            else f"no baseline committed for {label}"
        ),
        metadata={
            "baseline_file": str(baselines.baselines_path()),
            "baseline_backend": entry.get("backend", ""),
            "baseline_date": entry.get("date", ""),
            "regressions": len(failed),
            "comparisons": dg.MetadataValue.json([c.as_dict() for c in comparisons]),
        },
    )


def _check_spec(name: str) -> dg.AssetCheckSpec:
    return dg.AssetCheckSpec(
        CHECK,
        asset=name,
        blocking=True,
        description="every metric >= its committed baseline in evals/baselines.json minus tolerance",
    )


def _by_key(table: dict, key: str, columns: list[str] | None = None) -> pd.DataFrame:
    """``{"tune": {...}, "report": {...}}`` as a frame, the keys in column ``key`` (every key a
    row, also one whose dict is empty), then ``columns`` in that order when given."""
    frame = pd.DataFrame.from_dict(table, orient="index").reindex(index=list(table))
    frame = frame.rename_axis(key).reset_index()
    return frame if columns is None else frame.reindex(columns=[key, *columns])


def _json(parts: Mapping[str, Part]) -> dict[str, dict[str, Any]]:
    """Typed parts by key as the JSON objects they stand for, to tabulate."""
    return {key: part.as_json() for key, part in parts.items()}


def er_metadata(result: ErResult) -> dict:
    config = result.stage1_config
    modes = {"pair": (f"cosine >= {config.floor}", result.stage1, result.two_stage)}
    if result.population is not None:
        modes["population"] = (f"kNN top-{config.top_k}", result.population.stage1, result.population.two_stage)
    judged = ["precision", "recall", "f1", "llm_calls"]
    stages = pd.DataFrame(
        [
            {
                "mode": mode,
                "stage1": rule,
                "same_passed": screen.same_passed,
                "unrelated_screened": screen.unrelated_screened,
                **{k: getattr(two, k) for k in judged},
            }
            for mode, (rule, screen, two) in modes.items()
        ]
    )
    said = _by_key(result.two_stage.verdicts_by_label, "label", list(VERDICTS))
    by_class = _by_key(_json(result.cosine_only.by_class), "class", ["n", "mean", "min", "median", "max"])
    return {
        **_numbers(kinds.ER.headline(result)),
        "judge": result.judge,
        "embedding_model": result.embedding_model,
        "cosine_by_class": table_metadata(by_class),
        "stages": table_metadata(stages[["mode", "stage1", "same_passed", "unrelated_screened", *judged]]),
        # only the report half is evidence
        "by_split": table_metadata(_by_key(_json(result.by_split), "half"), empty="this set has no split"),
        "verdicts_by_label": table_metadata(said.fillna({v: 0 for v in VERDICTS}).astype({v: int for v in VERDICTS})),
        "wrong_decisions": rows_table(
            rows(result.errors), ["label", "a", "b", "score", "cause", "predicted", "reason"], empty="none"
        ),
        "plot": _plot(plots.er_plot(result)),
        "errors": dg.MetadataValue.json(rows(result.errors)),
    }


def multihop_metadata(result: MultihopResult) -> dict:
    columns = ["recall", "all_recall", "docs_per_question", "precision", "context_tokens"]
    sweep = ["method", "hops", "fanout", "k", "recall", "all_recall", "precision", "docs_per_question"]
    return {
        **_numbers(kinds.MULTIHOP.headline(result)),
        "backend": result.backend,
        "graph_beats_flat": result.graph_beats_flat,
        "methods": table_metadata(_by_key(_json(result.methods()), "method", columns)),
        "by_split": table_metadata(_by_key(result.by_split, "half"), empty="this set has no split"),
        # precision against hops and fan-out
        "sweep": rows_table(rows(result.sweep or []), sweep, empty="not run"),
        "plot": _plot(plots.multihop_plot(result)),
        "ingest": dg.MetadataValue.json(result.ingest.as_json()),
    }


def contradiction_metadata(result: ContradictionsResult) -> dict:
    by_kind = _by_key(_json(result.by_kind), "kind", ["n", "catch_rate", "false_alarm"])
    by_kind["false_alarm"] = by_kind["false_alarm"].map(lambda alarms: alarms["all"])
    out = {
        **_numbers(kinds.CONTRADICTIONS.headline(result)),
        "backend": result.backend,
        "outcomes_by_label": table_metadata(_by_key(result.outcomes, "label", list(contradictions.OUTCOMES))),
        "by_kind": table_metadata(by_kind),
        "wrong_decisions": rows_table(
            rows(result.errors), ["label", "kind", "a", "b", "outcome", "reason"], empty="none"
        ),
        "plot": _plot(plots.contradiction_plot(result)),
        "errors": dg.MetadataValue.json(rows(result.errors)),
    }
    if result.end_to_end is not None:
        out["end_to_end"] = rows_table(result.end_to_end.injections, ["id", "label", "target", "text", "why"])
    return out


def extraction_metadata(result: ExtractionResult) -> dict:
    items = {"concepts": result.concepts, "concepts_typed": result.concepts_typed, "claims": result.claims}
    return {
        **_numbers(kinds.EXTRACTION.headline(result)),
        "backend": result.backend,
        "scores": table_metadata(_by_key(_json(items), "items", ["precision", "recall", "f1", "extracted", "gold"])),
        # claims against the matching threshold
        "threshold_sweep": rows_table(rows(result.sweep), ["threshold", "precision", "recall", "f1"]),
        "plot": _plot(plots.extraction_plot(result)),
        "recall_by_type": dg.MetadataValue.json(_json(result.recall_by_type)),
    }


def answers_metadata(result: AnswersResult) -> dict:
    asked = result.questions
    questions = pd.DataFrame([{c: getattr(q, c) for c in ANSWER_COLUMNS} for q in asked], columns=ANSWER_COLUMNS)
    questions.insert(4, "sentences", pd.Series([len(q.sentences) for q in asked], dtype=int))
    questions.insert(5, "supported", pd.Series([sum(s.supported for s in q.sentences) for q in asked], dtype=int))
    return {
        **_numbers(kinds.ANSWERS.headline(result)),
        "backend": result.backend,
        "questions": table_metadata(questions),
        "unsupported": rows_table(rows(result.unsupported), ["question", "sentence", "reason"], empty="none"),
        "plot": _plot(plots.answers_plot(result)),
        "ingest": dg.MetadataValue.json(result.ingest.as_json()),
    }


def docs_metadata(result: DocsResult) -> dict:
    grades = ["useful", "partly", "wrong", "missed", "abstained_out_of_corpus"]
    halves = _by_key(_json({**result.by_split, "all": result.grades()}), "half", ["n", *grades])
    concepts, flags = result.concepts.sample, result.contradictions.sample
    return {
        **_numbers(kinds.DOCS.headline(result)),
        "backend": result.backend,
        # only the report half is evidence
        "by_half": table_metadata(halves),
        "questions": rows_table(
            rows(result.questions), ["id", "split", "shape", "routed", "grade", "gold_cited", "rung"]
        ),
        "concept_sample": rows_table(concepts.items, ["name", "type", "claims", "label"], empty="none"),
        "concept_sample_labelled": f"{concepts.graded} of {concepts.size}",
        "fallback_type_share": result.concepts.fallback_share,
        "untyped_share": result.concepts.untyped_share,
        "contradiction_sample": rows_table(flags.items, ["a", "b", "a_status", "b_status", "label"], empty="none"),
        "contradiction_sample_labelled": f"{flags.graded} of {flags.size}",
        "contradiction_flags": result.contradictions.flags,
        "ungraded_concepts": dg.MetadataValue.json([i["name"] for i in concepts.ungraded]),
        "ingest": dg.MetadataValue.json(result.ingest),
    }


def eval_asset(spec: EvalSpec[Any], metadata: Callable[[Any], dict]):
    """One eval of the registry as an asset: its run on the eval instance, then its metadata
    and the regression check."""
    name = spec.name

    @dg.asset(
        name=name,
        group_name=LARGE_GROUP if spec.large else GROUP,
        kinds={"python", "neo4j"},
        check_specs=[_check_spec(name)],
        description=spec.description,
    )
    def _eval(
        context: dg.AssetExecutionContext,
        graphwiki: GraphwikiConfig,
        neo4j: Neo4jResource,
        embeddings: EmbeddingResource,
        llm: LLMResource,
    ):
        settings = graphwiki.settings(neo4j, embeddings, llm)
        client = llm.client()
        result = spec.run(EvalOptions(settings, embeddings.embedder(), client, log=context.log.info))
        check = regression_check(name, result, client.label)
        return dg.MaterializeResult(metadata=metadata(result), check_results=[check])

    return _eval


# What each kind of eval shows on its asset (tables, plot, samples), by the kind's command.
METADATA: dict[str, Callable[[Any], dict]] = {
    kinds.ER.command: er_metadata,
    kinds.MULTIHOP.command: multihop_metadata,
    kinds.CONTRADICTIONS.command: contradiction_metadata,
    kinds.EXTRACTION.command: extraction_metadata,
    kinds.ANSWERS.command: answers_metadata,
    kinds.DOCS.command: docs_metadata,
}
EVAL_ASSETS = [eval_asset(spec, METADATA[spec.kind.command]) for spec in EVALS]
