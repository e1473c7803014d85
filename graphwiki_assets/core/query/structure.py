"""Node embeddings of the concept graph: where a concept sits, not what it says.

FastRP (GDS) on the concept layer of the query projection, whose edges are the knowledge
edges, weighted by how many claims state them. Two concepts with neighbourhoods alike get
near vectors even when their names and texts share nothing: the structural half of the
``hybrid`` retrieval method (``retrieval.py``). Written to ``Concept.structure`` with its own
vector index each time the projection is rebuilt; concepts written since are left out until
the next rebuild, as they are of PageRank.
"""

from __future__ import annotations

import time

from graphwiki_assets.core.query import cypher
from graphwiki_assets.core.query.projection import concept_layer, with_projection
from graphwiki_assets.core.store.driver import GraphStore
from graphwiki_assets.core.store.gds_client import calls, gds, graph
from graphwiki_assets.core.store.schema import create_rule

DIMENSION = 128
# Weights of the 0-, 1- and 2-hop neighbourhoods: a concept is described by its neighbours
# and theirs, not by its own random start vector.
ITERATION_WEIGHTS = [0.0, 1.0, 1.0]
SEED = 19
WRITE_PROPERTY = "structure"  # Concept.structure, the property concept_structure indexes


def ensure_structure_index(store: GraphStore) -> None:
    # two ingests finishing together both refresh the structure: the index may race too
    create_rule(store, cypher.STRUCTURE_INDEX, dimension=DIMENSION)


def refresh_structure(store: GraphStore) -> dict:
    """FastRP on the newest concept layer, written to every concept in it."""
    started = time.monotonic()
    ensure_structure_index(store)

    def on(layer: dict) -> dict:
        if not layer.get("nodes"):
            return {"written": 0}
        with calls(store):
            written = gds(store).fast_rp.write(
                graph(store, layer["name"]),
                WRITE_PROPERTY,
                DIMENSION,
                iteration_weights=ITERATION_WEIGHTS,
                relationship_weight_property="weight",
                random_seed=SEED,
                concurrency=1,  # with the seed, the same graph gives the same vectors
            )
        return {"written": written.node_properties_written}

    done = with_projection(store, on, concept_layer())
    return {**done, "dimension": DIMENSION, "seconds": round(time.monotonic() - started, 3)}
