"""The size distribution of communities, as PNG bytes for Dagster markdown."""

from __future__ import annotations

from graphwiki_assets.core.figures import plt, png


def size_plot(sizes: list[int]) -> bytes:
    """Top-level communities by size (concepts), largest first, on a log scale: a few big
    themes and a long tail of small ones is the usual shape."""
    fig, ax = plt.subplots(figsize=(8, 3))
    ranked = sorted(sizes, reverse=True)
    ax.bar(range(1, len(ranked) + 1), ranked, color="#2a6f97", width=1.0)
    if ranked and ranked[0] > 20 * max(ranked[-1], 1):
        ax.set_yscale("log")
    ax.set_xlabel("top-level community, largest first")
    ax.set_ylabel("concepts")
    ax.set_title(f"{len(ranked)} top-level communities")
    return png(fig)
