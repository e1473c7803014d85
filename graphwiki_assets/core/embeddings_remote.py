"""Embeddings from an OpenAI-compatible ``/v1/embeddings`` endpoint (Text Embeddings
Inference, vLLM, Ollama, llama.cpp ``--embedding``, OpenAI), chosen by
``GRAPHWIKI_EMBEDDINGS_BASE_URL``.

``RemoteEmbedder`` is an ``Encoder`` like the local model: the texts of one call are cut
into requests of ``batch`` texts, up to ``concurrency`` of them in flight, and the rows come
back in the order of the texts whatever order the replies arrive in (each reply row carries
its ``index``). Rows are L2-normalised here, because not every server normalises. 429, 408,
409, 5xx, timeouts and connection errors are retried with exponential back-off and jitter
(Retry-After honoured up to ``backoff_max``), as the LLM path does; then the call fails with
``EmbeddingsUnavailable`` naming the endpoint, never the key. The dimension is learnt from
the first reply (a one-text probe when asked before any call).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from typing import Any

import numpy as np

from graphwiki_assets.core.embeddings import MAX_TEXT_CHARS, _key, cached_rows
from graphwiki_assets.core.retries import LoadWait, backoff, retry_after, retryable
from graphwiki_assets.core.settings import EmbeddingsServiceSettings


class EmbeddingsUnavailable(RuntimeError):
    """The embeddings endpoint refused or did not answer after every retry."""


class RemoteEmbedder:
    def __init__(
        self,
        settings: EmbeddingsServiceSettings,
        *,
        backoff_base: float = 0.5,
        backoff_max: float = 20.0,
        cache_size: int = 100_000,
    ) -> None:
        if not settings.base_url:
            raise ValueError("an embeddings service needs GRAPHWIKI_EMBEDDINGS_BASE_URL")
        from openai import OpenAI  # imported here: the local default never needs it

        self.name = settings.model
        self.endpoint = settings.base_url
        self.batch = max(1, settings.batch)
        self.concurrency = max(1, settings.concurrency)
        self.max_retries = max(0, settings.max_retries)
        self.load_wait_s = settings.load_wait_s
        self.backoff_base = backoff_base
        self.backoff_max = backoff_max
        self._client = OpenAI(
            api_key=settings.api_key or "not-needed",  # local servers take any key
            base_url=settings.base_url,
            timeout=settings.timeout_s,
            max_retries=0,  # every attempt is counted and backed off here
        )
        self._dimension: int | None = None
        self._cache: OrderedDict[bytes, np.ndarray] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()
        self.encoded = 0  # texts sent to the service (not served from the cache)
        self.model_calls = 0  # requests that succeeded
        self.retries = 0

    @property
    def dimension(self) -> int:
        if self._dimension is None:
            self.encode(["graphwiki"])
        assert self._dimension is not None
        return self._dimension

    def encode(self, texts: list[str], batch_size: int = 64) -> np.ndarray:
        """L2-normalised float32 vectors, one row per text, in the order of ``texts``.
        (``batch_size`` is the local model's knob; requests are sized by the setting.)"""
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        clipped = [t[:MAX_TEXT_CHARS] for t in texts]
        keys = [_key(t) for t in clipped]
        with self._lock:
            todo = {k: t for k, t in zip(keys, clipped) if k not in self._cache}
        if todo:
            fresh = self._fetch(list(todo.values()))
            with self._lock:
                self.encoded += len(todo)
                self._cache.update(zip(todo, fresh))
        with self._lock:
            return cached_rows(self._cache, keys, self._cache_size)

    def encode_one(self, text: str) -> list[float]:
        return self.encode([text])[0].tolist()

    def _fetch(self, texts: list[str]) -> np.ndarray:
        chunks = [texts[i : i + self.batch] for i in range(0, len(texts), self.batch)]
        if len(chunks) == 1:
            parts = [self._request(chunks[0])]
        else:
            with ThreadPoolExecutor(max_workers=min(self.concurrency, len(chunks))) as pool:
                parts = list(pool.map(self._request, chunks))  # map keeps the chunks' order
        vectors = np.concatenate(parts).astype(np.float32)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        if not np.all(norms > 0):
            raise EmbeddingsUnavailable(f"embeddings endpoint {self.endpoint} returned a zero vector")
        vectors /= norms
        if self._dimension is None:
            self._dimension = int(vectors.shape[1])
        elif vectors.shape[1] != self._dimension:
            raise EmbeddingsUnavailable(
                f"embeddings endpoint {self.endpoint} changed dimension: {vectors.shape[1]}, was {self._dimension}"
            )
        return vectors

    def _request(self, texts: list[str]) -> np.ndarray:
        import openai

        attempt = 0
        error: Exception
        wait: float | None
        load = LoadWait(self.load_wait_s)
        while True:
            try:
                reply = self._client.embeddings.create(model=self.name, input=texts, encoding_format="float")
                return self._rows(reply, len(texts))
            except (openai.APITimeoutError, openai.APIConnectionError) as e:
                error, wait = e, None
            except openai.APIStatusError as e:
                if not retryable(e.status_code):
                    raise EmbeddingsUnavailable(
                        f"embeddings endpoint {self.endpoint} (model {self.name!r}) refused: HTTP {e.status_code}"
                    ) from e
                if load.wait(e):  # a restarted server loading its model: waited out, not counted
                    continue
                error, wait = e, retry_after(e)
            if attempt >= self.max_retries:
                raise EmbeddingsUnavailable(
                    f"embeddings endpoint {self.endpoint} (model {self.name!r}) gave up after "
                    f"{attempt + 1} attempts: {type(error).__name__}{load.gave_up()}"
                ) from error
            with self._lock:
                self.retries += 1
            time.sleep(backoff(attempt, wait, self.backoff_base, self.backoff_max))
            attempt += 1

    def _rows(self, reply: Any, expected: int) -> np.ndarray:
        rows = sorted(reply.data, key=lambda row: row.index)
        if len(rows) != expected or [row.index for row in rows] != list(range(expected)):
            raise EmbeddingsUnavailable(
                f"embeddings endpoint {self.endpoint} answered {len(rows)} vectors for {expected} texts"
            )
        with self._lock:
            self.model_calls += 1
        return np.asarray([row.embedding for row in rows], dtype=np.float32)


@lru_cache(maxsize=4)
def load_remote_embedder(settings: EmbeddingsServiceSettings) -> RemoteEmbedder:
    """One client (and one cache) per service settings and process, as ``load_embedder``."""
    return RemoteEmbedder(settings)
