"""Answer faithfulness: every sentence supported by what it cites, abstention when it should.

The corpus is ingested into an empty eval graph through the real pipeline and each
question is answered by ``ask``, exactly as ``graphwiki ask`` answers it. Per answer:

- every sentence carries a citation (fact ids and source ids); a line of the answer that
  is not a cited sentence counts as an uncited sentence;
- each sentence, stripped of its inline status and source marks, is checked against the
  texts of the facts it cites by the configured LLM's ``support`` call (offline: lexical
  entailment of its content words, see ``llm/offline/support.py``);
- abstention: the answer should say the graph has no information exactly when the
  documents the question needs were not all retrieved (the sources of the subgraph the
  answer was written from, mapped back to corpus ids: the sources its facts rest on, not
  those of every concept a walk passed). Abstaining when they were retrieved is an error
  too.

The gold answer's presence in the text is reported beside, as a rough correctness signal.
So is a control that shows the checker can say no: every sentence checked again against
the citations of the next sentence with different ones; a checker that passes those too
would pass anything.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

import pandas as pd

from graphwiki_assets.core.embeddings import Embedder
from graphwiki_assets.core.evals import metrics
from graphwiki_assets.core.evals.multihop import corpus_ids, ingest_corpus, progress_every
from graphwiki_assets.core.evals.results.retrieval import AnswersResult
from graphwiki_assets.core.llm.calls import SupportPair, SupportRequest, SupportVerdict
from graphwiki_assets.core.llm.errors import LLMError
from graphwiki_assets.core.llm.pool import call_all
from graphwiki_assets.core.query import ask
from graphwiki_assets.core.query.answer import concept_fact_text
from graphwiki_assets.core.store.driver import GraphStore

NAMESPACE = "corpus"
PAIRS_PER_CALL = 32
HISTORY_HEADER = "History (superseded, not current):"

FACT_TEXTS = """
UNWIND $ids AS id
OPTIONAL MATCH (c:Claim {id: id})
OPTIONAL MATCH (k:Concept {id: id})
RETURN id, c.text AS claim, k.name AS name, k.type AS type, k.summary AS summary, coalesce(k.aliases, []) AS aliases
"""

# What ``render`` appends to a sentence: "[disputed — see claim-2]", "[source: src-1, src-2]".
_MARKS = re.compile(r"\s*\[(?:source: [^\[\]]*|[^\[\]]* — see [^\[\]]*)\]")


def statement(rendered: str) -> str:
    """A rendered sentence without its inline marks: what it asserts."""
    return _MARKS.sub("", rendered).strip()


def fact_texts(store: GraphStore, ids: list[str]) -> dict[str, str]:
    out = {}
    for row in store.query(FACT_TEXTS, ids=ids) if ids else []:
        if row["claim"] is not None:
            out[row["id"]] = row["claim"]
        elif row["name"] is not None:
            out[row["id"]] = concept_fact_text(row["name"], row["type"], row["summary"] or "", row["aliases"])
    return out


def check_support(llm, pairs: list[SupportPair]) -> dict[str, SupportVerdict]:
    calls = [pairs[i : i + PAIRS_PER_CALL] for i in range(0, len(pairs), PAIRS_PER_CALL)]
    verdicts: dict[str, SupportVerdict] = {}
    for result in call_all(lambda chunk: llm.support(SupportRequest(pairs=chunk)), calls, llm.concurrency):
        if isinstance(result, LLMError):
            raise result
        verdicts.update({v.pair_id: v for v in result.verdicts})
    return verdicts


def swapped(pairs: list[SupportPair]) -> list[SupportPair]:
    """Each statement with the evidence of the next pair whose evidence differs (the control)."""
    out = []
    for n, pair in enumerate(pairs):
        other = next((q for q in pairs[n + 1 :] + pairs[:n] if q.evidence != pair.evidence), None)
        if other is not None:
            out.append(pair.model_copy(update={"pair_id": f"control-{pair.pair_id}", "evidence": other.evidence}))
    return out


def uncited_lines(answer: dict) -> list[str]:
    """Lines of the answer that are neither a cited sentence nor the history block."""
    if not answer["sentences"]:
        return []
    cited = {s["text"] for s in answer["sentences"] if s["fact_ids"] and s["source_ids"]}
    body = answer["answer"].split(HISTORY_HEADER, 1)[0]
    return [line for line in body.splitlines() if line.strip() and line not in cited]


def _norm(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))


def judged(question: dict, answer: dict, id_map: dict[str, list[str]]) -> dict:
    """One question's abstention facts (the support verdicts are added later, in one go)."""
    retrieved = sorted({d for s in answer["retrieved"]["sources"] for d in id_map.get(s, [])})
    cited = sorted({d for s in answer["citations"] for d in id_map.get(s, [])})
    needed_retrieved = set(question["needed"]) <= set(retrieved)
    abstained = not answer["sentences"]
    golds = [question.get("answer", ""), *question.get("answer_aliases", [])]
    return {
        "id": question["id"],
        "question": question["question"],
        "shape": answer["shape"],
        "needed": question["needed"],
        "retrieved_docs": retrieved,
        "cited_docs": cited,
        "needed_retrieved": needed_retrieved,
        "abstained": abstained,
        "abstention_correct": abstained == (not needed_retrieved),
        "answer_found": any(_norm(g) and _norm(g) in _norm(answer["answer"]) for g in golds),
        "uncited": uncited_lines(answer),
        "answer": answer["answer"],
        "sentences": [{"text": s["text"], "fact_ids": s["fact_ids"]} for s in answer["sentences"]],
    }


