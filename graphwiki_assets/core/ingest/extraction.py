"""Stage: extraction, one structured call per source, short sources sharing a call.

Each source is read by its format's reader and its prose taken section by section
(``ingest/passages.py``: cleaned of sentences addressed to the model, a long section split
into chunks). The pieces (sections, and chunks of long ones) are packed in order
into calls of up to ``pack_chars`` characters, so the fixed part of the prompt is paid
once per call rather than once per short source; the calls run side by side. A shared
call that fails is retried one piece per call, so a source only fails for its own sake.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from graphwiki_assets.core.config.model import Taxonomy
from graphwiki_assets.core.ingest.models import Candidates
from graphwiki_assets.core.ingest.passages import chunks_of, prose_of
from graphwiki_assets.core.ingest.taxonomy import TypeMapper
from graphwiki_assets.core.llm.base import EXTRACT_REPLY_RATIO
from graphwiki_assets.core.llm.calls import (
    DocumentExtraction,
    ExtractBatchRequest,
    ExtractedClaim,
    ExtractedConcept,
    ExtractRequest,
    ExtractResponse,
    TypeHint,
)
from graphwiki_assets.core.llm.client import LLMClient
from graphwiki_assets.core.llm.errors import LLMError
from graphwiki_assets.core.llm.pool import call_all
from graphwiki_assets.core.llm.prompts import estimate_prompt_tokens, extract_messages
from graphwiki_assets.core.sources import SourceDocument
from graphwiki_assets.core.store.keys import name_key


@dataclass(frozen=True)
class ExtractConfig:
    chunk_chars: int = 6000  # a longer source is split into chunks of at most this size
    pack_chars: int = 6000  # shorter pieces share a call up to this many characters of text
    # A source needing more extraction calls than this is refused before any is spent
    # (GRAPHWIKI_MAX_CALLS_PER_SOURCE): cost stays a decision, not a surprise.
    max_calls_per_source: int = 400


@dataclass
class Extracted:
    candidates: list[Candidates] = field(default_factory=list)  # in the order of the documents
    failed: dict[str, str] = field(default_factory=dict)  # source id -> why


@dataclass(frozen=True)
class _Piece:
    doc: int
    request: ExtractRequest


def _pieces(docs: list[SourceDocument], config: ExtractConfig) -> tuple[list[_Piece], list[list[str]]]:
    pieces: list[_Piece] = []
    removed: list[list[str]] = []
    for n, doc in enumerate(docs):
        prose = prose_of(doc)
        removed.append(prose.removed_injections)
        parts = [
            (section.section, chunk) for section in prose.sections for chunk in chunks_of(section, config.chunk_chars)
        ]
        for i, (section, chunk) in enumerate(parts):
            piece_id = doc.source_id if len(parts) == 1 else f"{doc.source_id}#{i + 1}"
            request = ExtractRequest(
                source_id=piece_id,
                title=doc.title,
                text=chunk.text,
                section=section,
                links=list(chunk.links),
                terms=list(chunk.terms),
            )
            pieces.append(_Piece(n, request))
    return pieces, removed


def _calls_needed(pieces: list[_Piece], pack_chars: int, per_call: int | None = None) -> Counter[int]:
    """The calls each document needs on its own: its pieces packed as extraction packs them
    (many short sections share a call; a section never costs less than a chunk)."""
    by_doc: dict[int, list[_Piece]] = {}
    for piece in pieces:
        by_doc.setdefault(piece.doc, []).append(piece)
    return Counter({n: len(_packs(own, pack_chars, per_call)) for n, own in by_doc.items()})


def _packs(pieces: list[_Piece], pack_chars: int, per_call: int | None = None) -> list[list[_Piece]]:
    """Pieces in order, packed up to ``pack_chars`` of text and ``per_call`` pieces a call."""
    packs: list[list[_Piece]] = []
    size = 0
    for piece in pieces:
        length = len(piece.request.text)
        if packs and size + length <= pack_chars and (per_call is None or len(packs[-1]) < per_call):
            packs[-1].append(piece)
            size += length
        else:
            packs.append([piece])
            size = length
    return packs


def _fitted(llm: LLMClient, config: ExtractConfig, types: list[TypeHint]) -> ExtractConfig:
    """Chunks and packs no larger than the model's context window holds with the prompt's own
    part (instructions, the taxonomy) and the longest reply the text may need."""
    fixed = estimate_prompt_tokens(extract_messages(ExtractBatchRequest(documents=[], types=types)))
    chars = llm.call_sizes.text_chars(max(config.chunk_chars, config.pack_chars), fixed, EXTRACT_REPLY_RATIO)
    if chars >= max(config.chunk_chars, config.pack_chars):
        return config
    return replace(config, chunk_chars=min(config.chunk_chars, chars), pack_chars=min(config.pack_chars, chars))


def _call(llm: LLMClient, pack: list[_Piece], types: list[TypeHint]) -> dict[str, DocumentExtraction | str]:
    resp = llm.extract_batch(ExtractBatchRequest(documents=[p.request for p in pack], types=types))
    found: dict[str, DocumentExtraction | str] = {d.doc_id: d for d in resp.documents}
    for missing in resp.missing:
        found[missing] = "the LLM returned no extraction for it, even when asked again"
    return found


def extract_documents(
    llm: LLMClient,
    docs: list[SourceDocument],
    config: ExtractConfig = ExtractConfig(),
    progress: Callable[[str], None] | None = None,
    taxonomy: Taxonomy | None = None,
) -> Extracted:
    """``progress`` hears how far the extraction of a long source (several chunks) has come;
    with a ``taxonomy``, the extractor is asked for its types and held to them."""
    types = (
        [
            TypeHint(name=t.name, definition=t.definition, entity_labels=t.entity_labels, includes=t.includes)
            for t in taxonomy.types
        ]
        if taxonomy
        else []
    )
    mapper = TypeMapper(taxonomy) if taxonomy else None
    config = _fitted(llm, config, types)
    pieces, removed = _pieces(docs, config)
    out = Extracted()
    chunks = Counter(p.doc for p in pieces)
    per_call = llm.call_sizes.max_documents
    calls = _calls_needed(pieces, config.pack_chars, per_call)
    over = {n for n, count in calls.items() if count > config.max_calls_per_source}
    for n in sorted(over):
        out.failed[docs[n].source_id] = (
            f"needs {calls[n]} extraction calls ({len(docs[n].text) / 1e6:.1f} MB of text), more than the budget of "
            f"{config.max_calls_per_source} per source: split the file, or raise GRAPHWIKI_MAX_CALLS_PER_SOURCE"
        )
    pieces = [p for p in pieces if p.doc not in over]
    packs = _packs(pieces, config.pack_chars, per_call)
    answers: dict[str, DocumentExtraction | str] = {}
    retry: list[list[_Piece]] = []
    finished: Counter[int] = Counter()

    def report(index: int) -> None:
        for piece in packs[index]:
            finished[piece.doc] += 1
            total = chunks[piece.doc]
            if progress and total > 1 and (finished[piece.doc] % 10 == 0 or finished[piece.doc] == total):
                progress(f"extracting {docs[piece.doc].path}: {finished[piece.doc]}/{total} chunks")

    for pack, result in zip(packs, call_all(lambda p: _call(llm, p, types), packs, llm.concurrency, done=report)):
        if isinstance(result, LLMError):
            if len(pack) == 1:
                answers[pack[0].request.source_id] = str(result)
            else:
                retry += [[piece] for piece in pack]
        else:
            answers.update(result)
            if len(pack) > 1:  # a small model may answer some documents of a call and drop others
                retry += [[piece] for piece in pack if isinstance(result.get(piece.request.source_id), str)]
    for pack, result in zip(retry, call_all(lambda p: _call(llm, p, types), retry, llm.concurrency)):
        answers.update({pack[0].request.source_id: str(result)} if isinstance(result, LLMError) else result)

    _assemble(out, docs, pieces, answers, over, removed, mapper, llm.label)
    return out


def _assemble(
    out: Extracted,
    docs: list[SourceDocument],
    pieces: list[_Piece],
    answers: dict[str, DocumentExtraction | str],
    over: set[int],
    removed: list[list[str]],
    mapper: TypeMapper | None,
    label: str,
) -> None:
    """Each document's answers merged into its candidates, or the first problem as its failure."""
    by_doc: dict[int, list[_Piece]] = {}
    for piece in pieces:
        by_doc.setdefault(piece.doc, []).append(piece)
    for n, doc in enumerate(docs):
        if n in over:
            continue
        own = by_doc.get(n, [])
        parts = [answers.get(p.request.source_id, "no extraction") for p in own]
        problems = [a for a in parts if isinstance(a, str)]
        if problems:
            out.failed[doc.source_id] = f"extraction failed: {problems[0]}"
            continue
        extraction = merge_extractions([a.as_response(label) for a in parts if not isinstance(a, str)])
        extraction = written_aliases_only(extraction, doc.text)
        typed = {}
        if mapper is not None:
            extraction, counts = mapper.apply(extraction)
            typed = counts.as_dict()
        out.candidates.append(
            Candidates(
                source_id=doc.source_id,
                path=doc.path,
                title=doc.title,
                text=doc.text,
                sha256=doc.sha256,
                date=doc.date,
                date_source=doc.date_source,
                extraction=extraction,
                removed_injections=removed[n],
                chunks=max(1, len(parts)),
                typed=typed,
                claim_sections=_claim_sections(own, parts),
            )
        )


