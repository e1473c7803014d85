"""Which embedding model made the graph's vectors, and the guard against mixing in another's.

Vectors of two models are not comparable, even at one dimension: a graph holding both
would resolve names and answer questions by noise. The graph therefore records the model
and dimension of its vectors on one ``(:GraphwikiMeta {name: 'vectors'})`` node, written by
the first writer (``ensure_schema`` with a model); a writer or a query whose embedder is
another model, or another dimension, is refused before it writes or reads anything.

A graph written before the record existed (vectors, no record) is adopted by the first
writer whose dimension matches the vector indexes' (``ensure_schema`` checks that first).
"""

from __future__ import annotations

from dataclasses import dataclass

from graphwiki_assets.core.store.driver import Graph, GraphStore

RECORD = "vectors"

_READ = "MATCH (m:GraphwikiMeta {name: $name}) RETURN m.model AS model, m.dimension AS dimension"

# MERGE on a unique name: two first writers at once leave one record, and each reads it back.
_RECORD = """
MERGE (m:GraphwikiMeta {name: $name})
ON CREATE SET m.model = $model, m.dimension = $dimension, m.recorded_at = datetime()
RETURN m.model AS model, m.dimension AS dimension
"""

CONSTRAINT = "CREATE CONSTRAINT graphwiki_meta_name IF NOT EXISTS FOR (n:GraphwikiMeta) REQUIRE n.name IS UNIQUE"


@dataclass(frozen=True)
class VectorModel:
    model: str
    dimension: int


class VectorModelMismatch(RuntimeError):
    """The configured embedder is not the model that made the graph's vectors."""

    def __init__(self, recorded: VectorModel, configured: VectorModel):
        self.recorded, self.configured = recorded, configured
        super().__init__(
            f"this graph's vectors were made by embedding model {recorded.model!r} "
            f"(dimension {recorded.dimension}), but {configured.model!r} (dimension {configured.dimension}) "
            "is configured. Use the same model (GRAPHWIKI_EMBEDDING_MODEL, or GRAPHWIKI_EMBEDDINGS_MODEL "
            "with GRAPHWIKI_EMBEDDINGS_BASE_URL), or re-embed: ingest the sources again with the new model "
            "into a fresh GRAPHWIKI_HOME or an emptied database."
        )


def recorded_vector_model(store: Graph) -> VectorModel | None:
    rows = store.query(_READ, name=RECORD)
    if not rows or rows[0]["model"] is None:
        return None
    return VectorModel(rows[0]["model"], int(rows[0]["dimension"]))


def check_vector_model(store: Graph, model: str, dimension: int) -> None:
    """Refuse an embedder that is not the recorded one; a graph with no record passes (a reader
    does not write one)."""
    recorded = recorded_vector_model(store)
    configured = VectorModel(model, dimension)
    if recorded is not None and recorded != configured:
        raise VectorModelMismatch(recorded, configured)


def claim_vector_model(store: GraphStore, model: str, dimension: int) -> None:
    """Record this writer's model when the graph has none yet (a new graph, or one written
    before the record existed), then refuse it unless it is the recorded one."""
    configured = VectorModel(model, dimension)
    recorded = recorded_vector_model(store)
    if recorded is None:
        row = store.query(_RECORD, name=RECORD, model=model, dimension=dimension)[0]
        recorded = VectorModel(row["model"], int(row["dimension"]))
    if recorded != configured:
        raise VectorModelMismatch(recorded, configured)


def check_encoder(store: Graph, encoder) -> None:
    """Refuse to query with an embedder that is not the graph's vector model (an encoder that
    names no model, as in some tests, is not checked)."""
    from graphwiki_assets.core.embeddings import vector_model_name

    model = vector_model_name(encoder)
    if model is not None:
        check_vector_model(store, model, encoder.dimension)
