"""Where the labelled eval data lives, and the named evals run by bench and the assets."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[3]


def evals_dir() -> Path:
    """``evals/`` of the checkout, or GRAPHWIKI_EVALS_DIR (an installed package has no data)."""
    return Path(os.environ.get("GRAPHWIKI_EVALS_DIR") or REPO_ROOT / "evals")


def jsonl_records(path: Path | str) -> Iterator[tuple[str, dict]]:
    """Each object of a JSON Lines file with where it stands ("file:line"), so that a bad
    row in a user's own labelled file is reported where they can fix it."""
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines()):
        if line.strip():
            try:
                yield f"{path}:{n + 1}", json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}:{n + 1}: not a JSON object ({exc.msg})") from exc


def require_label(where: str, row: dict, labels: Iterable[str]) -> str:
    labels = tuple(labels)
    if row.get("label") not in labels:
        raise ValueError(f"{where}: label must be one of {labels}, not {row.get('label')!r}")
    return row["label"]


@dataclass(frozen=True)
class MultihopSet:
    name: str
    folder: str
    large: bool = False  # a corpus of thousands of passages: its ingest takes tens of minutes

    @property
    def corpus(self) -> Path:
        return evals_dir() / "multihop" / self.folder / "corpus.jsonl"

    @property
    def questions(self) -> Path:
        return evals_dir() / "multihop" / self.folder / "questions.jsonl"


ER_SETS = {
    "er_eval_general": "general",
    "er_eval_invented": "invented",
    # Amazon-Google product listings (evals/er/PRODUCTS.md): rules may look at dev only
    "er_eval_products_dev": "products_dev",
    "er_eval_products_test": "products_test",
}
MULTIHOP_SETS = {
    "multihop_eval_seed": MultihopSet("seed", "seed"),
    "multihop_eval_musique": MultihopSet("musique", "musique", large=True),
    "multihop_eval_hotpotqa": MultihopSet("hotpotqa", "hotpotqa", large=True),
}


def er_pairs(eval_name: str) -> Path:
    return evals_dir() / "er" / f"{ER_SETS[eval_name]}.jsonl"


@dataclass(frozen=True)
class ContradictionSet:
    """Labelled claim pairs, and a corpus with the sources injected into it end to end."""

    name: str
    pairs_file: str
    corpus_set: MultihopSet
    inject_file: str

    @property
    def pairs(self) -> Path:
        return evals_dir() / "contradictions" / self.pairs_file

    @property
    def corpus(self) -> Path:
        return self.corpus_set.corpus

    @property
    def inject(self) -> Path:
        return evals_dir() / "contradictions" / self.inject_file


CONTRADICTION_SETS = {
    "contradiction_eval": ContradictionSet(
        "pairs", "pairs.jsonl", MULTIHOP_SETS["multihop_eval_seed"], "inject-seed.jsonl"
    ),
}
EXTRACTION_SETS = {"extraction_eval_redocred": "redocred"}
# Answer faithfulness runs on multi-hop questions: it needs an ingest, so the small set.
ANSWER_SETS = {"answers_eval_seed": MULTIHOP_SETS["multihop_eval_seed"]}


def extraction_gold(eval_name: str) -> Path:
    return evals_dir() / "extraction" / f"{EXTRACTION_SETS[eval_name]}.jsonl"


@dataclass(frozen=True)
class DocsFolder:
    """A real documentation set: evals/docs/<folder>/ with corpus/, questions.jsonl and labels."""

    name: str
    folder: str
    large: bool = True  # a hundred real files: the ingest takes tens of minutes on a busy 2-core machine

    @property
    def corpus(self) -> Path:
        return evals_dir() / "docs" / self.folder / "corpus"

    @property
    def questions(self) -> Path:
        return evals_dir() / "docs" / self.folder / "questions.jsonl"


# The Helm 3 docs and blog (CC BY 4.0, evals/docs/helm/LICENSE.md): never tuned on.
DOCS_SETS = {"docs_eval_helm": DocsFolder("helm", "helm")}
