"""Grading answers on real documents against a key written before any answer was seen.

A key row names the facts a useful answer states (each fact a list of acceptable
phrasings, any one of which counts) and the files that state them, or says the corpus
never mentions the subject (``abstain: true``). Matching is by whole words after folding
case, accents and punctuation ("n-3" is "n 3", "Nägele" is "nagele"), so it is the same on
every run and needs no model.

An answerable question is
- useful: every fact matched and a gold source cited;
- partly: some fact matched, or a gold source cited;
- missed: the answer abstained (says the graph has nothing);
- wrong: anything else (an answer that states none of the facts from none of the files).
An out-of-corpus question is abstained on, or answered.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import asdict, dataclass, field
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from graphwiki_assets.core.evals import metrics
from graphwiki_assets.core.evals.datasets import jsonl_records

ANSWERABLE_GRADES = ("useful", "partly", "wrong", "missed")
OUT_OF_CORPUS_GRADES = ("abstained", "answered")


class KeyQuestion(BaseModel):
    """One question of the key; ``facts`` and ``sources`` unless ``abstain``."""

    model_config = ConfigDict(extra="ignore")

    id: str = Field(min_length=1)
    question: str = Field(min_length=1)
    shape: str = Field(min_length=1)
    split: str
    facts: list[list[str]] = Field(default_factory=list)
    sources: list[str] = Field(default_factory=list)
    abstain: bool = False

    @model_validator(mode="after")
    def _graded(self) -> KeyQuestion:
        if self.split not in metrics.SPLITS:
            raise ValueError(f"split must be one of {metrics.SPLITS}, not {self.split!r}")
        if self.abstain and (self.facts or self.sources):
            raise ValueError("an out-of-corpus question (abstain: true) has no facts or sources")
        if not self.abstain and not (self.facts and self.sources):
            raise ValueError("an answerable question needs facts and sources (or abstain: true)")
        if any(not any(normalise(p) for p in fact) for fact in self.facts):
            raise ValueError("every fact needs at least one phrasing with a word in it")
        return self


def load_key(path: Path | str, corpus: Path | None = None) -> list[KeyQuestion]:
    """The key, each row validated; with ``corpus``, every gold source must be one of its files."""
    out: list[KeyQuestion] = []
    for where, row in jsonl_records(path):
        try:
            question = KeyQuestion.model_validate(row)
        except ValidationError as exc:
            raise ValueError(f"{where}: {exc.errors()[0]['msg']}") from exc
        missing = [s for s in question.sources if corpus is not None and not (corpus / s).is_file()]
        if missing:
            raise ValueError(f"{where}: gold sources not in the corpus {corpus}: {missing}")
        out.append(question)
    ids = [q.id for q in out]
    if len(set(ids)) != len(ids):
        raise ValueError(f"{path}: question ids repeat: {sorted({i for i in ids if ids.count(i) > 1})}")
    return out


def normalise(text: str) -> str:
    """Lower case, accents dropped, words joined by single spaces (punctuation is a space)."""
    folded = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(ch for ch in folded if not unicodedata.combining(ch))
    return " ".join(re.findall(r"[^\W_]+", plain))


def phrase_in(phrase: str, text: str) -> bool:
    """Whole words of ``phrase`` in a row in ``text`` (both normalised)."""
    return bool(phrase) and f" {phrase} " in f" {text} "


@dataclass(frozen=True)
class Graded:
    id: str
    split: str
    shape: str  # the shape the key gives
    routed: str  # the shape the router chose
    grade: str
    abstained: bool
    facts: int
    facts_matched: list[int]  # indexes of the key's facts the answer states
    gold_cited: bool
    cited: list[str]  # corpus paths of the sources the answer cites
    rung: str
    answer: str = field(repr=False)

    def as_dict(self) -> dict:
        return asdict(self)


def matched_facts(question: KeyQuestion, answer_text: str) -> list[int]:
    """Indexes of the key's facts the answer states (any of a fact's phrasings)."""
    text = normalise(answer_text)
    return [n for n, fact in enumerate(question.facts) if any(phrase_in(normalise(p), text) for p in fact)]


def grade_of(question: KeyQuestion, matched: int, gold_cited: bool, abstained: bool) -> str:
    if question.abstain:
        return "abstained" if abstained else "answered"
    if abstained:
        return "missed"
    if matched == len(question.facts) and gold_cited:
        return "useful"
    return "partly" if matched or gold_cited else "wrong"


def graded(question: KeyQuestion, answer: dict, cited: list[str]) -> Graded:
    """``answer`` as ``Answer.as_dict()``; ``cited``: the corpus paths its sources map to.
    Abstained = nothing in the answer rests on a source (no cited sentence, no quoted source)."""
    abstained = not answer["sentences"] and not answer["citations"]
    matched = matched_facts(question, answer["answer"])
    gold = bool(set(cited) & set(question.sources))
    return Graded(
        id=question.id,
        split=question.split,
        shape=question.shape,
        routed=answer["shape"],
        grade=grade_of(question, len(matched), gold, abstained),
        abstained=abstained,
        facts=len(question.facts),
        facts_matched=matched,
        gold_cited=gold,
        cited=sorted(cited),
        rung=answer.get("rung", ""),
        answer=answer["answer"],
    )


@dataclass(frozen=True)
class Summary:
    n: int
    answerable: int
    out_of_corpus: int
    useful: float | None  # shares of the answerable questions
    partly: float | None
    wrong: float | None
    missed: float | None
    abstained_out_of_corpus: float | None  # share of the out-of-corpus questions
    counts: dict[str, int]

    def as_dict(self) -> dict:
        return asdict(self)


def summarise(rows: list[Graded]) -> Summary:
    counts = {g: sum(r.grade == g for r in rows) for g in (*ANSWERABLE_GRADES, *OUT_OF_CORPUS_GRADES)}
    answerable = sum(counts[g] for g in ANSWERABLE_GRADES)
    outside = sum(counts[g] for g in OUT_OF_CORPUS_GRADES)

    def share(grade_: str, of: int) -> float | None:
        return round(counts[grade_] / of, 4) if of else None

    return Summary(
        n=len(rows),
        answerable=answerable,
        out_of_corpus=outside,
        useful=share("useful", answerable),
        partly=share("partly", answerable),
        wrong=share("wrong", answerable),
        missed=share("missed", answerable),
        abstained_out_of_corpus=share("abstained", outside),
        counts=counts,
    )


def by_split(rows: list[Graded]) -> dict[str, Summary]:
    return {s: summarise(part) for s in metrics.SPLITS if (part := [r for r in rows if r.split == s])}


def by_shape(rows: list[Graded]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for r in rows:
        out.setdefault(r.shape, {}).setdefault(r.grade, 0)
        out[r.shape][r.grade] += 1
    return out
