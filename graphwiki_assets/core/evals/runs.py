"""One eval run on the eval instance, the same way for the CLI, bench and the Dagster assets.

The caller passes the user's settings; the graph used is always the eval instance derived
from them (instance.eval_settings), locked and wiped before use.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from graphwiki_assets.core.evals import answers, contradictions, er, extraction, injection, multihop
from graphwiki_assets.core.evals.instance import eval_settings, eval_store, wipe
from graphwiki_assets.core.evals.results.contradictions import ContradictionsResult
from graphwiki_assets.core.evals.results.docs import DocsResult
from graphwiki_assets.core.evals.results.er import ErResult
from graphwiki_assets.core.evals.results.extraction import ExtractionResult
from graphwiki_assets.core.evals.results.retrieval import AnswersResult, MultihopResult
from graphwiki_assets.core.settings import Settings

Log = Callable[[str], None]


def er_eval(
    settings: Settings,
    embedder,
    llm,
    pairs_path: Path | str,
    limit: int | None = None,
    population: bool = True,
    name: str = "",
    log: Log = lambda m: None,
) -> ErResult:
    pairs = er.load_pairs(pairs_path, limit)
    name = name or Path(pairs_path).stem
    if not population:
        return er.run_er(pairs, embedder, llm, None, name=name, log=log)
    with eval_store(eval_settings(settings), log=log) as store:
        wipe(store)
        return er.run_er(pairs, embedder, llm, store, name=name, log=log)


def multihop_eval(
    settings: Settings,
    embedder,
    llm,
    corpus: Path | str,
    questions: Path | str,
    k: int = 5,
    hops: int = 2,
    limit: int | None = None,
    method: str = "bridge",
    with_sweep: bool = True,
    name: str = "",
    log: Log = lambda m: None,
) -> MultihopResult:
    docs, qs = multihop.load_set(corpus, questions, limit)
    name = name or Path(corpus).parent.name
    with eval_store(eval_settings(settings), log=log) as store:
        wipe(store)
        return multihop.run_multihop(
            store, embedder, llm, docs, qs, k=k, hops=hops, method=method, name=name, with_sweep=with_sweep, log=log
        )


def contradictions_eval(
    settings: Settings,
    embedder,
    llm,
    pairs_path: Path | str,
    corpus: Path | str | None = None,
    inject: Path | str | None = None,
    limit: int | None = None,
    name: str = "",
    log: Log = lambda m: None,
) -> ContradictionsResult:
    """Pair mode on the labelled pairs; with ``inject`` (and its ``corpus``) the end-to-end
    mode too, on the same eval instance after a wipe."""
    if inject and not corpus:
        raise ValueError("the end-to-end mode needs the corpus the injections target (--corpus)")
    pairs = contradictions.load_pairs(pairs_path, limit)
    docs = multihop.load_jsonl(corpus) if inject and corpus else []
    injections = injection.load_injections(inject, {d["id"] for d in docs}) if inject else []
    with eval_store(eval_settings(settings), log=log) as store:
        wipe(store)
        result = contradictions.run_pairs(store, embedder, llm, pairs, name=name or Path(pairs_path).stem, log=log)
        if inject:
            wipe(store)
            end_to_end = injection.run_injection(store, embedder, llm, docs, injections, log=log)
            result = result.with_(end_to_end=end_to_end.with_(corpus=str(corpus), injections_file=str(inject)))
    return result


def extraction_eval(
    settings: Settings,
    embedder,
    llm,
    gold_path: Path | str,
    limit: int | None = None,
    threshold: float = extraction.CLAIM_THRESHOLD,
    name: str = "",
    log: Log = lambda m: None,
    split: str | None = None,
) -> ExtractionResult:
    """Extraction needs no graph: nothing here opens a Neo4j (``settings`` for symmetry)."""
    gold = extraction.load_gold(gold_path, limit, split)
    return extraction.run_extraction(
        gold, embedder, llm, name=name or Path(gold_path).stem, threshold=threshold, log=log
    )


def answers_eval(
    settings: Settings,
    embedder,
    llm,
    corpus: Path | str,
    questions: Path | str,
    limit: int | None = None,
    name: str = "",
    log: Log = lambda m: None,
) -> AnswersResult:
    docs, qs = multihop.load_set(corpus, questions, limit)
    with eval_store(eval_settings(settings), log=log) as store:
        wipe(store)
        return answers.run_answers(store, embedder, llm, docs, qs, name=name or Path(corpus).parent.name, log=log)


def docs_eval(
    settings: Settings,
    embedder,
    llm,
    corpus: Path | str,
    questions: Path | str | None = None,
    labels: Path | str | None = None,
    limit: int | None = None,
    name: str = "",
    log: Log = lambda m: None,
) -> DocsResult:
    """The folder ingested into the eval instance as ``graphwiki ingest`` would, with the
    default schema config (the general preset, as every eval: numbers comparable with the
    baselines); the key and the label files default to those beside the corpus folder."""
    from graphwiki_assets.core.evals.docs import grading
    from graphwiki_assets.core.evals.docs.run import DocsSet, run_docs

    docs = DocsSet.beside(Path(corpus), Path(questions) if questions else None, Path(labels) if labels else None)
    key = grading.load_key(docs.questions, docs.corpus)[:limit]
    with eval_store(eval_settings(settings), log=log) as store:
        wipe(store)
        return run_docs(store, embedder, llm, docs, key, name=name, log=log)


def eval_clients(settings: Settings):
    """(embedder, llm) for an eval: the user's model and backend, the eval instance's LLM cache."""
    from graphwiki_assets.core.encoders import build_encoder
    from graphwiki_assets.core.llm.client import build_llm

    # the loaded local model, not a lazy one: an eval times the model apart from its loading
    return build_encoder(settings, lazy=False), build_llm(settings.llm, eval_settings(settings).cache_dir)
