"""A small picture of a concept's neighbourhood: the concept in the middle, its related
concepts around it (the strongest first, clockwise from the top), each line as thick as
the claims the two share. A neighbour with a page of its own is drawn in colour.

The figure is made only when its inputs change: ``picture_key`` hashes what it shows, and
the export keeps that key in its manifest."""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping

from graphwiki_assets.core.concepts.card import ConceptCard

PICTURE_VERSION = 2  # bump when the drawing changes, so every picture is drawn again
NEIGHBOURS = 12  # more labels than this around one circle overlap at this size
CENTRE, WITH_PAGE, WITHOUT_PAGE, EDGE = "#2a6f97", "#61a5c2", "#d3d9e0", "#8d99ae"


def neighbourhood(card: ConceptCard, stems: Mapping[str, str]) -> list[dict]:
    """What the picture shows: the strongest related concepts, with weight and page."""
    ordered = sorted(card.related, key=lambda r: (-r.weight, r.name.casefold(), r.id))[:NEIGHBOURS]
    return [{"name": r.name, "weight": r.weight, "page": r.id in stems} for r in ordered]


def picture_key(card: ConceptCard, stems: Mapping[str, str]) -> str | None:
    """A hash of everything the picture shows; None when there is nothing to draw."""
    shown = neighbourhood(card, stems)
    if not shown:
        return None
    data = {"v": PICTURE_VERSION, "name": card.name, "type": card.type, "neighbours": shown}
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode("utf-8")).hexdigest()


def draw_neighbourhood(card: ConceptCard, stems: Mapping[str, str]) -> bytes:
    """The picture as PNG bytes. Drawn in one pass: the axes fill a canvas wide enough for
    the labels (cropping to them would draw it twice), the lines and dots one artist each."""
    # matplotlib loads in most of a second: only an export that draws a picture pays for it
    from matplotlib.collections import LineCollection

    from graphwiki_assets.core.figures import plt, png

    shown = neighbourhood(card, stems)
    heaviest = max((n["weight"] for n in shown), default=1) or 1
    angles = [math.pi / 2 - 2 * math.pi * i / len(shown) for i in range(len(shown))]
    points = [(math.cos(a), math.sin(a)) for a in angles]
    fig = plt.figure(figsize=(6.0, 3.8))
    ax = fig.add_axes((0, 0, 1, 1))
    widths = [0.8 + 3.2 * n["weight"] / heaviest for n in shown]
    ax.add_collection(LineCollection([[(0, 0), p] for p in points], linewidths=widths, colors=EDGE, zorder=1))
    colours = [WITH_PAGE if n["page"] else WITHOUT_PAGE for n in shown]
    ax.scatter([x for x, _ in points], [y for _, y in points], s=160, c=colours, edgecolors="white", zorder=2)
    for n, (x, y) in zip(shown, points):
        ax.annotate(
            _label(n["name"]),
            (x, y),
            xytext=(x * 12, y * 12),
            textcoords="offset points",
            ha="left" if x > 0.2 else "right" if x < -0.2 else "center",
            va="bottom" if y > 0.2 else "top" if y < -0.2 else "center",
            fontsize=7,
        )
    ax.scatter([0], [0], s=420, color=CENTRE, edgecolors="white", zorder=3)
    ax.annotate(
        _label(card.name, 40),
        (0, 0),
        xytext=(0, -16),
        textcoords="offset points",
        ha="center",
        va="top",
        fontsize=8,
        weight="bold",
        bbox={"boxstyle": "round,pad=0.2", "fc": "white", "ec": "none"},  # readable over the lines
        zorder=4,
    )
    ax.set(xlim=(-2.45, 2.45), ylim=(-1.55, 1.55), aspect="equal")
    ax.axis("off")
    return png(fig, tight=False)


def _label(name: str, limit: int = 26) -> str:
    # matplotlib reads $...$ as math; a name is shown as written
    text = name if len(name) <= limit else name[: limit - 1] + "…"
    return text.replace("$", r"\$")
