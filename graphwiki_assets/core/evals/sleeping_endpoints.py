"""Chat and embeddings endpoints that only sleep, for measuring how ingest scales with workers.

Run as its own process (``python -m graphwiki_assets.core.evals.sleeping_endpoints --port P``),
it speaks the OpenAI protocol on ``/v1/chat/completions`` and ``/v1/embeddings``. Each reply
is a real one, computed once: chat replies by the offline rules over HTTP (``RulesServer``),
vectors by the local sentence-transformers model. Both are remembered by request, so once a
warm-up pass has asked everything a corpus asks, every later request costs a fixed sleep and
no CPU: what a remote model on its own hardware costs the machine that calls it. A request
not seen before is still answered correctly, and counted as a ``miss`` at ``GET /stats``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import signal
import threading
import time
from http.server import ThreadingHTTPServer
from typing import Any

import numpy as np

from graphwiki_assets.core.json_http import JsonHandler
from graphwiki_assets.core.llm.rules_server import RulesServer


class _Counters:
    def __init__(self) -> None:
        self.requests = 0
        self.misses = 0
        self.in_flight = 0
        self.max_in_flight = 0
        self.missed: dict[str, int] = {}  # by task: which requests a warm-up did not foresee

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"requests": self.requests, "misses": self.misses, "max_in_flight": self.max_in_flight}
        if self.missed:
            out["missed_by_task"] = dict(self.missed)
        return out


class SleepingEndpoints:
    """The remembered replies and the latencies; HTTP is ``serve``."""

    def __init__(self, chat_latency: float, embed_latency: float, embedding_model: str) -> None:
        self.chat_latency = chat_latency
        self.embed_latency = embed_latency
        self.embedding_model = embedding_model
        self._rules = RulesServer()  # its answer() only: no HTTP of its own
        self._encoder: Any = None
        self._chat: dict[str, tuple[int, dict[str, Any]]] = {}
        self._vectors: dict[str, list[float]] = {}
        self._lock = threading.Lock()
        self._compute = threading.Lock()  # one computation at a time: misses are the warm-up's
        self.counters = {"chat": _Counters(), "embeddings": _Counters()}

    def stats(self) -> dict[str, Any]:
        with self._lock:
            return {
                "chat_latency_s": self.chat_latency,
                "embed_latency_s": self.embed_latency,
                **{name: c.as_dict() for name, c in self.counters.items()},
            }

    def reset(self) -> None:
        with self._lock:
            self.counters = {"chat": _Counters(), "embeddings": _Counters()}

    def chat(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        key = hashlib.sha256(
            json.dumps([body.get("messages"), body.get("response_format")], sort_keys=True).encode()
        ).hexdigest()
        with self._timed("chat", self.chat_latency) as counters:
            reply = self._chat.get(key)
            if reply is None:
                counters.misses += 1
                task = ((body.get("response_format") or {}).get("json_schema") or {}).get("name", "?")
                counters.missed[task] = counters.missed.get(task, 0) + 1
                with self._compute:
                    reply = self._rules.answer(body)
                if reply[0] == 200:
                    self._chat[key] = reply
            return reply

    def embeddings(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        texts = [body["input"]] if isinstance(body.get("input"), str) else list(body.get("input") or [])
        if body.get("model") != self.embedding_model:
            return 404, {"error": {"message": f"model {body.get('model')!r} is not served here"}}
        with self._timed("embeddings", self.embed_latency) as counters:
            missing = [t for t in dict.fromkeys(texts) if t not in self._vectors]
            if missing:
                counters.misses += 1
                with self._compute:
                    for text, vector in zip(missing, self._encode(missing)):
                        self._vectors[text] = vector
            data = [{"object": "embedding", "index": i, "embedding": self._vectors[t]} for i, t in enumerate(texts)]
        return 200, {"object": "list", "data": data, "model": self.embedding_model, "usage": {"prompt_tokens": 0}}

    def _encode(self, texts: list[str]) -> list[list[float]]:
        if self._encoder is None:
            from graphwiki_assets.core.embeddings import load_embedder

            self._encoder = load_embedder(self.embedding_model)
        return [list(map(float, v)) for v in np.asarray(self._encoder.encode(texts))]

    def _timed(self, name: str, latency: float) -> _Timed:
        return _Timed(self, name, latency)


class _Timed:
    """Counts a request in flight and sleeps the latency before it is answered."""

    def __init__(self, owner: SleepingEndpoints, name: str, latency: float) -> None:
        self.owner, self.name, self.latency = owner, name, latency

    def __enter__(self) -> _Counters:
        with self.owner._lock:
            counters = self.owner.counters[self.name]
            counters.requests += 1
            counters.in_flight += 1
            counters.max_in_flight = max(counters.max_in_flight, counters.in_flight)
        self.counters = counters
        time.sleep(self.latency)
        return counters

    def __exit__(self, *exc: object) -> None:
        with self.owner._lock:
            self.counters.in_flight -= 1


def serve(endpoints: SleepingEndpoints, port: int) -> ThreadingHTTPServer:
    class Handler(JsonHandler):
        def do_GET(self) -> None:
            if self.path == "/stats":
                self.send_json(200, endpoints.stats())
            else:
                self.send_json(404, {"error": {"message": "not found"}})

        def do_POST(self) -> None:
            if self.path.endswith("/chat/completions"):
                self.send_json(*endpoints.chat(self.read_json()))
            elif self.path.endswith("/embeddings"):
                self.send_json(*endpoints.embeddings(self.read_json()))
            elif self.path == "/stats/reset":
                endpoints.reset()
                self.send_json(200, endpoints.stats())
            else:
                self.send_json(404, {"error": {"message": "not found"}})

    http = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    http.daemon_threads = True
    return http


def main(argv: list[str] | None = None) -> None:
    # A parent that ignores or blocks SIGTERM passes that on through exec; this server must
    # still stop when its caller terminates it.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--chat-latency", type=float, default=1.0, help="seconds per chat call")
    parser.add_argument("--embed-latency", type=float, default=0.05, help="seconds per embeddings request")
    parser.add_argument("--embedding-model", default="all-MiniLM-L6-v2")
    args = parser.parse_args(argv)
    endpoints = SleepingEndpoints(args.chat_latency, args.embed_latency, args.embedding_model)
    serve(endpoints, args.port).serve_forever()


if __name__ == "__main__":
    main()
