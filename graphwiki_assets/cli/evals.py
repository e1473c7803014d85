"""`graphwiki eval er|multihop|contradictions|extraction|answers|docs` — the benchmarks on the
eval instance, never the user's graph."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from graphwiki_assets.cli.output import add_common, emit


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("eval", help="run an eval on the eval Neo4j instance (GRAPHWIKI_EVAL_BOLT_PORT)")
    evals = parser.add_subparsers(dest="eval_command", required=True)

    er = add_common(evals.add_parser("er", help="entity resolution on labelled pairs (JSONL)"))
    er.add_argument("--pairs", type=Path, required=True, help='JSONL of {"label", "a", "b", "domain"}')
    er.add_argument("--limit", type=int, help="only the first N pairs")
    er.add_argument("--no-population", action="store_true", help="pair mode only (no Neo4j needed)")
    er.set_defaults(handler=run_er)

    mh = add_common(evals.add_parser("multihop", help="flat vs graph retrieval on a corpus + questions"))
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
    mh.set_defaults(handler=run_multihop)

    cx = add_common(evals.add_parser("contradictions", help="the conflict stage on labelled claim pairs (JSONL)"))
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
    cx.set_defaults(handler=run_contradictions)

    ex = add_common(evals.add_parser("extraction", help="extraction precision/recall against a gold set (JSONL)"))
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
    ex.set_defaults(handler=run_extraction)

    an = add_common(evals.add_parser("answers", help="answer faithfulness and abstention on multi-hop questions"))
    an.add_argument("--corpus", type=Path, help="JSONL of {id, title, text} (default: the seed multi-hop corpus)")
    an.add_argument("--questions", type=Path, help='JSONL of {"id", "question", "answer", "needed"} (default: seed)')
    an.add_argument("--limit", type=int, help="only the first N questions (the whole corpus is ingested)")
    an.set_defaults(handler=run_answers)

    dc = add_common(evals.add_parser("docs", help="a real documentation folder: answers graded against a key, samples"))
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
    dc.set_defaults(handler=run_docs)


def _log(args):
    # Progress goes to stderr in both modes: stdout stays the report (or the JSON).
    return lambda msg: print(f"  {msg}", file=sys.stderr, flush=True)


def run_er(args: argparse.Namespace) -> int:
    from graphwiki_assets.core.evals.runs import er_eval, eval_clients
    from graphwiki_assets.core.settings import Settings

    settings = Settings.from_env()
    embedder, llm = eval_clients(settings)
    result = er_eval(
        settings, embedder, llm, args.pairs, limit=args.limit, population=not args.no_population, log=_log(args)
    )
    emit(args, result, er_text(result))
    return 0


def run_multihop(args: argparse.Namespace) -> int:
    from graphwiki_assets.core.evals.runs import eval_clients, multihop_eval
    from graphwiki_assets.core.settings import Settings

    settings = Settings.from_env()
    embedder, llm = eval_clients(settings)
    result = multihop_eval(
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
    emit(args, result, multihop_text(result))
    return 0


def run_contradictions(args: argparse.Namespace) -> int:
    from graphwiki_assets.core.evals.runs import contradictions_eval, eval_clients
    from graphwiki_assets.core.settings import Settings

    if bool(args.corpus) != bool(args.inject):
        raise ValueError("the end-to-end mode needs both --corpus and --inject")
    settings = Settings.from_env()
    embedder, llm = eval_clients(settings)
    result = contradictions_eval(
        settings, embedder, llm, args.pairs, corpus=args.corpus, inject=args.inject, limit=args.limit, log=_log(args)
    )
    emit(args, result, contradictions_text(result))
    return 0


def run_extraction(args: argparse.Namespace) -> int:
    from graphwiki_assets.core.evals.extraction import CLAIM_THRESHOLD
    from graphwiki_assets.core.evals.runs import eval_clients, extraction_eval
    from graphwiki_assets.core.settings import Settings

    settings = Settings.from_env()
    embedder, llm = eval_clients(settings)
    threshold = CLAIM_THRESHOLD if args.threshold is None else args.threshold
    result = extraction_eval(
        settings, embedder, llm, args.gold, limit=args.limit, threshold=threshold, log=_log(args), split=args.split
    )
    emit(args, result, extraction_text(result))
    return 0


def run_answers(args: argparse.Namespace) -> int:
    from graphwiki_assets.core.evals.datasets import ANSWER_SETS
    from graphwiki_assets.core.evals.runs import answers_eval, eval_clients
    from graphwiki_assets.core.settings import Settings

    if bool(args.corpus) != bool(args.questions):
        raise ValueError("give both --corpus and --questions, or neither (the seed set)")
    seed = ANSWER_SETS["answers_eval_seed"]
    settings = Settings.from_env()
    embedder, llm = eval_clients(settings)
    result = answers_eval(
        settings,
        embedder,
        llm,
        args.corpus or seed.corpus,
        args.questions or seed.questions,
        limit=args.limit,
        log=_log(args),
    )
    emit(args, result, answers_text(result))
    return 0


def run_docs(args: argparse.Namespace) -> int:
    from graphwiki_assets.core.evals.datasets import DOCS_SETS
    from graphwiki_assets.core.evals.docs.samples import LabelledSample, write_unlabelled
    from graphwiki_assets.core.evals.runs import docs_eval, eval_clients
    from graphwiki_assets.core.settings import Settings

    helm = DOCS_SETS["docs_eval_helm"]
    corpus = args.corpus or helm.corpus
    settings = Settings.from_env()
    embedder, llm = eval_clients(settings)
    result = docs_eval(
        settings, embedder, llm, corpus, questions=args.questions, labels=args.labels, limit=args.limit, log=_log(args)
    )
    if args.write_unlabelled:
        todo = {k: LabelledSample(**result[k]["sample"]) for k in ("concepts", "contradictions")}
        result["unlabelled_files"] = write_unlabelled(args.write_unlabelled, todo["concepts"], todo["contradictions"])
    emit(args, result, docs_text(result))
    return 0


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def er_text(r: dict) -> str:
    c, s, t = r["cosine_only"], r["stage1"], r["two_stage"]
    means = ", ".join(
        f"{label} {c['by_class'][label].get('mean', 0):.2f}" for label in ("same", "related", "unrelated")
    )
    cfg = r["stage1_config"]
    lines = [
        f"{r['name']}: {r['n']} pairs ({r['counts']['same']} same / {r['counts']['related']} related / "
        f"{r['counts']['unrelated']} unrelated), embeddings {r['embedding_model']}, judge {r['judge']}",
        f"cosine only: mean {means}; best F1 {c['best_f1']:.3f} at {c['best_threshold']:.3f}; F1 at 0.55 {c['f1_at_0_55']:.3f}",
        f"stage 1 (cosine >= {cfg['floor']}): same passed {_pct(s['same_passed'])}, unrelated screened "
        f"{_pct(s['unrelated_screened'])}",
        f"two-stage: P {t['precision']:.3f} R {t['recall']:.3f} F1 {t['f1']:.3f}, {t['llm_calls']} LLM calls "
        f"({t['judged_pairs']} pairs judged)",
    ]
    if "population" in r:
        ps, pt = r["population"]["stage1"], r["population"]["two_stage"]
        lines += [
            f"population stage 1 (kNN top-{cfg['top_k']} >= {cfg['floor']}): same passed {_pct(ps['same_passed'])}, "
            f"unrelated screened {_pct(ps['unrelated_screened'])}; {ps['candidates_all_mentions']} candidates "
            f"for all {2 * r['n']} mentions",
            f"population two-stage: P {pt['precision']:.3f} R {pt['recall']:.3f} F1 {pt['f1']:.3f}, "
            f"{pt['llm_calls']} LLM calls",
        ]
    lines += [
        f"  wrong ({e['cause']}): {e['label']} {e['a']!r} / {e['b']!r} -> {e['predicted']}: {e['reason']}"
        for e in r["errors"]
    ]
    return "\n".join(lines)


def multihop_text(r: dict) -> str:
    from graphwiki_assets.core.evals.multihop import reported_methods

    lines = [
        f"{r['name']}: {r['n']} questions, {r['corpus_docs']} documents, k={r['k']}, hops={r['hops']}, "
        f"graph method {r['method']}, backend {r['backend']}"
    ]
    for m in reported_methods(r):
        x = r[m]
        lines.append(
            f"{m:9}: recall@{r['k']} {x['recall']:.3f}, AR@{r['k']} {x['all_recall']:.3f} "
            f"({x['all_found']}/{r['n']}), {x['docs_per_question']:.1f} docs/question, precision "
            f"{x['precision']:.3f}, {x['context_tokens']:.0f} context tokens of {r['corpus_tokens']}"
        )
    i = r["ingest"]
    tokens = "unknown (warm cache)" if i["prompt_tokens_per_passage"] is None else i["prompt_tokens_per_passage"]
    lines.append(
        f"ingest: {i['llm_calls_per_passage']} LLM calls and {tokens} prompt tokens per passage "
        f"({i['cache_hits']} cache hits), {i['seconds']}s"
    )
    for row in r.get("sweep", []):
        if row["method"] == "traversal":
            where = f"traversal hops={row['hops']} fan-out={row['fanout']}, all reached"
        elif row["fanout"] is not None:
            where = f"{row['method']} anchors={row['fanout']} k={row['k']}"
        else:
            where = f"{row['method']} k={row['k']}"
        lines.append(
            f"  {where}: AR {row['all_recall']:.3f}, precision {row['precision']:.3f}, "
            f"{row['docs_per_question']:.1f} docs"
        )
    return "\n".join(lines)


def _rate(x: float | None) -> str:
    return "–" if x is None else f"{x:.3f}"


def contradictions_text(r: dict) -> str:
    c, fa = r["counts"], r["false_alarm"]
    lines = [
        f"{r['name']}: {r['n']} pairs ({c['contradicts']} contradicts / {c['consistent']} consistent / "
        f"{c['unrelated_aspect']} unrelated_aspect), backend {r['backend']}, screen: shared concept and cosine >= "
        f"{r['config']['similarity_floor']}",
        f"catch rate {_rate(r['catch_rate'])} ({r['caught']}/{r['contradicts']}); false alarms: consistent "
        f"{_rate(fa['consistent'])}, unrelated aspect {_rate(fa['unrelated_aspect'])}, all {_rate(fa['all'])} "
        f"({r['false_alarms']}/{r['not_contradicts']}); precision {_rate(r['precision'])}",
        f"{r['llm_calls']} conflict calls, {r['prompt_tokens']} prompt tokens",
    ]
    for split, x in r["by_split"].items():
        lines.append(f"  {split}: catch rate {_rate(x['catch_rate'])}, false alarms {_rate(x['false_alarm']['all'])}")
    for kind, x in r["by_kind"].items():
        lines.append(
            f"  {kind:10}: catch {_rate(x['catch_rate'])}, false alarms {_rate(x['false_alarm']['all'])} (n={x['n']})"
        )
    lines += [
        f"  wrong: {e['label']} [{e['kind']}] {e['a']!r} / {e['b']!r} -> {e['outcome']}: {e['reason']}"
        for e in r["errors"]
    ]
    e2e = r.get("end_to_end")
    if e2e:
        lines.append(
            f"end to end: {e2e['found']}/{e2e['injected']} injected contradictions found with both claims "
            f"disputed (catch rate {_rate(e2e['catch_rate'])}; {e2e['found_any_status']} with an edge at all); "
            f"false alarms {e2e['false_alarms']}/{e2e['controls']} consistent controls; "
            f"{e2e['ingest']['conflict_calls']} conflict calls for the injected sources"
        )
    return "\n".join(lines)


def extraction_text(r: dict) -> str:
    def pr(x: dict) -> str:
        return f"P {x['precision']:.3f} R {x['recall']:.3f} F1 {x['f1']:.3f} ({x['correct']}/{x['extracted']} extracted, {x['found']}/{x['gold']} gold)"

    lines = [
        f"{r['name']}: {r['documents']} documents, {r['gold_concepts']} gold concepts, {r['gold_facts']} gold facts, "
        f"backend {r['backend']}; {r['llm_calls']} extraction calls, {r['prompt_tokens']} prompt tokens",
        f"concepts        : {pr(r['concepts'])}",
        f"concepts (typed): {pr(r['concepts_typed'])}",
        f"claims (cos >= {r['claim_threshold']}): {pr(r['claims'])}",
    ]
    for split, x in r["by_split"].items():
        lines.append(
            f"  {split}: concepts P {x['concepts']['precision']:.3f} R {x['concepts']['recall']:.3f}, "
            f"claims P {x['claims']['precision']:.3f} R {x['claims']['recall']:.3f}"
        )
    lines += [
        f"  claims at cos >= {row['threshold']}: P {row['precision']:.3f} R {row['recall']:.3f}" for row in r["sweep"]
    ]
    return "\n".join(lines)


def answers_text(r: dict) -> str:
    lines = [
        f"{r['name']}: {r['n']} questions, {r['corpus_docs']} documents, backend {r['backend']}",
        f"supported sentences {_rate(r['supported_rate'])} ({r['supported']}/{r['sentences']}), "
        f"uncited sentences {r['uncited_sentences']}; control (each sentence against another's citations): "
        f"{_rate(r['control_supported_rate'])} supported of {r['control_pairs']}",
        f"abstention correct {_rate(r['abstention_correct'])}: needed documents not all retrieved for "
        f"{r['needed_not_retrieved']} questions, abstained on {_rate(r['abstained_when_missing'])} of them; answered "
        f"{_rate(r['answered_when_retrieved'])} of the rest; gold answer in the text {_rate(r['answer_found'])}",
        f"checker: {r['checker']['llm_calls']} support calls, {r['checker']['prompt_tokens']} prompt tokens",
    ]
    lines += [f"  unsupported ({u['question']}): {u['sentence']!r}: {u['reason']}" for u in r["unsupported"]]
    return "\n".join(lines)


def _share(x: float | None) -> str:
    return "–" if x is None else _pct(x)


def docs_text(r: dict) -> str:
    lines = [
        f"{r['name']}: {r['files']} files read (not read: {r['files_not_read'] or 'none'}), {r['n']} questions, "
        f"backend {r['backend']}; ingest {r['ingest']['seconds']}s, questions {r['ask_seconds']}s",
        "split    n  useful  partly  wrong  missed  abstained (out of corpus)",
    ]
    for split, x in [*r["by_split"].items(), ("all", r)]:
        lines.append(
            f"{split:6} {x['n']:3}  {_share(x['useful']):>6}  {_share(x['partly']):>6}  {_share(x['wrong']):>5}  "
            f"{_share(x['missed']):>6}  {_share(x['abstained_out_of_corpus']):>6} of {x['out_of_corpus']}"
        )
    c, k = r["concepts"], r["contradictions"]
    lines += [
        f"concepts: {c['concepts']}, fallback type {c['fallback_type']} on {_share(c['fallback_share'])}; sample of "
        f"{c['sample']['size']}: {c['sample']['graded']} graded, junk {_share(c['sample']['shares']['junk'])}, "
        f"duplicate {_share(c['sample']['shares']['duplicate'])}, {len(c['sample']['ungraded'])} ungraded",
        f"contradiction flags: {k['flags']} ({k['superseded']} claims superseded automatically); sample of "
        f"{k['sample']['size']}: {k['sample']['graded']} graded, real {_share(k['sample']['shares']['real'])}, "
        f"{len(k['sample']['ungraded'])} ungraded",
    ]
    lines += [f"  {q['id']:26} {q['split']:6} {q['shape']:13} -> {q['routed']:11} {q['grade']}" for q in r["questions"]]
    if c["sample"]["ungraded"]:
        lines.append("ungraded concepts: " + ", ".join(repr(i["name"]) for i in c["sample"]["ungraded"]))
    for i in k["sample"]["ungraded"]:
        lines.append(f"ungraded flag: {i['a']!r} / {i['b']!r}")
    for path in r.get("unlabelled_files", {}).values():
        lines.append(f"to label: {path}")
    return "\n".join(lines)
