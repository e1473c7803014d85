"""Extraction eval: concepts and claims against a gold set of annotated documents.

The documents go through ingest's own extraction stage (``extract_sources``: the same
injection filter, chunking, packing of short sources into shared calls), as corpus
records become sources in ingest. Then, per document:

- Concepts: an extracted concept matches a gold entity when one of its keys (name or an
  alias, normalised as ingest's exact-match pass normalises them) is a key of the
  entity. Typed, the extracted type must also fall in the entity's coarse class (see
  ``coarse_type``). Gold entities of class TIME and NUM are left out: the schema keeps
  dates and bare numbers out of concepts, they belong in claims.
- Claims: an extracted claim states a gold fact when both of the fact's entities occur in
  it (a name or alias as a run of words of the claim, or an ``about`` concept matching
  the entity) and the cosine of the two texts is at least ``CLAIM_THRESHOLD``.

Precision is the share of extracted items that match some gold item; recall the share of
gold items matched by some extracted item (one claim may state several facts).

Gold JSONL, one document a line: ``{"id", "title", "text", "split", "entities": [{"name",
"type", "aliases"}], "facts": [{"text", "entities": [entity names]}]}``; entity types are
PER, ORG, LOC, TIME, NUM or MISC.
"""

from __future__ import annotations

import re
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from graphwiki_assets.core.embeddings import Embedder
from graphwiki_assets.core.evals import metrics
from graphwiki_assets.core.evals.datasets import jsonl_records
from graphwiki_assets.core.evals.results.extraction import ExtractionResult
from graphwiki_assets.core.ingest.pipeline import extract_sources, records_as_documents
from graphwiki_assets.core.store.keys import keys_for, name_key

# Fixed before any document was scored and not moved since: a claim sharing both entities
# with a fact and this close in meaning states it. The sweep beside it shows what the
# numbers would be at other cuts; it chooses nothing.
CLAIM_THRESHOLD = 0.5
THRESHOLD_SWEEP = (0.3, 0.4, 0.5, 0.6, 0.7)
TYPES = ("PER", "ORG", "LOC", "TIME", "NUM", "MISC")
NOT_CONCEPTS = ("TIME", "NUM")

# Free-text types (an LLM's "Football Club", "Village", "Novelist") read as a coarse
# class by their words, the last word first. A type with no word here is MISC, the
# catch-all class of the gold annotation too. Written from the type names an extractor
# is asked for, not from any document.
_CLASS_WORDS = {
    "PER": """person people human man woman actor actress singer musician writer author poet novelist
        politician player athlete footballer cricketer scientist artist painter composer director
        producer king queen emperor prince princess saint engineer architect journalist philosopher
        historian bishop pope general soldier officer monarch ruler president minister character
        rapper guitarist drummer pianist comedian photographer designer inventor mathematician
        physicist chemist biologist economist lawyer judge coach manager explorer dancer""",
    "ORG": """organization organisation company corporation business firm band group team club university
        college school academy institute institution agency party government ministry army navy
        force union association society league label publisher network broadcaster channel newspaper
        magazine bank airline church order council committee parliament court brand studio
        foundation federation orchestra choir""",
    "LOC": """location place city town village country state province region county district municipality
        island river lake mountain sea ocean bay reef park reserve street road building station area
        continent nation capital territory valley forest canton shire suburb neighbourhood neighborhood
        peninsula desert hill volcano glacier strait canal waterfall airport port harbour harbor castle
        palace bridge square prefecture commune parish borough""",
    "TIME": "date year time day month century decade era period",
    "NUM": "number quantity amount count percentage",
}
_WORD_CLASS = {w: cls for cls, ws in _CLASS_WORDS.items() for w in ws.split()}


def coarse_type(extracted: str) -> str:
    words = [w.lower() for w in re.findall(r"[A-Za-z]+", extracted)]
    for word in reversed(words):
        for form in (word, word[:-1] if word.endswith("s") else word):
            if form in _WORD_CLASS:
                return _WORD_CLASS[form]
    return "MISC"


@dataclass(frozen=True)
class GoldEntity:
    name: str
    type: str
    aliases: tuple[str, ...]

    @property
    def keys(self) -> set[str]:
        return set(keys_for(self.name, list(self.aliases)))


@dataclass(frozen=True)
class GoldFact:
    text: str
    entities: tuple[str, ...]


@dataclass(frozen=True)
class GoldDoc:
    id: str
    title: str
    text: str
    split: str
    entities: tuple[GoldEntity, ...]
    facts: tuple[GoldFact, ...]


