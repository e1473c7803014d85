"""Samples of what the ingest built, graded by a person's labels: concepts and contradiction flags.

A seeded random sample is drawn from the graph: the items whose hash of seed and key (a
concept's name, a pair's two claim texts) ranks lowest, so one concept more or less in a
run changes at most one item of the sample, and a name that recurs keeps its place. Each
item is looked up in a label file
written by reading the documents (a concept by its name, a contradiction by its two claim
texts, so labels stay valid for every run that builds the same names or claims again).
What no label covers is listed as ungraded, to be labelled and counted on the next run.
The share of concepts with the taxonomy's fallback type needs no label: it is over all
concepts.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from graphwiki_assets.core.evals import cypher
from graphwiki_assets.core.evals.datasets import jsonl_records, require_label
from graphwiki_assets.core.evals.docs.grading import normalise
from graphwiki_assets.core.store.driver import GraphStore

CONCEPT_LABELS = ("real", "junk", "duplicate")
CONTRADICTION_LABELS = ("real", "not_real")
CONCEPT_SAMPLE = 50
CONTRADICTION_SAMPLE = 20
SEED = 29


def concept_key(name: str) -> str:
    return normalise(name)


def pair_key(a: str, b: str) -> str:
    """Both claim texts, in either order."""
    return " || ".join(sorted((normalise(a), normalise(b))))


def load_labels(path: Path | None, kind: str) -> dict[str, dict]:
    """Label rows by key (``kind`` "concept" or "contradiction"); no file is no labels."""
    if path is None or not path.exists():
        return {}
    allowed = CONCEPT_LABELS if kind == "concept" else CONTRADICTION_LABELS
    out: dict[str, dict] = {}
    for where, row in jsonl_records(path):
        require_label(where, row, allowed)
        if kind == "concept":
            if not row.get("name"):
                raise ValueError(f"{where}: a concept label needs its name")
            out[concept_key(row["name"])] = row
        else:
            if not (row.get("a") and row.get("b")):
                raise ValueError(f"{where}: a contradiction label needs both claim texts, a and b")
            out[pair_key(row["a"], row["b"])] = row
    return out


@dataclass(frozen=True)
class LabelledSample:
    """A sample and what its labels say: counts by label over the graded items, shares of
    the graded, and the items still to label (in the label file's own format)."""

    size: int
    graded: int
    counts: dict[str, int]
    shares: dict[str, float | None]
    items: list[dict] = field(repr=False)
    ungraded: list[dict] = field(default_factory=list)

    def as_dict(self) -> dict:
        return asdict(self)


def _labelled(items: list[dict], keys: list[str], labels: dict[str, dict], allowed: tuple[str, ...]) -> LabelledSample:
    rows = [{**item, "label": labels[k]["label"] if k in labels else None} for item, k in zip(items, keys)]
    graded = [r for r in rows if r["label"] is not None]
    counts = {label: sum(r["label"] == label for r in graded) for label in allowed}
    return LabelledSample(
        size=len(rows),
        graded=len(graded),
        counts=counts,
        shares={label: round(n / len(graded), 4) if graded else None for label, n in counts.items()},
        items=rows,
        ungraded=[r for r in rows if r["label"] is None],
    )


def _draw(rows: list[dict], n: int, seed: int, key: Callable[[dict], str]) -> list[dict]:
    """The ``n`` rows whose hash of seed and key ranks lowest: random, and stable under a
    small change of the rows (a random.sample by index would shift with every row added)."""
    return sorted(rows, key=lambda r: hashlib.sha256(f"{seed}:{key(r)}".encode()).hexdigest())[:n]


@dataclass(frozen=True)
class ConceptQuality:
    concepts: int
    fallback_type: str | None
    fallback: int
    fallback_share: float | None
    # Typed by nothing: neither the extractor nor the votes of the sources said more than the
    # generic type. The fallback share also counts a word the taxonomy sends to the fallback
    # ("function" under the general preset, whose Concept is that word's right type).
    untyped: int
    untyped_share: float | None
    sample: LabelledSample

    def as_dict(self) -> dict:
        return asdict(self)


def concept_quality(
    store: GraphStore, fallback_type: str | None, labels: dict[str, dict], n: int = CONCEPT_SAMPLE, seed: int = SEED
) -> ConceptQuality:
    rows = store.query(cypher.DOC_CONCEPTS)
    fallback = sum(1 for r in rows if fallback_type is not None and r["type"] == fallback_type)
    generic = {"", "concept", (fallback_type or "").lower()}
    untyped = sum(1 for r in rows if r["type"] == fallback_type and r["extracted_type"].lower() in generic)
    drawn = sorted(_draw(rows, n, seed, lambda r: concept_key(r["name"])), key=lambda r: r["name"].casefold())
    items = [{"name": r["name"], "type": r["type"], "aliases": r["aliases"], "claims": r["claims"]} for r in drawn]
    return ConceptQuality(
        concepts=len(rows),
        fallback_type=fallback_type,
        fallback=fallback,
        fallback_share=round(fallback / len(rows), 4) if rows else None,
        untyped=untyped,
        untyped_share=round(untyped / len(rows), 4) if rows else None,
        sample=_labelled(items, [concept_key(i["name"]) for i in items], labels, CONCEPT_LABELS),
    )


def _relative(paths: list[list[str]], corpus: Path) -> list[str]:
    return sorted({rel for group in paths for p in group if (rel := corpus_path(p, corpus))})


def corpus_path(path: str | None, corpus: Path) -> str | None:
    """A Source path as a path inside the corpus folder (None when it is not inside)."""
    if not path:
        return None
    try:
        return Path(path).resolve().relative_to(corpus.resolve()).as_posix()
    except ValueError:
        return None


@dataclass(frozen=True)
class ContradictionQuality:
    flags: int
    superseded: int  # claims a conflict set aside automatically (status superseded)
    # pairs whose superseded claim rests on a newer source than the claim kept; None while
    # the sources carry no dates
    newer_superseded: int | None
    sample: LabelledSample

    def as_dict(self) -> dict:
        return asdict(self)


def _newer_superseded(rows: list[dict]) -> int | None:
    dated = [r for r in rows if r["a_date"] is not None and r["b_date"] is not None]
    if not dated:
        return None
    return sum(
        1
        for r in dated
        if (r["a_status"] == "superseded" and r["b_status"] != "superseded" and r["a_date"] > r["b_date"])
        or (r["b_status"] == "superseded" and r["a_status"] != "superseded" and r["b_date"] > r["a_date"])
    )


def contradiction_quality(
    store: GraphStore, corpus: Path, labels: dict[str, dict], n: int = CONTRADICTION_SAMPLE, seed: int = SEED
) -> ContradictionQuality:
    rows = store.query(cypher.DOC_CONTRADICTIONS)
    items = [
        {
            "a": r["a_text"],
            "b": r["b_text"],
            "a_status": r["a_status"],
            "b_status": r["b_status"],
            "a_sources": _relative(r["a_paths"], corpus),
            "b_sources": _relative(r["b_paths"], corpus),
            "a_date": r["a_date"].iso_format() if r["a_date"] is not None else None,
            "b_date": r["b_date"].iso_format() if r["b_date"] is not None else None,
        }
        for r in _draw(rows, n, seed, lambda r: pair_key(r["a_text"], r["b_text"]))
    ]
    superseded = {r[k] for r in rows for k, s in (("a", "a_status"), ("b", "b_status")) if r[s] == "superseded"}
    return ContradictionQuality(
        flags=len(rows),
        superseded=len(superseded),
        newer_superseded=_newer_superseded(rows),
        sample=_labelled(items, [pair_key(i["a"], i["b"]) for i in items], labels, CONTRADICTION_LABELS),
    )


def write_unlabelled(folder: Path, concepts: LabelledSample, contradictions: LabelledSample) -> dict[str, str]:
    """The ungraded items as label rows with an empty label and why, one file per kind, for a
    person to fill in and append to the label files."""
    folder.mkdir(parents=True, exist_ok=True)
    files = {
        "concepts": (
            folder / "concept_labels.todo.jsonl",
            [{"name": r["name"], "label": "", "why": "", "type": r.get("type")} for r in concepts.ungraded],
        ),
        "contradictions": (
            folder / "contradiction_labels.todo.jsonl",
            [
                {
                    "a": r["a"],
                    "b": r["b"],
                    "label": "",
                    "why": "",
                    "a_sources": r["a_sources"],
                    "b_sources": r["b_sources"],
                }
                for r in contradictions.ungraded
            ],
        ),
    }
    for path, rows in files.values():
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return {kind: str(path) for kind, (path, _) in files.items()}
