"""Eval assets: each runs one benchmark on the eval instance and gates it against the baseline.

They sit in their own group with no upstream assets, so nothing on the ingest path waits
for them, and they never open the user's graph: the Neo4j resource is read only to derive
(and refuse to collide with) the eval instance. Each emits its numbers, a markdown table
and a PNG plot, and one blocking check that fails (ERROR) when a metric falls below
evals/baselines.json minus the tolerance, so the run exits non-zero on a regression.
"""

# No `from __future__ import annotations`: Dagster checks the context annotation's type.
from collections.abc import Callable
from functools import partial

import dagster as dg

from graphwiki_assets.core.evals import answers, baselines, contradictions, er, extraction, multihop, plots
from graphwiki_assets.core.evals.datasets import (
    ANSWER_SETS,
    CONTRADICTION_SETS,
    DOCS_SETS,
    ER_SETS,
    EXTRACTION_SETS,
    MULTIHOP_SETS,
    er_pairs,
    extraction_gold,
)
from graphwiki_assets.core.evals.docs import run as docs_run
from graphwiki_assets.core.evals.runs import (
    answers_eval,
    contradictions_eval,
    docs_eval,
    er_eval,
    extraction_eval,
    multihop_eval,
)
from graphwiki_assets.core.markdown import exact_cell, table
from graphwiki_assets.defs.resources import EmbeddingResource, GraphwikiConfig, LLMResource, Neo4jResource

GROUP = "evals"
# "Materialize all" in the evals group takes minutes; the corpus-scale sets take most of an hour.
LARGE_GROUP = "evals_corpus"
CHECK = "no_regression"


def _numbers(headline: dict) -> dict:
    return {
        k: dg.MetadataValue.float(float(v)) if isinstance(v, float) else dg.MetadataValue.int(int(v))
        for k, v in headline.items()
        if isinstance(v, (int, float)) and not isinstance(v, bool)
    }


def _plot(png: bytes) -> dg.MetadataValue:
    return dg.MetadataValue.md(plots.markdown_image(png))


def md_table(rows: list[dict], columns: list[str]) -> str:
    return "\n".join(table(columns, [[r.get(c, "") for c in columns] for r in rows], exact_cell)) + "\n"


def regression_check(eval_name: str, result: dict, label: str) -> dg.AssetCheckResult:
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


def er_metadata(result: dict) -> dict:
    classes = [{"class": label, **result["cosine_only"]["by_class"][label]} for label in er.LABELS]
    modes = [
        {
            "mode": "pair",
            "stage1": f"cosine >= {result['stage1_config']['floor']}",
            **result["stage1"],
            **{k: result["two_stage"][k] for k in ("precision", "recall", "f1", "llm_calls")},
        }
    ]
    if "population" in result:
        p = result["population"]
        modes.append(
            {
                "mode": "population",
                "stage1": f"kNN top-{result['stage1_config']['top_k']}",
                **p["stage1"],
                **{k: p["two_stage"][k] for k in ("precision", "recall", "f1", "llm_calls")},
            }
        )
    tables = (
        "### cosine by class\n"
        + md_table(classes, ["class", "n", "mean", "min", "median", "max"])
        + "\n### stage 1 and two-stage\n"
        + md_table(
            modes, ["mode", "stage1", "same_passed", "unrelated_screened", "precision", "recall", "f1", "llm_calls"]
        )
        + "\n### tune and report halves (only the report half is evidence)\n"
        + (
            md_table(
                [{"half": h, **x} for h, x in result["by_split"].items()],
                ["half", "n", "cosine_only_best_f1", "stage1_same_passed", "precision", "recall", "f1"],
            )
            if result.get("by_split")
            else "_this set has no split_\n"
        )
        + "\n### stage-2 verdicts by label\n"
        + md_table(
            [
                {"label": label, **{v: said.get(v, 0) for v in ("SAME", "RELATED", "DIFFERENT")}}
                for label, said in result["two_stage"].get("verdicts_by_label", {}).items()
            ],
            ["label", "SAME", "RELATED", "DIFFERENT"],
        )
        + "\n### wrong decisions (pair mode)\n"
        + md_table(result["errors"], ["label", "a", "b", "score", "cause", "predicted", "reason"])
    )
    return {
        **_numbers(er.headline(result)),
        "judge": result["judge"],
        "embedding_model": result["embedding_model"],
        "table": dg.MetadataValue.md(tables),
        "plot": _plot(plots.er_plot(result)),
        "errors": dg.MetadataValue.json(result["errors"]),
    }


