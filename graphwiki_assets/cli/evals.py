"""`graphwiki eval er|multihop|contradictions|extraction|answers|docs` — the benchmarks on the
eval instance, never the user's graph."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path

from graphwiki_assets.cli.output import add_common, emit
from graphwiki_assets.core.evals.registry import KINDS
from graphwiki_assets.core.evals.results import Result
from graphwiki_assets.core.evals.results.contradictions import ContradictionsResult
from graphwiki_assets.core.evals.results.docs import DocsResult
from graphwiki_assets.core.evals.results.er import ErResult
from graphwiki_assets.core.evals.results.extraction import ExtractionResult
from graphwiki_assets.core.evals.results.retrieval import AnswersResult, MultihopResult
from graphwiki_assets.core.evals.spec import EvalKind


def _er_arguments(er: argparse.ArgumentParser) -> None:
    er.add_argument("--pairs", type=Path, required=True, help='JSONL of {"label", "a", "b", "domain"}')
    er.add_argument("--limit", type=int, help="only the first N pairs")
    er.add_argument("--no-population", action="store_true", help="pair mode only (no Neo4j needed)")


def _multihop_arguments(mh: argparse.ArgumentParser) -> None:
    mh.add_argument("--corpus", type=Path, required=True, help='JSONL of {"id", "title", "text"}')
    mh.add_argument("--questions", type=Path, required=True, help='JSONL of {"id", "question", "needed"}')
    mh.add_argument("--k", type=int, default=5, help="documents retrieved per question (default 5)")
    mh.add_argument("--hops", type=int, default=2, help="graph traversal depth (default 2)")
    # retrieval.GRAPH_METHODS, spelled out so the parser does not import the query layer.
    mh.add_argument(
        "--method",
        default="bridge",
        choices=("bridge", "ppr", "traversal", "hybrid"),
        help="graph retrieval method (default bridge)",
    )
    mh.add_argument("--limit", type=int, help="only the first N questions (the whole corpus is ingested)")
    mh.add_argument("--no-sweep", action="store_true", help="skip the hops x k precision sweep")


def _contradictions_arguments(cx: argparse.ArgumentParser) -> None:
    cx.add_argument(
        "--pairs",
        type=Path,
        required=True,
        help='JSONL of {"label": contradicts|consistent|unrelated_aspect, "concept", "a", "b", ...}',
    )
    cx.add_argument("--corpus", type=Path, help="end-to-end mode: the corpus (JSONL of {id, title, text})")
    cx.add_argument(
        "--inject",
        type=Path,
        help='end-to-end mode: sources to inject, JSONL of {"id", "label", "target", "title", "text"}',
    )
    cx.add_argument("--limit", type=int, help="only the first N pairs")


def _extraction_arguments(ex: argparse.ArgumentParser) -> None:
    ex.add_argument(
        "--gold", type=Path, required=True, help='JSONL of {"id", "title", "text", "entities": [...], "facts": [...]}'
    )
    ex.add_argument("--limit", type=int, help="only the first N documents")
    ex.add_argument(
        "--split", choices=["tune", "report"], help="only the documents of one half (a slow model's run, or a check)"
    )
    ex.add_argument(
        "--threshold",
        type=float,
        default=None,
        help="cosine a claim needs to state a fact it shares both entities with (default 0.5)",
    )


def _answers_arguments(an: argparse.ArgumentParser) -> None:
    an.add_argument("--corpus", type=Path, help="JSONL of {id, title, text} (default: the seed multi-hop corpus)")
    an.add_argument("--questions", type=Path, help='JSONL of {"id", "question", "answer", "needed"} (default: seed)')
    an.add_argument("--limit", type=int, help="only the first N questions (the whole corpus is ingested)")


def _docs_arguments(dc: argparse.ArgumentParser) -> None:
    dc.add_argument("--corpus", type=Path, help="a folder of documents (default: evals/docs/helm/corpus)")
    dc.add_argument(
        "--questions",
        type=Path,
        help="JSONL key of {id, question, shape, split, facts, sources | abstain} "
        "(default: questions.jsonl beside the corpus folder)",
    )
    dc.add_argument(
        "--labels",
        type=Path,
        help="folder of concept_labels.jsonl and contradiction_labels.jsonl (default: the key's folder)",
    )
    dc.add_argument("--limit", type=int, help="only the first N questions (the whole folder is ingested)")
    dc.add_argument(
        "--write-unlabelled",
        type=Path,
        metavar="DIR",
        help="write the sampled concepts and contradictions no label covers to DIR/*.todo.jsonl, to label",
    )


def register(sub: argparse._SubParsersAction) -> None:
    """One subcommand per eval kind of the registry, with its arguments and its run below."""
    parser = sub.add_parser("eval", help="run an eval on the eval Neo4j instance (GRAPHWIKI_EVAL_BOLT_PORT)")
    evals = parser.add_subparsers(dest="eval_command", required=True)
    for kind in KINDS:
        arguments, run = COMMANDS[kind.command]
        command = add_common(evals.add_parser(kind.command, help=kind.about))
        arguments(command)
        command.set_defaults(handler=partial(_report, kind, run))


def _report(kind: EvalKind, run: Callable[[argparse.Namespace], Result], args: argparse.Namespace) -> int:
    result = run(args)
    emit(args, result.as_json(), kind.text(result))
    return 0


def _log(args):
    # Progress goes to stderr in both modes: stdout stays the report (or the JSON).
    return lambda msg: print(f"  {msg}", file=sys.stderr, flush=True)


def run_er(args: argparse.Namespace) -> ErResult:
    from graphwiki_assets.core.evals.runs import er_eval, eval_clients
    from graphwiki_assets.core.settings import Settings

    settings = Settings.from_env()
    embedder, llm = eval_clients(settings)
    return er_eval(
        settings, embedder, llm, args.pairs, limit=args.limit, population=not args.no_population, log=_log(args)
    )


def run_multihop(args: argparse.Namespace) -> MultihopResult:
    from graphwiki_assets.core.evals.runs import eval_clients, multihop_eval
    from graphwiki_assets.core.settings import Settings

    settings = Settings.from_env()
    embedder, llm = eval_clients(settings)
    return multihop_eval(
        settings,
        embedder,
        llm,
        args.corpus,
        args.questions,
        k=args.k,
        hops=args.hops,
        limit=args.limit,
        method=args.method,
        with_sweep=not args.no_sweep,
        log=_log(args),
    )


def run_contradictions(args: argparse.Namespace) -> ContradictionsResult:
    from graphwiki_assets.core.evals.runs import contradictions_eval, eval_clients
    from graphwiki_assets.core.settings import Settings

    if bool(args.corpus) != bool(args.inject):
        raise ValueError("the end-to-end mode needs both --corpus and --inject")
    settings = Settings.from_env()
    embedder, llm = eval_clients(settings)
    return contradictions_eval(
        settings, embedder, llm, args.pairs, corpus=args.corpus, inject=args.inject, limit=args.limit, log=_log(args)
    )


def run_extraction(args: argparse.Namespace) -> ExtractionResult:
    from graphwiki_assets.core.evals.extraction import CLAIM_THRESHOLD
    from graphwiki_assets.core.evals.runs import eval_clients, extraction_eval
    from graphwiki_assets.core.settings import Settings

    settings = Settings.from_env()
    embedder, llm = eval_clients(settings)
    threshold = CLAIM_THRESHOLD if args.threshold is None else args.threshold
    return extraction_eval(
        settings, embedder, llm, args.gold, limit=args.limit, threshold=threshold, log=_log(args), split=args.split
    )


def run_answers(args: argparse.Namespace) -> AnswersResult:
    from graphwiki_assets.core.evals.datasets import ANSWER_SETS
    from graphwiki_assets.core.evals.runs import answers_eval, eval_clients
    from graphwiki_assets.core.settings import Settings

    if bool(args.corpus) != bool(args.questions):
        raise ValueError("give both --corpus and --questions, or neither (the seed set)")
    seed = ANSWER_SETS["answers_eval_seed"]
    settings = Settings.from_env()
    embedder, llm = eval_clients(settings)
    return answers_eval(
        settings,
        embedder,
        llm,
        args.corpus or seed.corpus,
        args.questions or seed.questions,
        limit=args.limit,
        log=_log(args),
    )


def run_docs(args: argparse.Namespace) -> DocsResult:
    from graphwiki_assets.core.evals.datasets import DOCS_SETS
    from graphwiki_assets.core.evals.docs.grading import load_key
    from graphwiki_assets.core.evals.docs.run import DocsSet
    from graphwiki_assets.core.evals.docs.samples import LabelledSample, write_unlabelled
    from graphwiki_assets.core.evals.runs import docs_eval, eval_clients
    from graphwiki_assets.core.settings import Settings

    helm = DOCS_SETS["docs_eval_helm"]
    corpus = args.corpus or helm.corpus
    # A key that cannot be graded is refused before a model or the eval instance is loaded.
    docs = DocsSet.beside(Path(corpus), args.questions, args.labels)
    load_key(docs.questions, docs.corpus)
    settings = Settings.from_env()
    embedder, llm = eval_clients(settings)
    result = docs_eval(
        settings, embedder, llm, corpus, questions=args.questions, labels=args.labels, limit=args.limit, log=_log(args)
    )
    if args.write_unlabelled:
        concepts, flags = (LabelledSample(**part.sample.as_json()) for part in (result.concepts, result.contradictions))
        result = result.with_(unlabelled_files=write_unlabelled(args.write_unlabelled, concepts, flags))
    return result


# The arguments and the run of each kind's `graphwiki eval` subcommand (the report text is the kind's).
COMMANDS: dict[str, tuple[Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], Result]]] = {
    "er": (_er_arguments, run_er),
    "multihop": (_multihop_arguments, run_multihop),
    "contradictions": (_contradictions_arguments, run_contradictions),
    "extraction": (_extraction_arguments, run_extraction),
    "answers": (_answers_arguments, run_answers),
    "docs": (_docs_arguments, run_docs),
}
