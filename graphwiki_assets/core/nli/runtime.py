"""``score_pairs``: the NLI model's verdict on claim pairs, loaded once per process."""

from __future__ import annotations

import threading
from pathlib import Path

from graphwiki_assets.core.nli.model import DEFAULT_MODEL, NliModelSpec, verified_dir
from graphwiki_assets.core.nli.onnx_scorer import OnnxNli
from graphwiki_assets.core.nli.scores import NliScores, scores_from_logits

_loaded: dict[Path, OnnxNli] = {}
_loading = threading.Lock()
_scoring = threading.Lock()  # one ONNX session, its threads sized for one caller at a time


def load_nli(spec: NliModelSpec = DEFAULT_MODEL, root: Path | None = None) -> OnnxNli:
    """The verified model's ONNX session, made once per process and folder (about 0.3 s):
    checking the manifest hashes the files, which every later call can skip."""
    from graphwiki_assets.core.cpu_time import cores

    with _loading:
        folder = verified_dir(spec, root)
        scorer = _loaded.get(folder)
        if scorer is None:
            scorer = _loaded[folder] = OnnxNli(folder, threads=min(2, cores()))
        return scorer


def score_pairs(
    pairs: list[tuple[str, str]],
    batch_size: int = 32,
    spec: NliModelSpec = DEFAULT_MODEL,
    root: Path | None = None,
) -> list[NliScores]:
    """Entailment, neutral and contradiction probabilities of each (premise, hypothesis),
    in input order. The relation is directional: swap the pair to ask the other way round."""
    if not pairs:
        return []
    scorer = load_nli(spec, root)
    with _scoring:
        logits = scorer.logits(pairs, batch_size=batch_size)
    return scores_from_logits(logits)