def multihop_metadata(result: dict) -> dict:
    columns = ["recall", "all_recall", "docs_per_question", "precision", "context_tokens"]
    rows = [{"method": m, **{k: result[m][k] for k in columns}} for m in multihop.reported_methods(result)]
    tables = (
        md_table(rows, ["method", *columns])
        + "\n### precision against hops and fan-out\n"
        + md_table(
            result.get("sweep", []),
            ["method", "hops", "fanout", "k", "recall", "all_recall", "precision", "docs_per_question"],
        )
    )
    return {
        **_numbers(multihop.headline(result)),
        "backend": result["backend"],
        "graph_beats_flat": result["graph_beats_flat"],
        "table": dg.MetadataValue.md(tables),
        "plot": _plot(plots.multihop_plot(result)),
        "ingest": dg.MetadataValue.json(result["ingest"]),
    }


def contradiction_metadata(result: dict) -> dict:
    kinds = [
        {"kind": k, "n": x["n"], "catch_rate": x["catch_rate"], "false_alarm": x["false_alarm"]["all"]}
        for k, x in result["by_kind"].items()
    ]
    outcomes = [{"label": label, **counts} for label, counts in result["outcomes"].items()]
    tables = (
        "### outcome by label\n"
        + md_table(outcomes, ["label", *contradictions.OUTCOMES])
        + "\n### by kind\n"
        + md_table(kinds, ["kind", "n", "catch_rate", "false_alarm"])
        + "\n### wrong decisions\n"
        + md_table(result["errors"], ["label", "kind", "a", "b", "outcome", "reason"])
    )
    out = {
        **_numbers(contradictions.headline(result)),
        "backend": result["backend"],
        "table": dg.MetadataValue.md(tables),
        "plot": _plot(plots.contradiction_plot(result)),
        "errors": dg.MetadataValue.json(result["errors"]),
    }
    if "end_to_end" in result:
        rows = [{k: r[k] for k in ("id", "label", "target", "text", "why")} for r in result["end_to_end"]["injections"]]
        out["end_to_end"] = dg.MetadataValue.md(md_table(rows, ["id", "label", "target", "text", "why"]))
    return out


def extraction_metadata(result: dict) -> dict:
    rows = [
        {"items": g, **{k: result[g][k] for k in ("precision", "recall", "f1", "extracted", "gold")}}
        for g in ("concepts", "concepts_typed", "claims")
    ]
    tables = (
        md_table(rows, ["items", "precision", "recall", "f1", "extracted", "gold"])
        + "\n### claims against the matching threshold\n"
        + md_table(result["sweep"], ["threshold", "precision", "recall", "f1"])
    )
    return {
        **_numbers(extraction.headline(result)),
        "backend": result["backend"],
        "table": dg.MetadataValue.md(tables),
        "plot": _plot(plots.extraction_plot(result)),
        "recall_by_type": dg.MetadataValue.json(result["recall_by_type"]),
    }


def answers_metadata(result: dict) -> dict:
    rows = [
        {
            "id": q["id"],
            "shape": q["shape"],
            "needed_retrieved": q["needed_retrieved"],
            "abstained": q["abstained"],
            "sentences": len(q["sentences"]),
            "supported": sum(s["supported"] for s in q["sentences"]),
            "answer_found": q["answer_found"],
        }
        for q in result["questions"]
    ]
    tables = (
        md_table(rows, ["id", "shape", "needed_retrieved", "abstained", "sentences", "supported", "answer_found"])
        + "\n### unsupported sentences\n"
        + md_table(result["unsupported"], ["question", "sentence", "reason"])
    )
    return {
        **_numbers(answers.headline(result)),
        "backend": result["backend"],
        "table": dg.MetadataValue.md(tables),
        "plot": _plot(plots.answers_plot(result)),
        "ingest": dg.MetadataValue.json(result["ingest"]),
    }


def docs_metadata(result: dict) -> dict:
    grades = ["useful", "partly", "wrong", "missed", "abstained_out_of_corpus"]
    halves = [{"half": h, "n": x["n"], **{g: x[g] for g in grades}} for h, x in result["by_split"].items()]
    halves.append({"half": "all", "n": result["n"], **{g: result[g] for g in grades}})
    concepts, flags = result["concepts"], result["contradictions"]
    tables = (
        "### answers by half (only the report half is evidence)\n"
        + md_table(halves, ["half", "n", *grades])
        + "\n### questions\n"
        + md_table(result["questions"], ["id", "split", "shape", "routed", "grade", "gold_cited", "rung"])
        + f"\n### concept sample ({concepts['sample']['graded']} of {concepts['sample']['size']} labelled; "
        f"fallback type on {concepts['fallback_share']} of {concepts['concepts']} concepts)\n"
        + md_table(concepts["sample"]["items"], ["name", "type", "claims", "label"])
        + f"\n### contradiction sample ({flags['sample']['graded']} of {flags['sample']['size']} labelled, "
        f"{flags['flags']} flags)\n" + md_table(flags["sample"]["items"], ["a", "b", "a_status", "b_status", "label"])
    )
    return {
        **_numbers(docs_run.headline(result)),
        "backend": result["backend"],
        "table": dg.MetadataValue.md(tables),
        "ungraded_concepts": dg.MetadataValue.json([i["name"] for i in concepts["sample"]["ungraded"]]),
        "ingest": dg.MetadataValue.json(result["ingest"]),
    }


