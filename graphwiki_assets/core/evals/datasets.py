"""Where the labelled eval data lives, and the named evals run by bench and the assets."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[3]


def evals_dir() -> Path:
    """``evals/`` of the checkout, or GRAPHWIKI_EVALS_DIR (an installed package has no data)."""
    return Path(os.environ.get("GRAPHWIKI_EVALS_DIR") or REPO_ROOT / "evals")


@dataclass(frozen=True)
class MultihopSet:
    name: str
    folder: str

    @property
    def corpus(self) -> Path:
        return evals_dir() / "multihop" / self.folder / "corpus.jsonl"

    @property
    def questions(self) -> Path:
        return evals_dir() / "multihop" / self.folder / "questions.jsonl"


ER_SETS = {"er_eval_general": "general", "er_eval_invented": "invented"}
MULTIHOP_SETS = {
    "multihop_eval_seed": MultihopSet("seed", "seed"),
    "multihop_eval_musique": MultihopSet("musique", "musique"),
    "multihop_eval_hotpotqa": MultihopSet("hotpotqa", "hotpotqa"),
}


def er_pairs(eval_name: str) -> Path:
    return evals_dir() / "er" / f"{ER_SETS[eval_name]}.jsonl"