def _claim_sections(pieces: list[_Piece], answers: list) -> dict[str, str]:
    """Each claim's section: the piece it was first read from (a page of a PDF, a heading)."""
    found: dict[str, str] = {}
    for piece, answer in zip(pieces, answers, strict=True):
        if piece.request.section and not isinstance(answer, str):
            for claim in answer.claims:
                found.setdefault(claim.text, piece.request.section)
    return found


def _flat(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.casefold()))


def written_aliases_only(extraction: ExtractResponse, text: str) -> ExtractResponse:
    """Every concept's aliases, less those its source never writes: an alias is a name the
    text gives the thing, not one the extractor knows or guesses (a wrong alias merges two
    entities for good). Compared by words, ignoring case and punctuation."""
    flat = f" {_flat(text)} "
    concepts = []
    for c in extraction.concepts:
        kept = [a for a in c.aliases if _flat(a) and f" {_flat(a)} " in flat]
        concepts.append(c if kept == c.aliases else c.model_copy(update={"aliases": kept}))
    return extraction.model_copy(update={"concepts": concepts})


def merge_extractions(responses: list[ExtractResponse]) -> ExtractResponse:
    """Chunks of one source describe one set of entities: merge concepts by normalised name."""
    concepts: dict[str, ExtractedConcept] = {}
    canonical: dict[str, str] = {}  # any key -> key of the concept it belongs to
    claims: list[ExtractedClaim] = []
    seen_claims: set[str] = set()
    dropped = 0
    backend = ""
    for response in responses:
        backend = backend or response.backend
        dropped += response.dropped
        for concept in response.concepts:
            keys = [name_key(concept.name), *(name_key(a) for a in concept.aliases)]
            home = next((canonical[k] for k in keys if k in canonical), None)
            if home is None:
                home = keys[0]
                concepts[home] = concept.model_copy(deep=True)
            else:
                kept = concepts[home]
                for alias in [concept.name, *concept.aliases]:
                    if name_key(alias) != home and alias not in kept.aliases:
                        kept.aliases.append(alias)
                if not kept.description and concept.description:
                    kept.description = concept.description
                if not kept.definition and concept.definition:
                    kept.definition = concept.definition
                said = concept.type not in ("", "Concept") and not concept.type_guessed
                if concept.type and (kept.type in ("", "Concept") or (kept.type_guessed and said)):
                    # a chunk's stated kind outranks another chunk's recogniser label
                    kept.type, kept.type_guessed = concept.type, concept.type_guessed
            for key in keys:
                canonical.setdefault(key, home)
        for claim in response.claims:
            text_key = " ".join(claim.text.lower().split())
            if text_key in seen_claims:
                continue
            seen_claims.add(text_key)
            about = []
            for name in claim.about:
                home = canonical.get(name_key(name))
                if home and concepts[home].name not in about:
                    about.append(concepts[home].name)
            if about:
                claims.append(ExtractedClaim(text=claim.text, about=about))
            else:
                dropped += 1
    return ExtractResponse(concepts=list(concepts.values()), claims=claims, dropped=dropped, backend=backend)
