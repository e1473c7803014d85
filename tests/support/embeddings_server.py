"""An OpenAI-compatible ``/v1/embeddings`` server over a real local model, for tests.

It answers as Text Embeddings Inference or vLLM do (``{"data": [{"index", "embedding"}],
"model", "usage"}``), with the vectors of the sentence-transformers model it is given, so a
graph built through it can be compared with one built by the model itself. ``fail_next``
queues HTTP statuses to answer before serving again (a 429 twice, say); every request's
texts are kept in ``requests``.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from tests.support.serving import serving


class EmbeddingsRequest(BaseModel):
    model: str
    input: list[str] | str
    encoding_format: str | None = None


@dataclass
class EmbeddingsServer:
    embedder: object  # an Encoder
    model: str = "all-MiniLM-L6-v2"
    fail_next: list[int] = field(default_factory=list)
    requests: list[list[str]] = field(default_factory=list)
    url: str = ""
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def app(self) -> FastAPI:
        app = FastAPI()

        @app.post("/v1/embeddings")
        def embeddings(req: EmbeddingsRequest):
            texts = [req.input] if isinstance(req.input, str) else req.input
            with self._lock:
                status = self.fail_next.pop(0) if self.fail_next else None
                self.requests.append(texts)
            if status is not None:
                return JSONResponse({"error": {"message": "busy", "code": status}}, status_code=status)
            if req.model != self.model:
                return JSONResponse({"error": {"message": f"model {req.model!r} not served"}}, status_code=404)
            vectors = self.embedder.encode(texts)  # type: ignore[attr-defined]
            data = [{"object": "embedding", "index": i, "embedding": v.tolist()} for i, v in enumerate(vectors)]
            # answered in reverse order: a client must place rows by their index
            return {
                "object": "list",
                "data": data[::-1],
                "model": self.model,
                "usage": {"prompt_tokens": 0, "total_tokens": 0},
            }

        return app


@contextmanager
def embeddings_server(embedder, model: str = "all-MiniLM-L6-v2") -> Iterator[EmbeddingsServer]:
    """The server on a free port; ``.url`` is its OpenAI base URL (``.../v1``)."""
    server = EmbeddingsServer(embedder, model)
    with serving(server.app()) as base:
        server.url = f"{base}/v1"
        yield server
