"""All Cypher of the query concern, one module per part of answering a question.

Every value, the question text included, arrives as a parameter: nothing here is formatted
but the filter that keeps nodes in play, ``store.schema.in_play``. Path-length bounds are
literals because Cypher cannot take them as parameters. Callers read the statements from
here (``cypher.LOAD_CONCEPTS``), whichever module holds them.
"""

from graphwiki_assets.core.query.cypher.communities import (
    COMMUNITIES_OF,
    COMMUNITIES_REPORTED,
    COMMUNITIES_TOP,
    COMMUNITY_CLAIMS,
    COMMUNITY_VECTOR,
    LOAD_COMMUNITIES,
)
from graphwiki_assets.core.query.cypher.filed import (
    FILE_ANSWER,
    FILED_NEAR,
)
from graphwiki_assets.core.query.cypher.linking import (
    CONCEPT_VECTOR,
    CONCEPT_VECTOR_CANDIDATES,
    CONCEPTS_BY_ANY_KEY,
    CONCEPTS_BY_KEYS,
    CONCEPTS_BY_SPELLING,
    RAW_SOURCES,
    SOURCES_MENTIONING,
)
from graphwiki_assets.core.query.cypher.projection import (
    CORPUS_CHARACTERS,
    GRAPH_COUNTS,
    PROJECTABLE_COUNTS,
    PROJECTION_CREATE,
    PROJECTIONS,
    STRUCTURE_INDEX,
    STRUCTURE_NEIGHBOURS,
)
from graphwiki_assets.core.query.cypher.retrieval import (
    BRIDGED_SOURCES,
    CLAIM_VECTOR_CONCEPTS,
    CONCEPT_SOURCE_COUNTS,
    SOURCE_VECTOR,
    SOURCES_OF_CONCEPTS,
)
from graphwiki_assets.core.query.cypher.signatures import (
    ANY_SIGNATURE,
    SHAPE_CANDIDATES,
    SHAPE_WITNESSES,
    SHARED_NEIGHBOURS,
    SIGNATURE_OF,
    SIGNATURES_READ,
    SIGNATURES_STALE,
    SIGNATURES_STALE_AMONG,
    SIGNATURES_WRITE,
)
from graphwiki_assets.core.query.cypher.subgraph import (
    CLAIMS_ABOUT,
    CLAIMS_LINKING,
    LOAD_CLAIMS,
    LOAD_CONCEPTS,
    LOAD_SOURCES,
)
from graphwiki_assets.core.query.cypher.techniques import (
    CLAIM_VECTOR,
    CONCEPT_PATH,
    CONCEPT_TYPES,
    CONCEPTS_IN_PLAY,
    CONCEPTS_OF_TYPES,
    DEFINING_CANDIDATES,
    EVIDENCE_PATH,
    LAYER_DEGREES,
    LAYER_NEIGHBOURS,
    NEIGHBOURS,
    NODE_IDS,
    RANKED_CONCEPTS,
    RELATED_PPR,
    TRAVERSAL_HOP,
    WEIGHTED_PPR_SOURCES,
)

__all__ = [
    "CONCEPTS_BY_KEYS",
    "CONCEPTS_BY_ANY_KEY",
    "CONCEPTS_BY_SPELLING",
    "CONCEPT_VECTOR_CANDIDATES",
    "CONCEPT_VECTOR",
    "RAW_SOURCES",
    "SOURCES_MENTIONING",
    "LOAD_CONCEPTS",
    "LOAD_CLAIMS",
    "LOAD_SOURCES",
    "CLAIMS_ABOUT",
    "CLAIMS_LINKING",
    "DEFINING_CANDIDATES",
    "TRAVERSAL_HOP",
    "NODE_IDS",
    "RELATED_PPR",
    "LAYER_DEGREES",
    "LAYER_NEIGHBOURS",
    "CONCEPTS_IN_PLAY",
    "RANKED_CONCEPTS",
    "WEIGHTED_PPR_SOURCES",
    "CONCEPT_PATH",
    "EVIDENCE_PATH",
    "NEIGHBOURS",
    "CONCEPT_TYPES",
    "CONCEPTS_OF_TYPES",
    "CLAIM_VECTOR",
    "SIGNATURE_OF",
    "SIGNATURES_READ",
    "SIGNATURES_WRITE",
    "SIGNATURES_STALE",
    "SIGNATURES_STALE_AMONG",
    "ANY_SIGNATURE",
    "SHAPE_CANDIDATES",
    "SHARED_NEIGHBOURS",
    "SHAPE_WITNESSES",
    "SOURCE_VECTOR",
    "CLAIM_VECTOR_CONCEPTS",
    "BRIDGED_SOURCES",
    "CONCEPT_SOURCE_COUNTS",
    "SOURCES_OF_CONCEPTS",
    "STRUCTURE_INDEX",
    "STRUCTURE_NEIGHBOURS",
    "GRAPH_COUNTS",
    "CORPUS_CHARACTERS",
    "PROJECTIONS",
    "PROJECTION_CREATE",
    "PROJECTABLE_COUNTS",
    "COMMUNITIES_REPORTED",
    "COMMUNITIES_TOP",
    "COMMUNITY_VECTOR",
    "COMMUNITIES_OF",
    "COMMUNITY_CLAIMS",
    "LOAD_COMMUNITIES",
    "FILE_ANSWER",
    "FILED_NEAR",
]
