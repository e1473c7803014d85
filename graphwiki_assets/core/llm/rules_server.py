"""The offline rules served over the OpenAI chat-completions protocol, on localhost.

It lets the real OpenAI path (the SDK, JSON-schema output, retries, the concurrency bound)
be exercised and measured without a model: ``graphwiki bench ingest --llm-latency 0.3``
and the tests point the OpenAI backend at it. Each request is read back into the typed
request its prompt was built from (the data fence holds it as JSON), answered by the same
rules as the offline backend, and returned as the JSON the response schema asks for.
An optional latency per call stands in for a remote model; ``fail_marker`` makes every
request whose data contains that text (of ``fail_task`` only, when given) fail with HTTP
500, to test that one bad source fails alone. ``max_output_tokens`` cuts longer replies
off the way a model's output limit does (``finish_reason: "length"``), as does a request's
own ``max_tokens``. ``drop_marker`` leaves the documents whose text holds it out of an
extraction reply that answers other documents too, as a small model drops some documents
of a batch. ``schema_form`` picks which form of schema-constrained output it takes:
OpenAI's ``json_schema`` (llama.cpp's ``llama-server``), or ``json_object`` with a
``schema`` beside it, answering ``json_schema`` with HTTP 500 (llama-cpp-python's server).
With ``context_tokens`` it reports that window at ``/props``, as ``llama-server`` does.
A request for ``logprobs`` (a scored verdict, ``llm.scored``) is answered with one word:
with ``token_logprobs(messages)`` given, its (token, logprob) alternatives, the most likely
first, as a server with token probabilities does; without it, a plain word and no
probabilities, as a server without them does. ``load_for(seconds)`` answers every request
for that long as ``llama-server`` does while it loads its model (HTTP 503 "Loading model"),
and ``burst(status, n)`` refuses the next ``n`` requests with that status (429, 503), as an
overloaded endpoint does.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable
from http.server import ThreadingHTTPServer
from typing import Any

from graphwiki_assets.core.json_http import JsonHandler
from graphwiki_assets.core.llm.base import TASKS
from graphwiki_assets.core.llm.calls import (
    AnswerRequest,
    ClaimPair,
    CommunityInput,
    CommunityReportRequest,
    ConflictRequest,
    EntityView,
    ExtractBatchRequest,
    ExtractRequest,
    JudgePair,
    JudgeRequest,
    RouteRequest,
    SummaryBatchRequest,
    SummaryRequest,
    SupportPair,
    SupportRequest,
)
from graphwiki_assets.core.llm.offline.backend import OfflineLLM
from graphwiki_assets.core.llm.prompts import estimate_prompt_tokens, estimate_tokens

_DATA = re.compile(r'<data name="[^"]*">\n(.*)\n</data>', re.DOTALL)


def request_from_messages(task: str, messages: list[dict[str, str]]) -> Any:
    """The typed request a prompt was built from (the inverse of ``prompts``)."""
    match = _DATA.search(messages[-1]["content"])
    if not match:
        raise ValueError("no <data> fence in the last message")
    raw = match.group(1)
    if task == "route":
        return RouteRequest(question=raw)
    data = json.loads(raw)
    if task == "extract":
        return ExtractBatchRequest(
            documents=[
                ExtractRequest(
                    source_id=d["doc_id"],
                    title=d.get("title") or d["text"].split("\n", 1)[0],
                    text=d["text"],
                    section=d.get("section", ""),
                    links=d.get("links", []),
                )
                for d in data
            ]
        )
    if task == "judge" and isinstance(data, list):  # a small call, every pair spelled out
        return JudgeRequest(pairs=[JudgePair(**p) for p in data])
    if task == "conflicts" and isinstance(data, list):
        return ConflictRequest(pairs=[ClaimPair(**p) for p in data])
    if task == "judge":
        columns = data["columns"]
        entities = {row[0]: EntityView(**dict(zip(columns[1:], row[1:]))) for row in data["entities"]}
        return JudgeRequest(
            pairs=[JudgePair(pair_id=p, mention=entities[m], candidate=entities[c]) for p, m, c in data["pairs"]]
        )
    if task == "conflicts":
        concepts = {c[0]: c for c in data["concepts"]}
        claims = {c[0]: c[1] for c in data["claims"]}
        return ConflictRequest(
            pairs=[
                ClaimPair(
                    pair_id=p,
                    concept=concepts[k][1],
                    concept_aliases=concepts[k][2],
                    new_claim=claims[a],
                    existing_claim=claims[b],
                )
                for p, k, a, b in data["pairs"]
            ]
        )
    if task == "summarize":
        return SummaryBatchRequest(concepts=[SummaryRequest(**c) for c in data])
    if task == "answer":
        return AnswerRequest(**data)
    if task == "support":
        return SupportRequest(pairs=[SupportPair(**p) for p in data])
    if task == "community_reports":
        return CommunityReportRequest(communities=[CommunityInput(**c) for c in data])
    raise ValueError(f"unknown task {task!r}")


def _shape(value: Any, schema: dict[str, Any]) -> Any:
    """Only what the response schema asks for (bookkeeping fields such as ``backend`` are ours)."""
    if schema.get("type") == "object":
        return {k: _shape(value.get(k), sub) for k, sub in schema["properties"].items()}
    if schema.get("type") == "array":
        return [_shape(v, schema["items"]) for v in value or []]
    return value


class RulesServer:
    """``with RulesServer(latency=0.3) as server: ... server.base_url ...``"""

    def __init__(
        self,
        latency: float = 0.0,
        fail_marker: str | None = None,
        fail_task: str | None = None,
        port: int = 0,
        max_output_tokens: int | None = None,
        schema_form: str = "json_schema",
        context_tokens: int | None = None,
        token_logprobs: Callable[[list[dict[str, Any]]], list[tuple[str, float]]] | None = None,
        drop_marker: str | None = None,
    ):
        if schema_form not in ("json_schema", "json_object"):
            raise ValueError(f"schema_form is json_schema or json_object, not {schema_form!r}")
        self.schema_form = schema_form
        self.context_tokens = context_tokens
        self.token_logprobs = token_logprobs
        self.drop_marker = drop_marker
        self.bodies: list[dict[str, Any]] = []  # every request as it came, for tests to read
        self.latency = latency
        self.max_output_tokens = max_output_tokens
        self.truncated = 0
        self.fail_marker = fail_marker
        self.fail_task = fail_task
        self.failed = 0
        self.requests = 0
        self.extracted: list[ExtractRequest] = []  # every document it was asked to extract, as read back
        self.in_flight = 0
        self.max_in_flight = 0
        # CPU seconds spent computing answers (not sleeping): the rules run in this process, so
        # a measurement of the client's concurrency has to tell them apart from the latency.
        self.compute_seconds = 0.0
        self._lock = threading.Lock()
        self._loading_until = 0.0
        self._burst: tuple[int, int] = (0, 0)  # (status, requests left to refuse)
        self.refused = 0  # requests answered by load_for or burst
        self._rules = OfflineLLM()
        server = self

        class Handler(JsonHandler):
            def do_GET(self):
                if self.path == "/props" and server.context_tokens:
                    self.send_json(200, {"default_generation_settings": {"n_ctx": server.context_tokens}})
                else:
                    self.send_json(404, {"error": {"message": "not found"}})

            def do_POST(self):
                self.send_json(*server.answer(self.read_json()))

        self._http = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self._http.daemon_threads = True
        self._thread = threading.Thread(target=self._http.serve_forever, name="rules-server", daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._http.server_address[1]}/v1"

    def load_for(self, seconds: float) -> None:
        with self._lock:
            self._loading_until = time.monotonic() + seconds

    def burst(self, status: int, n: int) -> None:
        with self._lock:
            self._burst = (status, n)

    def _refusal(self) -> tuple[int, dict[str, Any]] | None:
        with self._lock:
            if time.monotonic() < self._loading_until:
                self.refused += 1
                # llama-server's own answer while its weights load
                return 503, {"error": {"code": 503, "message": "Loading model", "type": "unavailable_error"}}
            status, left = self._burst
            if left > 0:
                self._burst, self.refused = (status, left - 1), self.refused + 1
                return status, {"error": {"code": status, "message": "scripted refusal", "type": "server_error"}}
        return None

    def answer(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        if (refusal := self._refusal()) is not None:
            return refusal
        with self._lock:
            self.requests += 1
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        computing: float | None = None
        try:
            if self.latency:
                time.sleep(self.latency)
            computing = time.thread_time()  # CPU time of this thread: waiting for the GIL is not counted
            with self._lock:
                self.bodies.append(body)
            messages = body.get("messages", [])
            if body.get("logprobs"):
                return 200, self._one_word(body, messages)
            task, refusal = self._task(body.get("response_format") or {})
            if refusal:
                return refusal
            if (
                self.fail_marker
                and (self.fail_task in (None, task))
                and any(self.fail_marker in m.get("content", "") for m in messages)
            ):
                with self._lock:
                    self.failed += 1
                return 500, {"error": {"message": "scripted failure", "type": "server_error"}}
            if task not in TASKS:
                return 400, {
                    "error": {"message": f"this server answers {self.schema_form} requests of graphwiki tasks"}
                }
            response = TASKS[task].response
            request = request_from_messages(task, messages)
            if isinstance(request, ExtractBatchRequest):
                with self._lock:
                    self.extracted += request.documents
            answer = self._rules._complete(TASKS[task], request)
            if isinstance(request, ExtractBatchRequest) and self.drop_marker and len(request.documents) > 1:
                kept = {d.source_id for d in request.documents if self.drop_marker not in d.text}
                answer = answer.model_copy(update={"documents": [d for d in answer.documents if d.doc_id in kept]})
            content = json.dumps(_shape(answer.model_dump(mode="json"), TASKS[task].schema))
            response.model_validate_json(content)  # what we send must parse on the other side
            finish = "stop"
            limits = [n for n in (self.max_output_tokens, body.get("max_tokens")) if n is not None]
            if limits and estimate_tokens(content) > min(limits):
                content, finish = content[: 4 * min(limits)], "length"
                with self._lock:
                    self.truncated += 1
            return 200, {
                "id": f"chatcmpl-rules-{self.requests}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": body.get("model", "rules"),
                "choices": [
                    {"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": finish}
                ],
                "usage": {
                    "prompt_tokens": estimate_prompt_tokens(messages),
                    "completion_tokens": estimate_tokens(content),
                    "total_tokens": estimate_prompt_tokens(messages) + estimate_tokens(content),
                },
            }
        finally:
            with self._lock:
                self.in_flight -= 1
                if computing is not None:
                    self.compute_seconds += time.thread_time() - computing

    def _one_word(self, body: dict[str, Any], messages: list[dict[str, Any]]) -> dict[str, Any]:
        top = self.token_logprobs(messages) if self.token_logprobs else [("DIFFERENT", 0.0)]
        choice: dict[str, Any] = {
            "index": 0,
            "message": {"role": "assistant", "content": top[0][0]},
            "finish_reason": "length",
        }
        if self.token_logprobs:
            alternatives = [{"token": t, "logprob": lp, "bytes": None} for t, lp in top[: body.get("top_logprobs", 1)]]
            choice["logprobs"] = {"content": [{**alternatives[0], "top_logprobs": alternatives}]}
        prompt = estimate_prompt_tokens(messages)
        return {
            "id": f"chatcmpl-rules-{self.requests}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", "rules"),
            "choices": [choice],
            "usage": {"prompt_tokens": prompt, "completion_tokens": 1, "total_tokens": prompt + 1},
        }

    def _task(self, fmt: dict[str, Any]) -> tuple[str | None, tuple[int, dict[str, Any]] | None]:
        """The task a request's response format names, or the refusal this server's form gives."""
        if self.schema_form == "json_schema":
            return (fmt.get("json_schema") or {}).get("name"), None
        if fmt.get("type") == "json_schema":  # what llama-cpp-python's server does with this form
            return None, (500, {"error": {"message": "Internal Server Error", "type": "server_error"}})
        schema = fmt.get("schema") if fmt.get("type") == "json_object" else None
        return next((name for name, task in TASKS.items() if task.schema == schema), None), None

    def __enter__(self) -> RulesServer:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._http.shutdown()
        self._http.server_close()