def eval_asset(
    name: str, description: str, run: Callable[..., dict], metadata: Callable[[dict], dict], group: str = GROUP
):
    """One eval as an asset: ``run(settings, embedder, llm, log)`` on the eval instance, then
    its metadata and the regression check."""

    @dg.asset(
        name=name, group_name=group, kinds={"python", "neo4j"}, check_specs=[_check_spec(name)], description=description
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
        result = run(settings, embeddings.embedder(), client, log=context.log.info)
        check = regression_check(name, result, client.label)
        return dg.MaterializeResult(metadata=metadata(result), check_results=[check])

    return _eval


def _er(name: str):
    run = partial(er_eval, pairs_path=er_pairs(name), name=ER_SETS[name])
    return eval_asset(
        name,
        f"Entity-resolution eval on evals/er/{ER_SETS[name]}.jsonl: cosine only, stage 1, "
        "two-stage; pair and population (kNN) mode.",
        run,
        er_metadata,
    )


def _multihop(name: str):
    ds = MULTIHOP_SETS[name]
    run = partial(multihop_eval, corpus=ds.corpus, questions=ds.questions, name=ds.name)
    slow = (
        (
            " Slow: the ingest of thousands of passages takes about 40 minutes on two cores, so these sets have "
            f"a group of their own ({LARGE_GROUP})."
        )
        if ds.large
        else ""
    )
    return eval_asset(
        name,
        f"Multi-hop eval on evals/multihop/{ds.folder}: flat RAG vs graph retrieval at k=5 "
        f"over one ingest into the eval instance.{slow}",
        run,
        multihop_metadata,
        group=LARGE_GROUP if ds.large else GROUP,
    )


def _contradictions(name: str):
    ds = CONTRADICTION_SETS[name]
    run = partial(contradictions_eval, pairs_path=ds.pairs, corpus=ds.corpus, inject=ds.inject, name=ds.name)
    return eval_asset(
        name,
        f"Contradiction eval: the conflict stage on evals/contradictions/{ds.pairs_file} (catch "
        f"rate, false alarms, calls), and {ds.inject_file} injected into the "
        f"{ds.corpus_set.name} corpus end to end.",
        run,
        contradiction_metadata,
    )


def _extraction(name: str):
    run = partial(extraction_eval, gold_path=extraction_gold(name), name=EXTRACTION_SETS[name])
    return eval_asset(
        name,
        f"Extraction eval on evals/extraction/{EXTRACTION_SETS[name]}.jsonl: precision and recall "
        "of concepts and claims against the gold annotation.",
        run,
        extraction_metadata,
    )


def _answers(name: str):
    ds = ANSWER_SETS[name]
    run = partial(answers_eval, corpus=ds.corpus, questions=ds.questions, name=ds.name)
    return eval_asset(
        name,
        f"Answer faithfulness on evals/multihop/{ds.folder}: every sentence supported by its "
        "citations, abstention when the needed documents were not retrieved.",
        run,
        answers_metadata,
    )


def _docs(name: str):
    ds = DOCS_SETS[name]
    run = partial(docs_eval, corpus=ds.corpus, questions=ds.questions, name=ds.name)
    return eval_asset(
        name,
        f"Real-document eval on evals/docs/{ds.folder}: the folder ingested as a user's files, answers graded "
        "useful / partly / wrong / missed against a written key, abstention on out-of-corpus questions, and "
        "labelled samples of concepts and contradiction flags."
        + (f" Slow: the ingest takes tens of minutes on two cores (group {LARGE_GROUP})." if ds.large else ""),
        run,
        docs_metadata,
        group=LARGE_GROUP if ds.large else GROUP,
    )


EVAL_ASSETS = (
    [_er(n) for n in ER_SETS]
    + [_multihop(n) for n in MULTIHOP_SETS]
    + [_contradictions(n) for n in CONTRADICTION_SETS]
    + [_extraction(n) for n in EXTRACTION_SETS]
    + [_answers(n) for n in ANSWER_SETS]
    + [_docs(n) for n in DOCS_SETS]
)
