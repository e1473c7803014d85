"""The real-document eval's result (``core/evals/docs/run.py``)."""

from __future__ import annotations

from pydantic import StrictBool

from graphwiki_assets.core.evals.results import Num, Part, Rate, Record, Result


class Grades(Part):
    """``grading.Summary``: shares of the answerable questions by grade, and abstention."""

    n: int
    answerable: int
    out_of_corpus: int
    useful: Rate
    partly: Rate
    wrong: Rate
    missed: Rate
    abstained_out_of_corpus: Rate
    counts: dict[str, int]


class Sample(Part):
    """``samples.LabelledSample``; the items in the label file's own format."""

    size: int
    graded: int
    counts: dict[str, int]
    shares: dict[str, Rate]
    items: list[Record]
    ungraded: list[Record]


class Concepts(Part):
    concepts: int
    fallback_type: str | None
    fallback: int
    fallback_share: Rate
    untyped: int = 0  # results recorded before the count was made have none
    untyped_share: Rate = None
    sample: Sample


class Flags(Part):
    flags: int
    superseded: int
    newer_superseded: int | None
    sample: Sample


class GradedQuestion(Part):
    """``grading.Graded``: one question of the key, answered and graded."""

    id: str
    split: str
    shape: str
    routed: str
    grade: str
    abstained: StrictBool
    facts: int
    facts_matched: list[int]
    gold_cited: StrictBool
    cited: list[str]
    rung: str
    answer: str


class DocsRun(Part):
    """What was read: the set, the backend, the folder and its files."""

    name: str
    backend: str
    embedding_model: str
    corpus: str
    files: int
    files_not_read: dict[str, int]  # files the reader leaves out, by suffix


class DocsResult(Grades, DocsRun, Result):
    """The run (DocsRun), the Grades of every question after it, then the rest."""

    by_split: dict[str, Grades]
    by_shape: dict[str, dict[str, int]]
    concepts: Concepts
    contradictions: Flags
    ingest: Record  # the folder's ingest report
    ask_seconds: Num
    seconds_per_question: Num
    questions: list[GradedQuestion]
    seconds: Num
    unlabelled_files: dict[str, str] | None = None  # written for labelling, by kind

    def grades(self) -> Grades:
        """The grades over every question, as ``by_split`` has them per half."""
        return Grades.model_validate({name: getattr(self, name) for name in Grades.model_fields})
