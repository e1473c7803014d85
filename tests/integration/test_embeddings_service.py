"""Ingest and questions through an embeddings service, and the guard that keeps one model's
vectors in a graph, on a real Neo4j with real vectors (the local model behind HTTP)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from graphwiki_assets.core.embeddings_remote import EmbeddingsUnavailable, RemoteEmbedder
from graphwiki_assets.core.evals.instance import free_port
from graphwiki_assets.core.query import ask
from graphwiki_assets.core.service import Workspace
from graphwiki_assets.core.settings import EmbeddingsServiceSettings
from graphwiki_assets.core.store.vector_model import (
    VectorModel,
    VectorModelMismatch,
    claim_vector_model,
    recorded_vector_model,
)
from tests.support.embeddings_server import embeddings_server
from tests.support.ingest import SMOKE_TEXTS, counts, ingest, write_sources


@pytest.fixture(scope="module")
def server(embedder):
    with embeddings_server(embedder) as running:
        yield running


@pytest.fixture(scope="module")
def other_server(embedder):
    """Another model's name in front of the same vectors: the guard goes by the model, not the numbers."""
    with embeddings_server(embedder, model="bge-small-en-v1.5") as running:
        yield running


def remote(url: str, model: str = "all-MiniLM-L6-v2", **kwargs) -> RemoteEmbedder:
    service = EmbeddingsServiceSettings(base_url=url, api_key="sk-secret-value", model=model, batch=8, **kwargs)
    return RemoteEmbedder(service, backoff_base=0.01)


def vectors(store) -> dict[str, np.ndarray]:
    """Every concept's and claim's vector, by its name or text."""
    rows = store.query("MATCH (n) WHERE n:Concept OR n:Claim RETURN coalesce(n.name, n.text) AS key, n.embedding AS v")
    return {r["key"]: np.array(r["v"], dtype=np.float32) for r in rows}


def knowledge(store) -> int:
    return store.query("MATCH (n) WHERE n:Source OR n:Concept OR n:Claim RETURN count(n) AS n")[0]["n"]


def test_ingest_through_the_service_stores_the_local_models_vectors_and_answers(
    store, embedder, settings, offline_llm, server, tmp_path
):
    server.requests.clear()
    encoder = remote(server.url)
    ingest(store, encoder, settings, write_sources(tmp_path / "src", SMOKE_TEXTS))
    assert len(server.requests) >= 2 and max(len(r) for r in server.requests) <= 8
    through_service = vectors(store)
    assert len(through_service) > 5
    assert recorded_vector_model(store) == VectorModel("all-MiniLM-L6-v2", 384)

    workspace = Workspace(replace(settings, sources_dir=tmp_path / "src"), store, encoder, offline_llm)
    answer = workspace.ask({"question": "What is Cypher?"})
    assert answer["found"] and "Cypher" in answer["text"]
    assert [hit["name"] for hit in workspace.search("graph query language", 3)]

    # the same corpus ingested by the local model: the same nodes with the same vectors
    store.query_batched("MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS")
    ingest(store, embedder, settings, write_sources(tmp_path / "src", SMOKE_TEXTS))
    local = vectors(store)
    assert local.keys() == through_service.keys()
    assert min(float(np.dot(local[key], through_service[key])) for key in local) > 0.999


def test_retries_carry_an_ingest_past_a_busy_server(store, settings, server, tmp_path):
    server.fail_next[:] = [429, 429]
    encoder = remote(server.url)
    report = ingest(store, encoder, settings, write_sources(tmp_path / "src", SMOKE_TEXTS)).as_dict()
    assert report["sources"]["new"] == 3 and encoder.retries == 2


def test_a_service_that_stays_down_fails_the_ingest_naming_it_and_writes_nothing(store, settings, tmp_path):
    url = f"http://127.0.0.1:{free_port()}/v1"
    with pytest.raises(EmbeddingsUnavailable) as err:
        ingest(store, remote(url, max_retries=1), settings, write_sources(tmp_path / "src", SMOKE_TEXTS))
    assert url in str(err.value) and "sk-secret-value" not in str(err.value)
    assert counts(store)["nodes"] == 0 and counts(store)["rels"] == 0


def test_a_writer_with_another_model_is_refused_before_it_writes(
    store, embedder, settings, other_server, offline_llm, tmp_path
):
    ingest(store, embedder, settings, write_sources(tmp_path / "a", SMOKE_TEXTS))
    before = counts(store)
    more = write_sources(tmp_path / "b", {"extra.md": "# Extra\n\nApache Kafka is a distributed event log."})
    with pytest.raises(VectorModelMismatch) as err:
        ingest(store, remote(other_server.url, model="bge-small-en-v1.5"), settings, more)
    message = str(err.value)
    assert "'all-MiniLM-L6-v2'" in message and "'bge-small-en-v1.5'" in message and "re-embed" in message
    assert counts(store) == before
    # questions with the other model are refused the same way, before any vector is compared
    with pytest.raises(VectorModelMismatch):
        ask(store, remote(other_server.url, model="bge-small-en-v1.5"), offline_llm, "What is Cypher?")


def test_another_dimension_is_refused_even_under_the_same_name(store, embedder, settings, tmp_path):
    ingest(store, embedder, settings, write_sources(tmp_path / "a", SMOKE_TEXTS))
    with pytest.raises(VectorModelMismatch, match="dimension 384.*dimension 768"):
        claim_vector_model(store, "all-MiniLM-L6-v2", 768)


def test_a_graph_written_before_the_record_is_adopted_by_a_writer_of_its_dimension(
    store, embedder, settings, other_server, tmp_path
):
    ingest(store, embedder, settings, write_sources(tmp_path / "a", SMOKE_TEXTS))
    store.query("MATCH (m:GraphwikiMeta) DELETE m")  # as a graph written before the record existed
    assert recorded_vector_model(store) is None and knowledge(store) > 0
    more = write_sources(tmp_path / "b", {"extra.md": "# Extra\n\nApache Kafka is a distributed event log."})
    report = ingest(store, remote(other_server.url, model="bge-small-en-v1.5"), settings, more).as_dict()
    assert report["sources"]["new"] == 1
    assert recorded_vector_model(store) == VectorModel("bge-small-en-v1.5", 384)
    with pytest.raises(VectorModelMismatch):  # from now on the adopted model is the graph's
        ingest(store, embedder, settings, write_sources(tmp_path / "c", {"c.md": "# C\n\nRust is a language."}))
