"""The embeddings-service client against a real HTTP server that serves the local model's vectors."""

from __future__ import annotations

import numpy as np
import pytest

from graphwiki_assets.core.embeddings_remote import EmbeddingsUnavailable, RemoteEmbedder
from graphwiki_assets.core.encoders import build_encoder
from graphwiki_assets.core.evals.instance import free_port
from graphwiki_assets.core.settings import EmbeddingsServiceSettings, Settings
from tests.support.embeddings_server import embeddings_server

TEXTS = [f"Sentence number {i} is about {topic}." for i, topic in enumerate(["graphs", "rivers", "music"] * 4)]


@pytest.fixture(scope="module")
def server(embedder):
    with embeddings_server(embedder) as running:
        yield running


def client(url: str, **kwargs) -> RemoteEmbedder:
    return RemoteEmbedder(EmbeddingsServiceSettings(base_url=url, **kwargs), backoff_base=0.01)


def test_vectors_come_back_in_the_order_of_the_texts_from_batches_in_flight(server, embedder):
    server.requests.clear()
    remote = client(server.url, batch=5, concurrency=3)
    vectors = remote.encode(TEXTS)
    assert vectors.dtype == np.float32 and vectors.shape == (len(TEXTS), 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    # the same model behind HTTP: each row is the local model's row for the same text
    assert np.min(np.sum(vectors * embedder.encode(TEXTS), axis=1)) > 0.9999
    assert sorted(len(r) for r in server.requests) == [2, 5, 5]
    assert remote.dimension == 384 and remote.encoded == len(TEXTS) and remote.model_calls == 3


def test_a_text_is_sent_once_per_client(server):
    server.requests.clear()
    remote = client(server.url)
    first = remote.encode(["alpha", "beta", "alpha"])
    again = remote.encode(["beta", "gamma"])
    assert server.requests == [["alpha", "beta"], ["gamma"]]
    assert np.allclose(first[0], first[2]) and np.allclose(first[1], again[0])


def test_429_and_503_are_retried_then_served(server, embedder):
    server.requests.clear()
    server.fail_next[:] = [429, 503]
    remote = client(server.url)
    vector = remote.encode(["retried text"])[0]
    assert remote.retries == 2 and len(server.requests) == 3
    assert float(vector @ embedder.encode(["retried text"])[0]) > 0.9999


def test_a_refusal_is_not_retried_and_names_the_endpoint_not_the_key(server):
    server.requests.clear()
    remote = client(server.url, model="a-model-it-does-not-serve", api_key="sk-secret-value")
    with pytest.raises(EmbeddingsUnavailable) as err:
        remote.encode(["x"])
    assert server.url in str(err.value) and "404" in str(err.value)
    assert "sk-secret-value" not in str(err.value) and "sk-secret-value" not in repr(remote.__dict__)
    assert len(server.requests) == 1


def test_an_endpoint_that_stays_down_fails_after_its_retries():
    url = f"http://127.0.0.1:{free_port()}/v1"
    remote = client(url, max_retries=2, api_key="sk-secret-value")
    with pytest.raises(EmbeddingsUnavailable) as err:
        remote.encode(["nobody answers"])
    assert url in str(err.value) and "3 attempts" in str(err.value)
    assert "sk-secret-value" not in str(err.value)


def test_the_base_url_setting_switches_the_encoder_and_the_default_stays_local():
    env = {
        "GRAPHWIKI_EMBEDDINGS_BASE_URL": "http://127.0.0.1:9/v1",
        "GRAPHWIKI_EMBEDDINGS_API_KEY": "sk-secret-value",
        "GRAPHWIKI_EMBEDDINGS_MODEL": "bge-small",
        "GRAPHWIKI_EMBEDDINGS_BATCH": "16",
        "GRAPHWIKI_EMBEDDINGS_CONCURRENCY": "2",
    }
    service = Settings.from_env(env).embeddings
    assert (service.base_url, service.model, service.batch, service.concurrency) == (
        "http://127.0.0.1:9/v1",
        "bge-small",
        16,
        2,
    )
    assert "sk-secret-value" not in repr(Settings.from_env(env))
    assert isinstance(build_encoder(Settings.from_env(env)), RemoteEmbedder)
    assert type(build_encoder(Settings.from_env({}))).__name__ == "LazyEmbedder"
    with pytest.raises(ValueError, match="GRAPHWIKI_EMBEDDINGS_BATCH"):
        Settings.from_env({**env, "GRAPHWIKI_EMBEDDINGS_BATCH": "0"})
