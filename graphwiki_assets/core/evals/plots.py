"""Eval plots as PNG bytes, embeddable in Dagster markdown (the figure helpers are core/figures.py)."""

from __future__ import annotations

from graphwiki_assets.core.evals import metrics
from graphwiki_assets.core.evals.results.benches import LeaseGrowthResult
from graphwiki_assets.core.evals.results.contradictions import ContradictionsResult
from graphwiki_assets.core.evals.results.er import ErResult
from graphwiki_assets.core.evals.results.extraction import ExtractionResult
from graphwiki_assets.core.evals.results.retrieval import AnswersResult, MultihopResult
from graphwiki_assets.core.figures import markdown_image, plt, png

__all__ = ["COLOURS", "markdown_image", "plt", "png"]

COLOURS = {
    "same": "#2a9d8f",
    "related": "#e9c46a",
    "unrelated": "#e76f51",
    "flat": "#8d99ae",
    "graph": "#2a6f97",
    "bridge": "#61a5c2",
    "ppr": "#89c2d9",
    "traversal": "#a9d6e5",
}


def er_plot(result: ErResult) -> bytes:
    """Cosine histogram per class with the cuts, and the same-vs-rest PR curve."""
    rows = result.pairs
    fig, (hist, pr) = plt.subplots(1, 2, figsize=(10, 3.6))
    bins = [i / 20 for i in range(-2, 21)]
    for label in ("same", "related", "unrelated"):
        hist.hist([r.cosine for r in rows if r.label == label], bins=bins, alpha=0.6, label=label, color=COLOURS[label])
    cuts = {
        "stage-1 floor": result.stage1_config.floor,
        "0.55": 0.55,
        "best F1": result.cosine_only.best_threshold,
    }
    for (name, x), style in zip(cuts.items(), ("-", "--", ":")):
        hist.axvline(x, color="black", linestyle=style, linewidth=1, label=f"{name} ({x:.2f})")
    hist.set(title=f"{result.name or 'pairs'}: cosine by class", xlabel="cosine", ylabel="pairs")
    hist.legend(fontsize=7)
    curve = metrics.pr_curve([r.cosine for r in rows], [r.label == "same" for r in rows])
    pr.plot(
        [p["recall"] for p in curve],
        [p["precision"] for p in curve],
        marker=".",
        color=COLOURS["same"],
        label="cosine threshold",
    )
    # The two-stage points are large, labelled with their numbers and drawn inside the axes
    # (a judge that merges nothing sits at (0, 0), where a small dot disappears in the corner).
    two = result.two_stage
    points = [(two, "o", "black", f"two-stage ({result.judge})")]
    if result.population is not None:
        points.append((result.population.two_stage, "s", COLOURS["graph"], "two-stage, kNN stage 1"))
    for point, marker, colour, label in points:
        pr.scatter(
            [point.recall],
            [point.precision],
            s=90,
            marker=marker,
            color=colour,
            zorder=3,
            edgecolors="white",
            linewidths=1.5,
            clip_on=False,
            label=f"{label}: P {point.precision:.2f} R {point.recall:.2f} F1 {point.f1:.2f}",
        )
    pr.set(title="same vs rest", xlabel="recall", ylabel="precision", xlim=(-0.03, 1.05), ylim=(-0.03, 1.05))
    pr.legend(fontsize=7)
    return png(fig)


