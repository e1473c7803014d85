"""Eval plots as PNG bytes (matplotlib, Agg: no display), embeddable in Dagster markdown."""

from __future__ import annotations

import base64
import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from graphwiki_assets.core.evals import metrics, multihop  # noqa: E402

COLOURS = {"same": "#2a9d8f", "related": "#e9c46a", "unrelated": "#e76f51", "flat": "#8d99ae", "graph": "#2a6f97",
           "bridge": "#61a5c2", "ppr": "#89c2d9", "traversal": "#a9d6e5"}


def _png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    plt.close(fig)
    return buf.getvalue()


def markdown_image(png: bytes, alt: str = "plot") -> str:
    return f"![{alt}](data:image/png;base64,{base64.b64encode(png).decode('ascii')})"


def er_plot(result: dict) -> bytes:
    """Cosine histogram per class with the cuts, and the same-vs-rest PR curve."""
    rows = result["pairs"]
    fig, (hist, pr) = plt.subplots(1, 2, figsize=(10, 3.6))
    bins = [i / 20 for i in range(-2, 21)]
    for label in ("same", "related", "unrelated"):
        hist.hist([r["cosine"] for r in rows if r["label"] == label], bins=bins, alpha=0.6,
                  label=label, color=COLOURS[label])
    cuts = {"stage-1 floor": result["stage1_config"]["floor"], "0.55": 0.55,
            "best F1": result["cosine_only"]["best_threshold"]}
    for (name, x), style in zip(cuts.items(), ("-", "--", ":")):
        hist.axvline(x, color="black", linestyle=style, linewidth=1, label=f"{name} ({x:.2f})")
    hist.set(title=f"{result['name'] or 'pairs'}: cosine by class", xlabel="cosine", ylabel="pairs")
    hist.legend(fontsize=7)
    curve = metrics.pr_curve([r["cosine"] for r in rows], [r["label"] == "same" for r in rows])
    pr.plot([p["recall"] for p in curve], [p["precision"] for p in curve], marker=".", color=COLOURS["same"],
            label="cosine threshold")
    two = result["two_stage"]
    pr.scatter([two["recall"]], [two["precision"]], color="black", zorder=3, label=f"two-stage ({result['judge']})")
    if "population" in result:
        pop = result["population"]["two_stage"]
        pr.scatter([pop["recall"]], [pop["precision"]], marker="s", color=COLOURS["graph"], zorder=3,
                   label="two-stage, kNN stage 1")
    pr.set(title="same vs rest", xlabel="recall", ylabel="precision", xlim=(0, 1.05), ylim=(0, 1.05))
    pr.legend(fontsize=7)
    return _png(fig)


def multihop_plot(result: dict) -> bytes:
    """Bars per method at k; traversal precision/AR by hops and fan-out; the graph method by k."""
    fig, (bars, hops_ax, k_ax) = plt.subplots(1, 3, figsize=(14, 3.6))
    methods = multihop.reported_methods(result)
    names = ["recall", "all_recall", "precision"]
    width = 0.8 / len(methods)
    for i, method in enumerate(methods):
        values = [result[method][n] for n in names]
        bars.bar([j + (i - (len(methods) - 1) / 2) * width for j in range(len(names))], values, width,
                 label=method if method != "graph" else f"graph ({result['method']})", color=COLOURS.get(method))
    bars.set_xticks(range(len(names)), [f"recall@{result['k']}", f"AR@{result['k']}", "precision"])
    bars.set(ylim=(0, 1.05), title=f"{result['name'] or 'multi-hop'} (n={result['n']}, k={result['k']})")
    bars.legend(fontsize=7)
    rows = result.get("sweep", [])
    for fanout in sorted({r["fanout"] for r in rows if r["method"] == "traversal"}):
        points = [r for r in rows if r["method"] == "traversal" and r["fanout"] == fanout]
        x = [r["hops"] for r in points]
        hops_ax.plot(x, [r["precision"] for r in points], marker="o", label=f"precision, fan-out {fanout}")
        hops_ax.plot(x, [r["all_recall"] for r in points], marker="x", linestyle="--", label=f"AR, fan-out {fanout}")
        for r in points:
            hops_ax.annotate(f"{r['docs_per_question']:.0f}", (r["hops"], r["precision"]), fontsize=6,
                             textcoords="offset points", xytext=(3, 3))
    hops_ax.set(title="traversal, all reached docs (labels: docs/question)", xlabel="hops", ylim=(0, 1.05))
    hops_ax.set_xticks(sorted({r["hops"] for r in rows if r["method"] == "traversal"}))
    by_k = [r for r in rows if r["method"] == result["method"] and r["fanout"] is None]
    if by_k:
        k_ax.plot([r["k"] for r in by_k], [r["precision"] for r in by_k], marker="o", label="precision")
        k_ax.plot([r["k"] for r in by_k], [r["all_recall"] for r in by_k], marker="x", linestyle="--", label="AR@k")
    k_ax.set(title=f"{result['method']}: documents = k", xlabel="k", ylim=(0, 1.05))
    for ax in (hops_ax, k_ax):
        if rows:
            ax.legend(fontsize=6)
    return _png(fig)
