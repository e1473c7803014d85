"""Figures as PNG bytes (matplotlib, Agg: no display), for Dagster markdown and wiki pages."""

from __future__ import annotations

import base64
import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

__all__ = ["markdown_image", "plt", "png"]


def png(fig, tight: bool = True) -> bytes:
    """The figure as PNG bytes, then closed. ``tight`` crops to what is drawn, at the price
    of drawing the figure twice; a figure laid out to fill its canvas saves that."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight" if tight else None)
    plt.close(fig)
    return buf.getvalue()


def markdown_image(png: bytes, alt: str = "plot") -> str:
    return f"![{alt}](data:image/png;base64,{base64.b64encode(png).decode('ascii')})"