def multihop_plot(result: MultihopResult) -> bytes:
    """Bars per method at k; traversal precision/AR by hops and fan-out; the graph method by k."""
    fig, (bars, hops_ax, k_ax) = plt.subplots(1, 3, figsize=(14, 3.6))
    methods = list(result.methods().items())
    names = ["recall", "all_recall", "precision"]
    width = 0.8 / len(methods)
    for i, (method, scores) in enumerate(methods):
        values = [getattr(scores, n) for n in names]
        bars.bar(
            [j + (i - (len(methods) - 1) / 2) * width for j in range(len(names))],
            values,
            width,
            label=method if method != "graph" else f"graph ({result.method})",
            color=COLOURS.get(method),
        )
    bars.set_xticks(range(len(names)), [f"recall@{result.k}", f"AR@{result.k}", "precision"])
    bars.set(ylim=(0, 1.05), title=f"{result.name or 'multi-hop'} (n={result.n}, k={result.k})")
    bars.legend(fontsize=7)
    rows = result.sweep or []
    for fanout in sorted({r.fanout for r in rows if r.method == "traversal" and r.fanout is not None}):
        points = [r for r in rows if r.method == "traversal" and r.fanout == fanout]
        x = [r.hops for r in points]
        hops_ax.plot(x, [r.precision for r in points], marker="o", label=f"precision, fan-out {fanout}")
        hops_ax.plot(x, [r.all_recall for r in points], marker="x", linestyle="--", label=f"AR, fan-out {fanout}")
        for r in points:
            hops_ax.annotate(
                f"{r.docs_per_question:.0f}",
                (r.hops, r.precision),
                fontsize=6,
                textcoords="offset points",
                xytext=(3, 3),
            )
    hops_ax.set(title="traversal, all reached docs (labels: docs/question)", xlabel="hops", ylim=(0, 1.05))
    hops_ax.set_xticks(sorted({r.hops for r in rows if r.method == "traversal" and r.hops is not None}))
    by_k = [r for r in rows if r.method == result.method and r.fanout is None]
    if by_k:
        k_ax.plot([r.k for r in by_k], [r.precision for r in by_k], marker="o", label="precision")
        k_ax.plot([r.k for r in by_k], [r.all_recall for r in by_k], marker="x", linestyle="--", label="AR@k")
    k_ax.set(title=f"{result.method}: documents = k", xlabel="k", ylim=(0, 1.05))
    for ax in (hops_ax, k_ax):
        if rows:
            ax.legend(fontsize=6)
    return png(fig)


OUTCOME_COLOURS = {"contradicts": "#e76f51", "supports": "#2a9d8f", "unrelated": "#8d99ae", "screened": "#e9c46a"}


def contradiction_plot(result: ContradictionsResult) -> bytes:
    """How the conflict stage ended each class of pair; catch and false alarms by kind;
    the cosine of each class against the screen's floor."""
    fig, (stack, kinds, hist) = plt.subplots(1, 3, figsize=(14, 3.6))
    labels = list(result.outcomes)
    bottom = [0] * len(labels)
    for outcome, colour in OUTCOME_COLOURS.items():
        values = [result.outcomes[label][outcome] for label in labels]
        stack.bar(labels, values, bottom=bottom, color=colour, label=outcome)
        bottom = [b + v for b, v in zip(bottom, values)]
    stack.set(title=f"{result.name}: outcome by label ({result.backend})", ylabel="pairs")
    stack.legend(fontsize=7)
    names = list(result.by_kind)
    catch = [result.by_kind[k].catch_rate for k in names]
    alarms = [result.by_kind[k].false_alarm.all for k in names]
    x = range(len(names))
    kinds.bar(
        [i - 0.2 for i in x], [c or 0 for c in catch], 0.4, color=OUTCOME_COLOURS["contradicts"], label="catch rate"
    )
    kinds.bar([i + 0.2 for i in x], [a or 0 for a in alarms], 0.4, color=COLOURS["flat"], label="false alarms")
    kinds.set_xticks(list(x), names, rotation=30, fontsize=7)
    kinds.set(ylim=(0, 1.05), title="by kind (no bar: no pair of that class)")
    kinds.legend(fontsize=7)
    bins = [i / 20 for i in range(-4, 21)]
    for label, colour in zip(labels, (OUTCOME_COLOURS["contradicts"], COLOURS["same"], COLOURS["related"])):
        hist.hist(
            [r.cosine for r in result.pairs if r.label == label],
            bins=bins,
            alpha=0.6,
            label=label,
            color=colour,
        )
    hist.axvline(result.config.similarity_floor, color="black", linestyle="--", linewidth=1, label="screen floor")
    hist.set(title="cosine of the two claims", xlabel="cosine", ylabel="pairs")
    hist.legend(fontsize=7)
    return png(fig)