def load_gold(path: Path | str, limit: int | None = None, split: str | None = None) -> list[GoldDoc]:
    """The gold documents, only those of ``split`` when given, the first ``limit`` of them."""
    docs = []
    for where, row in jsonl_records(path):
        entities = tuple(
            GoldEntity(e["name"], e.get("type", "MISC"), tuple(e.get("aliases", []))) for e in row.get("entities", [])
        )
        bad = [e.type for e in entities if e.type not in TYPES]
        if bad:
            raise ValueError(f"{where}: entity types must be among {TYPES}, not {bad[0]!r}")
        names = {e.name for e in entities}
        facts = []
        for fact in row.get("facts", []):
            unknown = [name for name in fact["entities"] if name not in names]
            if unknown:
                raise ValueError(
                    f"{where}: fact {fact['text']!r} names {unknown[0]!r}, which is not among the entities"
                )
            facts.append(GoldFact(fact["text"], tuple(fact["entities"])))
        docs.append(
            GoldDoc(row["id"], row.get("title") or row["id"], row["text"], row.get("split", ""), entities, tuple(facts))
        )
    if split:
        docs = [d for d in docs if d.split == split]
    return docs[:limit] if limit else docs


def _tokens(text: str) -> list[str]:
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode() or text
    return re.findall(r"\w+", text.lower())


def _contains(haystack: list[str], needle: list[str]) -> bool:
    n = len(needle)
    return bool(n) and any(haystack[i : i + n] == needle for i in range(len(haystack) - n + 1))


def mentioned(claim_text: str, about_keys: set[str], entity: GoldEntity) -> bool:
    """The entity occurs in the claim: one of its names as a run of the claim's words,
    or one of the claim's ``about`` concepts is it."""
    if about_keys & entity.keys:
        return True
    words = _tokens(claim_text)
    return any(_contains(words, _tokens(name)) for name in (entity.name, *entity.aliases))


def match_concepts(doc: GoldDoc, concepts: list) -> dict:
    gold = [e for e in doc.entities if e.type not in NOT_CONCEPTS]
    rows = []
    found_any: set[str] = set()
    found_typed: set[str] = set()
    for c in concepts:
        keys = set(keys_for(c.name, list(c.aliases)))
        hits = [e for e in gold if keys & e.keys]
        typed = [e for e in hits if coarse_type(c.type) == e.type]
        found_any |= {e.name for e in hits}
        found_typed |= {e.name for e in typed}
        rows.append(
            {
                "name": c.name,
                "type": c.type,
                "class": coarse_type(c.type),
                "matches": [e.name for e in hits],
                "typed": bool(typed),
            }
        )
    return {
        "extracted": rows,
        "gold": len(gold),
        "found": found_any,
        "found_typed": found_typed,
        "missed": [{"name": e.name, "type": e.type} for e in gold if e.name not in found_any],
    }


def claim_fact_scores(
    doc: GoldDoc, claims: list, concepts: list, claim_vectors: np.ndarray, fact_vectors: np.ndarray
) -> np.ndarray:
    """Claim x fact cosine where the claim mentions both entities of the fact, else -inf."""
    keys_of = {c.name: set(keys_for(c.name, list(c.aliases))) for c in concepts}
    scores = np.full((len(claims), len(doc.facts)), -np.inf, dtype=np.float32)
    if not claims or not doc.facts:
        return scores
    cosine = claim_vectors @ fact_vectors.T
    for i, claim in enumerate(claims):
        about = set().union(*(keys_of.get(name, {name_key(name)}) for name in claim.about)) if claim.about else set()
        present = {e.name for e in doc.entities if mentioned(claim.text, about, e)}
        for j, fact in enumerate(doc.facts):
            if set(fact.entities) <= present:
                scores[i, j] = cosine[i, j]
    return scores


def _pr(tp_pred: int, n_pred: int, tp_gold: int, n_gold: int) -> dict:
    precision = tp_pred / n_pred if n_pred else 0.0
    recall = tp_gold / n_gold if n_gold else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "precision": round(precision, 4),
        "recall": round(recall, 4),
        "f1": round(f1, 4),
        "extracted": n_pred,
        "gold": n_gold,
        "correct": tp_pred,
        "found": tp_gold,
    }