def summarise(rows: list[dict]) -> dict:
    sentences = [s for r in rows for s in r["sentences"]]
    missing = [r for r in rows if not r["needed_retrieved"]]
    present = [r for r in rows if r["needed_retrieved"]]
    return {
        "questions": len(rows),
        "sentences": len(sentences),
        "supported": sum(s["supported"] for s in sentences),
        "supported_rate": metrics.share(s["supported"] for s in sentences) if sentences else None,
        "uncited_sentences": sum(len(r["uncited"]) for r in rows),
        "abstention_correct": metrics.share(r["abstention_correct"] for r in rows) if rows else None,
        "needed_not_retrieved": len(missing),
        "abstained_when_missing": metrics.share(r["abstained"] for r in missing) if missing else None,
        "answered_when_retrieved": metrics.share(not r["abstained"] for r in present) if present else None,
        "answer_found": metrics.share(r["answer_found"] for r in rows) if rows else None,
    }


def run_answers(
    store: GraphStore,
    embedder: Embedder,
    llm,
    docs: list[dict],
    questions: list[dict],
    name: str = "",
    log: Callable[[str], None] = lambda msg: None,
) -> AnswersResult:
    started = time.monotonic()
    log(f"ingesting {len(docs)} passages ({llm.label})")
    ingest = ingest_corpus(store, embedder, llm, docs, NAMESPACE, progress=progress_every(100, len(docs), log))
    id_map = corpus_ids(store, NAMESPACE)
    log(f"answering {len(questions)} questions")
    answers = [ask(store, embedder, llm, q["question"]).as_dict() for q in questions]
    rows = [judged(q, a, id_map) for q, a in zip(questions, answers)]
    texts = fact_texts(store, sorted({f for r in rows for s in r["sentences"] for f in s["fact_ids"]}))
    pairs = [
        SupportPair(
            pair_id=f"{n}.{m}", statement=statement(s["text"]), evidence=[texts[f] for f in s["fact_ids"] if f in texts]
        )
        for n, r in enumerate(rows)
        for m, s in enumerate(r["sentences"])
    ]
    log(f"checking {len(pairs)} sentences against their citations")
    before = llm.usage.snapshot()
    verdicts = check_support(llm, pairs)
    used = (llm.usage.snapshot() - before).as_dict()
    control = check_support(llm, swapped(pairs))
    for n, r in enumerate(rows):
        for m, s in enumerate(r["sentences"]):
            v = verdicts.get(f"{n}.{m}")
            s.update(
                {
                    "statement": statement(s["text"]),
                    "supported": bool(v and v.supported),
                    "reason": v.reason if v else "no verdict",
                }
            )
    result = {
        "name": name,
        "backend": llm.label,
        "embedding_model": embedder.name,
        "n": len(questions),
        "corpus_docs": len(docs),
        **summarise(rows),
        "control_supported_rate": metrics.share(v.supported for v in control.values()) if control else None,
        "control_pairs": len(control),
        "by_split": metrics.per_split(
            pd.DataFrame({"row": rows, "split": [q.get("split") for q in questions]}),
            lambda half: summarise(half["row"].tolist()),
        ),
        "checker": {
            "llm_calls": used["calls"] + used["cache_hits"],
            "prompt_tokens": used["prompt_tokens"],
            "completion_tokens": used["completion_tokens"],
        },
        "ingest": ingest,
        "unsupported": [
            {"question": r["id"], "sentence": s["statement"], "reason": s["reason"]}
            for r in rows
            for s in r["sentences"]
            if not s["supported"]
        ],
        "questions": rows,
    }
    result["seconds"] = round(time.monotonic() - started, 2)
    return AnswersResult.of(result)
