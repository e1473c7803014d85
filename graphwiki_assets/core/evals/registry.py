"""Every eval declared once: what runs it, its headline numbers, the ones the baselines gate
and in which direction, and its report text.

``graphwiki eval <kind>`` has one subcommand per :class:`EvalKind`; ``graphwiki bench`` and
the Dagster eval assets (with their regression checks) have one entry per :class:`EvalSpec`,
a kind bound to one labelled set. Adding an eval on a new set is one spec in :data:`EVALS`;
a new kind adds its CLI arguments and its asset tables beside it (tests hold the three
together). Each kind's run returns its typed result (``core/evals/results/``): that object is
what crosses into the CLI and the assets, which print its JSON form (``Result.as_json``, the
keys and values the eval always printed), read its fields for their tables and compare it
with the baselines (dotted keys into the JSON form); the numbers shown beside each other
cross as a :class:`Headline`.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from typing import Any

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
from graphwiki_assets.core.evals.kinds import ANSWERS, CONTRADICTIONS, DOCS, ER, EXTRACTION, KINDS, MULTIHOP
from graphwiki_assets.core.evals.results.contradictions import ContradictionsResult
from graphwiki_assets.core.evals.results.docs import DocsResult
from graphwiki_assets.core.evals.results.er import ErResult
from graphwiki_assets.core.evals.results.extraction import ExtractionResult
from graphwiki_assets.core.evals.results.retrieval import AnswersResult, MultihopResult
from graphwiki_assets.core.evals.spec import CORPUS_GROUP, EvalOptions, EvalSpec

__all__ = ["BY_NAME", "CORPUS_GROUP", "EVALS", "KINDS", "EvalOptions", "EvalSpec", "UnknownEval", "bench_plan"]


def _run_er(name: str, o: EvalOptions) -> ErResult:
    from graphwiki_assets.core.evals.runs import er_eval

    return er_eval(o.settings, o.embedder, o.llm, er_pairs(name), name=ER_SETS[name], log=o.log)


def _run_multihop(name: str, o: EvalOptions) -> MultihopResult:
    from graphwiki_assets.core.evals.runs import multihop_eval

    ds = MULTIHOP_SETS[name]
    return multihop_eval(o.settings, o.embedder, o.llm, ds.corpus, ds.questions, k=o.k, name=ds.name, log=o.log)


def _run_contradictions(name: str, o: EvalOptions) -> ContradictionsResult:
    from graphwiki_assets.core.evals.runs import contradictions_eval

    ds = CONTRADICTION_SETS[name]
    return contradictions_eval(
        o.settings, o.embedder, o.llm, ds.pairs, corpus=ds.corpus, inject=ds.inject, name=ds.name, log=o.log
    )


def _run_extraction(name: str, o: EvalOptions) -> ExtractionResult:
    from graphwiki_assets.core.evals.runs import extraction_eval

    return extraction_eval(o.settings, o.embedder, o.llm, extraction_gold(name), name=EXTRACTION_SETS[name], log=o.log)


def _run_answers(name: str, o: EvalOptions) -> AnswersResult:
    from graphwiki_assets.core.evals.runs import answers_eval

    ds = ANSWER_SETS[name]
    return answers_eval(o.settings, o.embedder, o.llm, ds.corpus, ds.questions, name=ds.name, log=o.log)


def _run_docs(name: str, o: EvalOptions) -> DocsResult:
    from graphwiki_assets.core.evals.runs import docs_eval

    ds = DOCS_SETS[name]
    return docs_eval(o.settings, o.embedder, o.llm, ds.corpus, ds.questions, name=ds.name, log=o.log)


# The product listings' dev set is all for tuning (evals/er/PRODUCTS.md): it has no report
# half, so the report half's numbers are not gated there.
TUNING_ONLY = frozenset({"er_eval_products_dev"})
NO_REPORT_SPLIT = frozenset({"by_split.report.precision", "by_split.report.f1"})


def _er_specs() -> list[EvalSpec]:
    return [
        EvalSpec(
            name,
            ER,
            f"Entity-resolution eval on evals/er/{ER_SETS[name]}.jsonl: cosine only, stage 1, "
            "two-stage; pair and population (kNN) mode.",
            partial(_run_er, name),
            ungated=NO_REPORT_SPLIT if name in TUNING_ONLY else frozenset(),
        )
        for name in ER_SETS
    ]


def _multihop_specs() -> list[EvalSpec]:
    return [
        EvalSpec(
            name,
            MULTIHOP,
            f"Multi-hop eval on evals/multihop/{ds.folder}: flat RAG vs graph retrieval at k=5 "
            f"over one ingest into the eval instance."
            + (
                " Slower than the others: the ingest of thousands of passages takes minutes, not seconds "
                f"(two to three on two cores, offline), so these sets have a group of their own ({CORPUS_GROUP})."
                if ds.large
                else ""
            ),
            partial(_run_multihop, name),
            large=ds.large,
        )
        for name, ds in MULTIHOP_SETS.items()
    ]


def _other_specs() -> list[EvalSpec]:
    specs: list[EvalSpec[Any]] = [
        EvalSpec(
            name,
            CONTRADICTIONS,
            f"Contradiction eval: the conflict stage on evals/contradictions/{ds.pairs_file} (catch "
            f"rate, false alarms, calls), and {ds.inject_file} injected into the "
            f"{ds.corpus_set.name} corpus end to end.",
            partial(_run_contradictions, name),
        )
        for name, ds in CONTRADICTION_SETS.items()
    ]
    specs += [
        EvalSpec(
            name,
            EXTRACTION,
            f"Extraction eval on evals/extraction/{gold}.jsonl: precision and recall "
            "of concepts and claims against the gold annotation.",
            partial(_run_extraction, name),
        )
        for name, gold in EXTRACTION_SETS.items()
    ]
    specs += [
        EvalSpec(
            name,
            ANSWERS,
            f"Answer faithfulness on evals/multihop/{ds.folder}: every sentence supported by its "
            "citations, abstention when the needed documents were not retrieved.",
            partial(_run_answers, name),
        )
        for name, ds in ANSWER_SETS.items()
    ]
    specs += [
        EvalSpec(
            name,
            DOCS,
            f"Real-document eval on evals/docs/{ds.folder}: the folder ingested as a user's files, answers graded "
            "useful / partly / wrong / missed against a written key, abstention on out-of-corpus questions, and "
            "labelled samples of concepts and contradiction flags."
            + (f" Slow: the ingest takes tens of minutes on two cores (group {CORPUS_GROUP})." if ds.large else ""),
            partial(_run_docs, name),
            large=ds.large,
        )
        for name, ds in DOCS_SETS.items()
    ]
    return specs


EVALS: tuple[EvalSpec, ...] = (*_er_specs(), *_multihop_specs(), *_other_specs())
BY_NAME = {spec.name: spec for spec in EVALS}


class UnknownEval(ValueError):
    pass


def bench_plan(full: bool = False, only: Iterable[str] | None = None) -> list[EvalSpec]:
    """The evals ``graphwiki bench`` runs, in the registry's order: the quick ones, and with
    ``full`` the corpus-scale ones too; ``only`` picks by name from every eval (a named large
    one runs without ``full``, after the quick ones)."""
    quick = [s for s in EVALS if full or not s.large]
    if not only:
        return quick
    wanted = set(only)
    unknown = sorted(wanted - set(BY_NAME))
    if unknown:
        raise UnknownEval(f"unknown eval {', '.join(unknown)}; choose from {', '.join(sorted(BY_NAME))}")
    ordered = quick + [s for s in EVALS if s not in quick]
    return [s for s in ordered if s.name in wanted]