def score(per_doc: list[dict], threshold: float = CLAIM_THRESHOLD) -> dict:
    """Micro-averaged precision and recall over the documents given."""
    extracted = [r for d in per_doc for r in d["concepts"]["extracted"]]
    gold = sum(d["concepts"]["gold"] for d in per_doc)
    claims = [
        d["scores"].max(axis=1) >= threshold if d["scores"].size else np.zeros(len(d["claims"]), bool) for d in per_doc
    ]
    facts = [
        d["scores"].max(axis=0) >= threshold if d["scores"].size else np.zeros(d["n_facts"], bool) for d in per_doc
    ]
    return {
        "concepts": _pr(
            sum(bool(r["matches"]) for r in extracted),
            len(extracted),
            sum(len(d["concepts"]["found"]) for d in per_doc),
            gold,
        ),
        "concepts_typed": _pr(
            sum(r["typed"] for r in extracted),
            len(extracted),
            sum(len(d["concepts"]["found_typed"]) for d in per_doc),
            gold,
        ),
        "claims": _pr(
            int(sum(c.sum() for c in claims)),
            sum(len(c) for c in claims),
            int(sum(f.sum() for f in facts)),
            sum(len(f) for f in facts),
        ),
    }


def run_extraction(
    gold: list[GoldDoc],
    embedder: Embedder,
    llm,
    name: str = "",
    threshold: float = CLAIM_THRESHOLD,
    log: Callable[[str], None] = lambda msg: None,
) -> ExtractionResult:
    started = time.monotonic()
    records = [{"id": d.id, "title": d.title, "text": d.text} for d in gold]
    sources = list(records_as_documents(records, "gold"))
    log(f"extracting {len(sources)} documents ({llm.label})")
    before = llm.usage.snapshot()
    candidates, failed = extract_sources(llm, sources)
    used = (llm.usage.snapshot() - before).as_dict()
    by_source = {c.source_id: c.extraction for c in candidates}
    per_doc: list[dict] = []
    for doc, source in zip(gold, sources):
        extraction = by_source.get(source.source_id)
        concepts = extraction.concepts if extraction else []
        claims = extraction.claims if extraction else []
        if claims:
            vectors = embedder.encode([c.text for c in claims] + [f.text for f in doc.facts])
            scores = claim_fact_scores(doc, claims, concepts, vectors[: len(claims)], vectors[len(claims) :])
        else:
            scores = np.zeros((0, len(doc.facts)), np.float32)
        per_doc.append(
            {
                "id": doc.id,
                "split": doc.split,
                "failed": extraction is None,
                "concepts": match_concepts(doc, concepts),
                "claims": claims,
                "n_facts": len(doc.facts),
                "scores": scores,
            }
        )
    result = {
        "name": name,
        "backend": llm.label,
        "embedding_model": embedder.name,
        "documents": len(gold),
        "failed": [r.reason for r in failed],
        "claim_threshold": threshold,
        "gold_entities": sum(len(d.entities) for d in gold),
        "gold_concepts": sum(d["concepts"]["gold"] for d in per_doc),
        "gold_facts": sum(len(d.facts) for d in gold),
        **score(per_doc, threshold),
        "by_split": {
            s: score([d for d in per_doc if d["split"] == s], threshold)
            for s in metrics.SPLITS
            if any(d["split"] == s for d in per_doc)
        },
        "sweep": [{"threshold": t, **score(per_doc, t)["claims"]} for t in THRESHOLD_SWEEP],
        "recall_by_type": _recall_by_type(gold, per_doc),
        "llm_calls": used["calls"] + used["cache_hits"],
        "cache_hits": used["cache_hits"],
        "prompt_tokens": used["prompt_tokens"],
        "completion_tokens": used["completion_tokens"],
        "documents_detail": [_detail(doc, d, threshold) for doc, d in zip(gold, per_doc)],
    }
    result["seconds"] = round(time.monotonic() - started, 2)
    return ExtractionResult.of(result)


def _recall_by_type(gold: list[GoldDoc], per_doc: list[dict]) -> dict:
    out = {}
    for cls in TYPES:
        if cls in NOT_CONCEPTS:
            continue
        wanted = [(e.name, d) for doc, d in zip(gold, per_doc) for e in doc.entities if e.type == cls]
        out[cls] = {"gold": len(wanted), "recall": metrics.share(name in d["concepts"]["found"] for name, d in wanted)}
    return out


def _detail(doc: GoldDoc, d: dict, threshold: float) -> dict:
    """What a reader needs to see why a document scored as it did."""
    scores = d["scores"]
    claims = [
        {
            "text": c.text,
            "about": c.about,
            "states": [doc.facts[j].text for j in np.flatnonzero(scores[i] >= threshold)] if scores.size else [],
        }
        for i, c in enumerate(d["claims"])
    ]
    found = set(np.flatnonzero(scores.max(axis=0) >= threshold)) if scores.size else set()
    return {
        "id": doc.id,
        "title": doc.title,
        "split": doc.split,
        "failed": d["failed"],
        "concepts": d["concepts"]["extracted"],
        "missed_entities": d["concepts"]["missed"],
        "claims": claims,
        "missed_facts": [f.text for j, f in enumerate(doc.facts) if j not in found],
    }
