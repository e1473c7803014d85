"""Stage: one structured extraction call per source (per chunk for long sources)."""

from __future__ import annotations

from graphwiki_assets.core.ingest.files import SourceDocument
from graphwiki_assets.core.ingest.keys import name_key
from graphwiki_assets.core.ingest.models import Candidates
from graphwiki_assets.core.llm.chunking import chunk_text
from graphwiki_assets.core.llm.client import LLMClient
from graphwiki_assets.core.llm.injection import strip_injections
from graphwiki_assets.core.llm.requests import ExtractedClaim, ExtractedConcept, ExtractRequest, ExtractResponse


def extract_candidates(llm: LLMClient, doc: SourceDocument, max_chars: int = 6000) -> Candidates:
    # Source text is data: sentences that address the model are removed before it sees them.
    clean, removed = strip_injections(doc.text)
    chunks = chunk_text(clean, max_chars=max_chars) or [clean]
    responses = [
        llm.extract(ExtractRequest(source_id=doc.source_id, title=doc.title, text=chunk))
        for chunk in chunks if chunk.strip()
    ]
    return Candidates(
        source_id=doc.source_id, path=doc.path, title=doc.title, text=doc.text, sha256=doc.sha256,
        extraction=merge_extractions(responses), removed_injections=removed, chunks=len(chunks),
    )


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
                if kept.type in ("", "Concept") and concept.type:
                    kept.type = concept.type
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