def extraction_plot(result: ExtractionResult) -> bytes:
    """Precision and recall of concepts (by name, typed) and claims; claims at other cosine cuts."""
    fig, (bars, sweep) = plt.subplots(1, 2, figsize=(10, 3.6))
    groups = [result.concepts, result.concepts_typed, result.claims]
    x = range(len(groups))
    bars.bar([i - 0.2 for i in x], [g.precision for g in groups], 0.4, color=COLOURS["graph"], label="precision")
    bars.bar([i + 0.2 for i in x], [g.recall for g in groups], 0.4, color=COLOURS["same"], label="recall")
    bars.set_xticks(list(x), ["concepts", "concepts, typed", f"claims (cos ≥ {result.claim_threshold})"])
    bars.set(ylim=(0, 1.05), title=f"{result.name}: {result.documents} documents ({result.backend})")
    bars.legend(fontsize=7)
    rows = result.sweep
    sweep.plot([r.threshold for r in rows], [r.precision for r in rows], marker="o", label="claim precision")
    sweep.plot([r.threshold for r in rows], [r.recall for r in rows], marker="x", linestyle="--", label="claim recall")
    sweep.axvline(result.claim_threshold, color="black", linewidth=1, label="stated threshold")
    sweep.set(title="claims against the matching threshold", xlabel="cosine threshold", ylim=(0, 1.05))
    sweep.legend(fontsize=7)
    return png(fig)


def answers_plot(result: AnswersResult) -> bytes:
    """Faithfulness and abstention rates; supported and unsupported sentences per question."""
    fig, (rates, per_q) = plt.subplots(1, 2, figsize=(11, 3.6))
    names = [
        "supported_rate",
        "control_supported_rate",
        "abstention_correct",
        "abstained_when_missing",
        "answered_when_retrieved",
        "answer_found",
    ]
    rates.bar(range(len(names)), [getattr(result, n) or 0 for n in names], color=COLOURS["graph"])
    rates.set_xticks(
        range(len(names)),
        [
            "supported",
            "control",
            "abstention\ncorrect",
            "abstained\nwhen missing",
            "answered when\nretrieved",
            "gold answer\nin text",
        ],
        fontsize=7,
        rotation=20,
    )
    rates.set(ylim=(0, 1.05), title=f"{result.name}: {result.n} questions ({result.backend})")
    qs = result.questions
    ok = [sum(s.supported for s in q.sentences) for q in qs]
    bad = [len(q.sentences) - n for q, n in zip(qs, ok)]
    per_q.bar(range(len(qs)), ok, color=COLOURS["same"], label="supported")
    per_q.bar(range(len(qs)), bad, bottom=ok, color=COLOURS["unrelated"], label="unsupported")
    for i, q in enumerate(qs):
        if q.abstained:
            per_q.annotate("∅" if q.abstention_correct else "∅!", (i, 0), ha="center", fontsize=7)
    per_q.set(title="sentences per question (∅ abstained, ∅! wrongly)", xlabel="question", ylabel="sentences")
    per_q.legend(fontsize=7)
    return png(fig)


def lease_growth_plot(result: LeaseGrowthResult) -> bytes:
    """Seconds inside the ingest lease per batch against the concepts in the graph, the
    median of each size joined, and the stages inside the lease per batch beside them."""
    rows = result.by_size
    sizes = [r.concepts_before for r in rows]
    fig, ax = plt.subplots(figsize=(6.5, 3.8))
    for r in rows:
        held = r.lease_held_seconds
        ax.scatter([r.concepts_before] * len(held), held, color=COLOURS["bridge"], s=18, zorder=2)
    ax.plot(sizes, [r.lease_median_s for r in rows], marker="o", color=COLOURS["graph"], label="median per batch")
    for stage, colour in (("vector_search_s", COLOURS["same"]), ("write_s", COLOURS["unrelated"])):
        per_batch = [getattr(r, stage) / max(r.batches, 1) for r in rows]
        ax.plot(sizes, per_batch, linestyle="--", color=colour, label=f"{stage[:-2].replace('_', ' ')} per batch")
    ax.set_xscale("log")
    ax.set(
        title=f"ingest lease vs graph size ({result.probe_passages} passages, batches of {result.batch_size})",
        xlabel="concepts in the graph",
        ylabel="seconds",
        ylim=(0, None),
    )
    ax.legend(fontsize=7)
    return png(fig)
