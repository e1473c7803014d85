"""The results of the evals over one ingested corpus: multi-hop retrieval
(``core/evals/multihop.py``) and answer faithfulness (``core/evals/answers.py``)."""

from __future__ import annotations

from pydantic import StrictBool, StrictStr

from graphwiki_assets.core.evals.results import Num, Part, Rate, Record, Result


class CorpusIngest(Part):
    """``multihop.ingest_corpus``: the corpus through the real pipeline, per passage."""

    backend: str
    passages: int
    sources_new: int
    sources_failed: int
    concepts: dict[str, int]  # created, merged
    claims: int
    llm_calls: int
    prompt_tokens: int
    cache_hits: int
    llm_calls_per_passage: Num
    prompt_tokens_per_passage: Num | None
    seconds: Num
    seconds_per_passage: Num


class MethodScores(Part):
    """One retrieval method at k over every question."""

    recall: Num
    all_recall: Num
    all_found: int
    docs_per_question: Num
    precision: Num
    context_tokens: Num
    context_share: Num


class SweepRow(Part):
    """One point of the precision sweep (k is "reached" for traversal: every document reached)."""

    method: str
    hops: int | None
    fanout: int | None
    k: int | StrictStr
    recall: Num
    all_recall: Num
    precision: Num
    docs_per_question: Num


class MultihopResult(Result):
    name: str
    n: int
    k: int
    hops: int
    method: str
    corpus_docs: int
    embedding_model: str
    backend: str
    corpus_tokens: int
    flat: MethodScores
    graph: MethodScores
    # the graph methods other than the one asked for (which is "graph")
    bridge: MethodScores | None = None
    ppr: MethodScores | None = None
    traversal: MethodScores | None = None
    hybrid: MethodScores | None = None
    graph_margin: Num
    graph_beats_flat: StrictBool
    by_split: dict[str, dict[str, Num]]  # per half: n, and each method's share of all found
    ingest: CorpusIngest
    retrieval_seconds: Num
    sweep: list[SweepRow] | None = None
    questions: list[Record]  # per question: each method's documents and whether all were found
    seconds: Num

    def methods(self) -> dict[str, MethodScores]:
        """The methods it reports, flat and the chosen graph method first."""
        named = {m: getattr(self, m) for m in ("flat", "graph", "bridge", "ppr", "traversal", "hybrid")}
        return {m: scores for m, scores in named.items() if scores is not None}


class Sentence(Part):
    text: str
    fact_ids: list[str]
    statement: str
    supported: StrictBool
    reason: str


class AnswerRow(Part):
    """One question: what was retrieved and cited, whether it abstained, each sentence's verdict."""

    id: str
    question: str
    shape: str
    needed: list[str]
    retrieved_docs: list[str]
    cited_docs: list[str]
    needed_retrieved: StrictBool
    abstained: StrictBool
    abstention_correct: StrictBool
    answer_found: StrictBool
    uncited: list[str]
    answer: str
    sentences: list[Sentence]


class AnswerSummary(Part):
    questions: int
    sentences: int
    supported: int
    supported_rate: Rate
    uncited_sentences: int
    abstention_correct: Rate
    needed_not_retrieved: int
    abstained_when_missing: Rate
    answered_when_retrieved: Rate
    answer_found: Rate


class Checker(Part):
    llm_calls: int
    prompt_tokens: int
    completion_tokens: int


class Unsupported(Part):
    question: str
    sentence: str
    reason: str


class AnswersRun(Part):
    name: str
    backend: str
    embedding_model: str
    n: int
    corpus_docs: int


class AnswersResult(AnswerSummary, AnswersRun, Result):
    """The run (AnswersRun), the AnswerSummary of every question after it, then the rest."""

    # The summary's count of questions is replaced, in place, by the questions themselves.
    questions: list[AnswerRow]  # type: ignore[assignment]
    control_supported_rate: Rate
    control_pairs: int
    by_split: dict[str, AnswerSummary]
    checker: Checker
    ingest: CorpusIngest
    unsupported: list[Unsupported]
    seconds: Num
