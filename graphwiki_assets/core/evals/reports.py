"""The report text of each eval: what ``graphwiki eval <kind>`` prints without ``--json``.

Plain functions of the result, so the registry can name them and nothing here needs the CLI.
"""

from __future__ import annotations

from graphwiki_assets.core.evals.results.contradictions import ContradictionsResult
from graphwiki_assets.core.evals.results.docs import DocsResult
from graphwiki_assets.core.evals.results.er import ErResult
from graphwiki_assets.core.evals.results.extraction import ExtractionResult, Scores
from graphwiki_assets.core.evals.results.retrieval import AnswersResult, MultihopResult


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def er_text(r: ErResult) -> str:
    c, s, t = r.cosine_only, r.stage1, r.two_stage
    means = ", ".join(f"{label} {c.by_class[label].mean or 0:.2f}" for label in ("same", "related", "unrelated"))
    cfg = r.stage1_config
    lines = [
        f"{r.name}: {r.n} pairs ({r.counts['same']} same / {r.counts['related']} related / "
        f"{r.counts['unrelated']} unrelated), embeddings {r.embedding_model}, judge {r.judge}",
        f"cosine only: mean {means}; best F1 {c.best_f1:.3f} at {c.best_threshold:.3f}; F1 at 0.55 {c.f1_at_0_55:.3f}",
        f"stage 1 (cosine >= {cfg.floor}): same passed {_pct(s.same_passed)}, unrelated screened "
        f"{_pct(s.unrelated_screened)}",
        f"two-stage: P {t.precision:.3f} R {t.recall:.3f} F1 {t.f1:.3f}, {t.llm_calls} LLM calls "
        f"({t.judged_pairs} pairs judged)",
    ]
    if r.population is not None:
        ps, pt = r.population.stage1, r.population.two_stage
        lines += [
            f"population stage 1 (kNN top-{cfg.top_k} >= {cfg.floor}): same passed {_pct(ps.same_passed)}, "
            f"unrelated screened {_pct(ps.unrelated_screened)}; {ps.candidates_all_mentions} candidates "
            f"for all {2 * r.n} mentions",
            f"population two-stage: P {pt.precision:.3f} R {pt.recall:.3f} F1 {pt.f1:.3f}, {pt.llm_calls} LLM calls",
        ]
    lines += [f"  wrong ({e.cause}): {e.label} {e.a!r} / {e.b!r} -> {e.predicted}: {e.reason}" for e in r.errors]
    return "\n".join(lines)


def multihop_text(r: MultihopResult) -> str:
    lines = [
        f"{r.name}: {r.n} questions, {r.corpus_docs} documents, k={r.k}, hops={r.hops}, "
        f"graph method {r.method}, backend {r.backend}"
    ]
    for m, x in r.methods().items():
        lines.append(
            f"{m:9}: recall@{r.k} {x.recall:.3f}, AR@{r.k} {x.all_recall:.3f} "
            f"({x.all_found}/{r.n}), {x.docs_per_question:.1f} docs/question, precision "
            f"{x.precision:.3f}, {x.context_tokens:.0f} context tokens of {r.corpus_tokens}"
        )
    i = r.ingest
    tokens = "unknown (warm cache)" if i.prompt_tokens_per_passage is None else i.prompt_tokens_per_passage
    lines.append(
        f"ingest: {i.llm_calls_per_passage} LLM calls and {tokens} prompt tokens per passage "
        f"({i.cache_hits} cache hits), {i.seconds}s"
    )
    for row in r.sweep or []:
        if row.method == "traversal":
            where = f"traversal hops={row.hops} fan-out={row.fanout}, all reached"
        elif row.fanout is not None:
            where = f"{row.method} anchors={row.fanout} k={row.k}"
        else:
            where = f"{row.method} k={row.k}"
        lines.append(
            f"  {where}: AR {row.all_recall:.3f}, precision {row.precision:.3f}, {row.docs_per_question:.1f} docs"
        )
    return "\n".join(lines)


def _rate(x: float | None) -> str:
    return "–" if x is None else f"{x:.3f}"


def contradictions_text(r: ContradictionsResult) -> str:
    c, fa = r.counts, r.false_alarm
    lines = [
        f"{r.name}: {r.n} pairs ({c['contradicts']} contradicts / {c['consistent']} consistent / "
        f"{c['unrelated_aspect']} unrelated_aspect), backend {r.backend}, screen: shared concept and cosine >= "
        f"{r.config.similarity_floor}",
        f"catch rate {_rate(r.catch_rate)} ({r.caught}/{r.contradicts}); false alarms: consistent "
        f"{_rate(fa.consistent)}, unrelated aspect {_rate(fa.unrelated_aspect)}, all {_rate(fa.all)} "
        f"({r.false_alarms}/{r.not_contradicts}); precision {_rate(r.precision)}",
        f"{r.llm_calls} conflict calls, {r.prompt_tokens} prompt tokens",
    ]
    for split, x in r.by_split.items():
        lines.append(f"  {split}: catch rate {_rate(x.catch_rate)}, false alarms {_rate(x.false_alarm.all)}")
    for kind, x in r.by_kind.items():
        lines.append(f"  {kind:10}: catch {_rate(x.catch_rate)}, false alarms {_rate(x.false_alarm.all)} (n={x.n})")
    lines += [f"  wrong: {e.label} [{e.kind}] {e.a!r} / {e.b!r} -> {e.outcome}: {e.reason}" for e in r.errors]
    e2e = r.end_to_end
    if e2e:
        lines.append(
            f"end to end: {e2e.found}/{e2e.injected} injected contradictions found with both claims "
            f"disputed (catch rate {_rate(e2e.catch_rate)}; {e2e.found_any_status} with an edge at all); "
            f"false alarms {e2e.false_alarms}/{e2e.controls} consistent controls; "
            f"{e2e.ingest.conflict_calls} conflict calls for the injected sources"
        )
    return "\n".join(lines)


def extraction_text(r: ExtractionResult) -> str:
    def pr(x: Scores) -> str:
        return f"P {x.precision:.3f} R {x.recall:.3f} F1 {x.f1:.3f} ({x.correct}/{x.extracted} extracted, {x.found}/{x.gold} gold)"

    lines = [
        f"{r.name}: {r.documents} documents, {r.gold_concepts} gold concepts, {r.gold_facts} gold facts, "
        f"backend {r.backend}; {r.llm_calls} extraction calls, {r.prompt_tokens} prompt tokens",
        f"concepts        : {pr(r.concepts)}",
        f"concepts (typed): {pr(r.concepts_typed)}",
        f"claims (cos >= {r.claim_threshold}): {pr(r.claims)}",
    ]
    for split, x in r.by_split.items():
        lines.append(
            f"  {split}: concepts P {x.concepts.precision:.3f} R {x.concepts.recall:.3f}, "
            f"claims P {x.claims.precision:.3f} R {x.claims.recall:.3f}"
        )
    lines += [f"  claims at cos >= {row.threshold}: P {row.precision:.3f} R {row.recall:.3f}" for row in r.sweep]
    return "\n".join(lines)


def answers_text(r: AnswersResult) -> str:
    lines = [
        f"{r.name}: {r.n} questions, {r.corpus_docs} documents, backend {r.backend}",
        f"supported sentences {_rate(r.supported_rate)} ({r.supported}/{r.sentences}), "
        f"uncited sentences {r.uncited_sentences}; control (each sentence against another's citations): "
        f"{_rate(r.control_supported_rate)} supported of {r.control_pairs}",
        f"abstention correct {_rate(r.abstention_correct)}: needed documents not all retrieved for "
        f"{r.needed_not_retrieved} questions, abstained on {_rate(r.abstained_when_missing)} of them; answered "
        f"{_rate(r.answered_when_retrieved)} of the rest; gold answer in the text {_rate(r.answer_found)}",
        f"checker: {r.checker.llm_calls} support calls, {r.checker.prompt_tokens} prompt tokens",
    ]
    lines += [f"  unsupported ({u.question}): {u.sentence!r}: {u.reason}" for u in r.unsupported]
    return "\n".join(lines)


def _share(x: float | None) -> str:
    return "–" if x is None else _pct(x)


def docs_text(r: DocsResult) -> str:
    lines = [
        f"{r.name}: {r.files} files read (not read: {r.files_not_read or 'none'}), {r.n} questions, "
        f"backend {r.backend}; ingest {r.ingest['seconds']}s, questions {r.ask_seconds}s",
        "split    n  useful  partly  wrong  missed  abstained (out of corpus)",
    ]
    for split, x in [*r.by_split.items(), ("all", r.grades())]:
        lines.append(
            f"{split:6} {x.n:3}  {_share(x.useful):>6}  {_share(x.partly):>6}  {_share(x.wrong):>5}  "
            f"{_share(x.missed):>6}  {_share(x.abstained_out_of_corpus):>6} of {x.out_of_corpus}"
        )
    c, k = r.concepts, r.contradictions
    lines += [
        f"concepts: {c.concepts}, fallback type {c.fallback_type} on {_share(c.fallback_share)} "
        f"(typed by nothing {_share(c.untyped_share)}); sample of "
        f"{c.sample.size}: {c.sample.graded} graded, junk {_share(c.sample.shares['junk'])}, "
        f"duplicate {_share(c.sample.shares['duplicate'])}, {len(c.sample.ungraded)} ungraded",
        f"contradiction flags: {k.flags} ({k.superseded} claims superseded automatically); sample of "
        f"{k.sample.size}: {k.sample.graded} graded, real {_share(k.sample.shares['real'])}, "
        f"{len(k.sample.ungraded)} ungraded",
    ]
    lines += [f"  {q.id:26} {q.split:6} {q.shape:13} -> {q.routed:11} {q.grade}" for q in r.questions]
    if c.sample.ungraded:
        lines.append("ungraded concepts: " + ", ".join(repr(i["name"]) for i in c.sample.ungraded))
    for i in k.sample.ungraded:
        lines.append(f"ungraded flag: {i['a']!r} / {i['b']!r}")
    for path in (r.unlabelled_files or {}).values():
        lines.append(f"to label: {path}")
    return "\n".join(lines)
