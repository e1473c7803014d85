"""The OpenAI-compatible backend: any endpoint that speaks chat completions (OpenAI,
Ollama, vLLM, llama.cpp server).

Transport: at most ``settings.concurrency`` requests are in flight at once per backend,
whatever number of threads call it (a retry waiting out its backoff holds no slot).
The SDK's own retries are off so every attempt is counted here; 429, 408,
409, 5xx, timeouts and connection errors are retried with exponential backoff and
jitter (a server's Retry-After is honoured up to ``backoff_max``), then the call fails
with ``LLMUnavailable``. Other 4xx fail at once.
Schema-constrained output: servers take it in one of two forms, OpenAI's ``json_schema``
or ``{"type": "json_object", "schema": ...}`` (llama-cpp-python's server). The form is
found once per client: the first 400/422/5xx on ``json_schema`` before any call of that
form has succeeded is asked again in the other form; the one that answers is kept. An
endpoint rejecting both is asked with plain JSON mode, then with no response format.
Where the model's context window is known (GRAPHWIKI_LLM_CONTEXT, or a local llama.cpp
server's ``/props``), a call that would not fit it is not sent (``LLMCallTooLarge``: asked
again smaller) and every reply is bounded (``max_tokens``) by what its items need.
Output: the reply must parse as JSON and validate against the task's response model;
if not, the model is shown the error and asked once more, then ``LLMBadOutput``. A reply
cut off at the model's output limit is not re-asked: ``LLMOutputTruncated`` tells the
caller to ask for fewer answers at a time.
"""

from __future__ import annotations

import json
import logging
import re
import threading
import time
from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from graphwiki_assets.core.llm.base import BaseLLM, Task, Usage
from graphwiki_assets.core.llm.endpoint import server_context
from graphwiki_assets.core.llm.errors import LLMBadOutput, LLMCallTooLarge, LLMOutputTruncated, LLMUnavailable
from graphwiki_assets.core.llm.halving import CallSizes
from graphwiki_assets.core.llm.prompts import Messages, estimate_prompt_tokens, estimate_tokens
from graphwiki_assets.core.llm.scored import (
    CONTENT_FREE,
    SCORED_TASKS,
    TOP_LOGPROBS,
    LabelScores,
    ScoredTask,
    label_scores,
    mean_scores,
)
from graphwiki_assets.core.retries import LoadWait, backoff, retry_after, retryable
from graphwiki_assets.core.settings import LLMSettings


def openai_label(model: str) -> str:
    """What every response of this backend is labelled with (also known before it is built)."""
    return f"openai:{model}"


log = logging.getLogger("graphwiki.llm")

_FORMATS = ("json_schema", "json_object_schema", "json_object", "none")
_SCHEMA, _OBJECT_SCHEMA = 0, 1
_CONTEXT_MARGIN = 64  # the chat template's own tokens, beyond the estimate of the messages


class OpenAILLM(BaseLLM):
    offline = False

    def __init__(
        self,
        settings: LLMSettings,
        *,
        backoff_base: float = 0.5,
        backoff_max: float = 20.0,
        temperature: float | None = 0.0,
        client: Any = None,
    ) -> None:
        self.model = settings.model
        self.label = openai_label(settings.model)
        self.usage = Usage()
        self.max_retries = max(0, settings.max_retries)
        self.load_wait_s = settings.load_wait_s
        self.backoff_base = backoff_base
        self.backoff_max = backoff_max
        self.temperature = temperature
        self._format = _SCHEMA  # index into _FORMATS; moves on when the endpoint rejects one
        self._format_settled = False  # a call has succeeded in the current form
        self._trial = False  # the other schema form is being tried after a refusal of json_schema
        self._format_lock = threading.Lock()
        self._base_url = settings.base_url
        self._context: int | None = settings.context_tokens
        self._context_read = settings.context_tokens is not None
        self.__dict__["_call_sizes"] = CallSizes(
            max_items=settings.max_items_per_call,
            context=self.context_tokens,
            max_documents=settings.max_documents_per_call,
        )
        self.concurrency = max(1, settings.concurrency)
        self._slots = threading.BoundedSemaphore(self.concurrency)
        self.verdicts = settings.verdicts  # "scored": classification tasks read from token probabilities
        self._logprobs: bool | None = None  # whether the endpoint returns them; None: not asked yet
        self._priors: dict[str, dict[str, float]] = {}  # per scored task, the content-free lean
        self._prior_lock = threading.Lock()
        if client is None:
            from openai import OpenAI  # imported here: the offline path never needs it

            client = OpenAI(
                api_key=settings.api_key or "not-needed",  # local servers take any key
                base_url=settings.base_url,
                timeout=settings.timeout_s,
                max_retries=0,
            )
        self._client = client

    @property
    def response_form(self) -> str:
        """The form of schema-constrained output this client sends (see the module's docstring)."""
        return _FORMATS[self._format]

    def context_tokens(self) -> int | None:
        """The model's context window: the setting, else what a local server reports (read once)."""
        if not self._context_read:
            self._context = server_context(self._base_url)
            self._context_read = True
        return self._context

    def version_of(self, task: Task) -> str:
        """The prompt version this client answers ``task`` with (part of the cache key)."""
        scored = self._scored(task)
        return scored.version if scored else task.version

    # -- one validated response ----------------------------------------------------

    def _complete(self, task: Task, req: Any) -> Any:
        scored = self._scored(task)
        if scored is not None:
            answered = self._complete_scored(task, scored, req)
            if answered is not None:
                return answered
        messages = task.messages(req)
        need = self._reply_need(task, req, messages)
        content = self._chat(task, messages, need)
        resp, error = _parse(task, content)
        if resp is None:
            self.usage.add(task.name, retries=1)
            repair = f"That reply was not valid: {error}. Reply again with only a JSON object that matches the schema."
            messages = [
                *messages,
                {"role": "assistant", "content": content[:4000]},
                {"role": "user", "content": repair},
            ]
            resp, error = _parse(task, self._chat(task, messages, need))
        if resp is None:
            self.usage.add(task.name, failures=1)
            raise LLMBadOutput(f"{self.label} {task.name}: invalid output after a repair re-ask: {error}")
        return resp

    # -- scored verdicts (``llm.scored``) -------------------------------------------

    def _scored(self, task: Task) -> ScoredTask | None:
        if self.verdicts != "scored" or self._logprobs is False:
            return None
        return SCORED_TASKS.get(task.name)

    def _complete_scored(self, task: Task, scored: ScoredTask, req: Any) -> Any | None:
        """The task's response, each item asked on its own; None when the endpoint returns no
        token probabilities (the reasoned form answers instead, from now on)."""
        prior = self._prior(task, scored)
        if prior is None:
            return None
        answered = []
        for item in scored.items(req):
            found = self._label_scores(task, scored, scored.messages(item))
            if found is None:
                return None
            if found.mass > 0.0:  # an item no label answered is left out: validation re-asks, then defaults
                answered.append((item, found.calibrated(prior, scored.acting)))
        return scored.respond(answered)

    def _prior(self, task: Task, scored: ScoredTask) -> dict[str, float] | None:
        """The model's lean on content-free items, asked once per task; None: no logprobs."""
        with self._prior_lock:
            if task.name not in self._priors:
                answered = []
                for filler in CONTENT_FREE:
                    found = self._label_scores(task, scored, scored.messages(scored.content_free(filler)))
                    if found is None:
                        return None
                    if found.mass > 0.0:
                        answered.append(found)
                uniform = {label: 1.0 / len(scored.labels) for label in scored.labels}
                self._priors[task.name] = mean_scores(answered) if answered else uniform
                log.info("%s %s: content-free prior %s", self.label, task.name, self._priors[task.name])
            return self._priors[task.name]

    def _label_scores(self, task: Task, scored: ScoredTask, messages: Messages) -> LabelScores | None:
        """One one-token reply's label scores (mass 0: no label among its alternatives);
        None when the endpoint returned no token probabilities."""
        params = {
            "model": self.model,
            "messages": messages,
            "temperature": 0.0,
            "max_tokens": 1,
            "logprobs": True,
            "top_logprobs": TOP_LOGPROBS,
        }
        completion, seconds = self._send(task, lambda _form: params, forms=False)
        usage = getattr(completion, "usage", None)
        prompt = getattr(usage, "prompt_tokens", None) or estimate_prompt_tokens(messages)
        self.usage.add(task.name, calls=1, prompt_tokens=prompt, completion_tokens=1)
        log.info("%s %s (scored): %d prompt tokens in %.1fs", self.label, task.name, prompt, seconds)
        choice = completion.choices[0] if getattr(completion, "choices", None) else None
        content = getattr(getattr(choice, "logprobs", None), "content", None)
        top = getattr(content[0], "top_logprobs", None) if content else None
        if not top:
            if self._logprobs is None:
                log.warning("%s returns no token probabilities: verdicts are asked with reasons instead", self.label)
            self._logprobs = False
            return None
        self._logprobs = True
        found = label_scores([(t.token, t.logprob) for t in top], scored.labels)
        return found or LabelScores(probabilities=dict.fromkeys(scored.labels, 0.0), mass=0.0)

    def _reply_need(self, task: Task, req: Any, messages: Messages) -> int | None:
        """The most tokens this call's reply may take, where the context window is known; a call
        whose prompt and reply would not fit the window is refused before it is sent."""
        context = self.context_tokens()
        if context is None:
            return None
        prompt = estimate_prompt_tokens(messages)
        need = task.reply_base + task.reply_per_item * task.items(req)
        if prompt + need + _CONTEXT_MARGIN > context:
            self.usage.add(task.name, failures=1)
            raise LLMCallTooLarge(
                f"{self.label} {task.name}: about {prompt} prompt tokens and a reply of up to {need} do not fit "
                f"the model's context of {context} tokens"
            )
        return need

    def _max_tokens(self, need: int | None, messages: Messages) -> int | None:
        context = self.context_tokens()
        if need is None or context is None:
            return None
        return max(1, min(need, context - estimate_prompt_tokens(messages) - _CONTEXT_MARGIN))

    # -- transport -----------------------------------------------------------------

    def _chat(self, task: Task, messages: Messages, need: int | None = None) -> str:
        completion, seconds = self._send(
            task, lambda fmt: self._params(task, messages, fmt, self._max_tokens(need, messages))
        )
        return self._record(task, completion, messages, seconds)

    def _send(self, task: Task, params_for: Callable[[str], dict[str, Any]], forms: bool = True) -> tuple[Any, float]:
        """One completion and its seconds, retried as the module says. ``params_for(form)``
        builds the request for a response form; with ``forms`` off (a reply with no schema)
        a refusal never moves the form."""
        import openai

        last_error: Exception | None = None
        refused: Exception | None = None  # what json_schema answered before the other form was tried
        load = LoadWait(self.load_wait_s)
        attempt = 0
        while True:
            used = self._format
            try:
                with self._slots:
                    started = time.monotonic()
                    completion = self._client.chat.completions.create(**params_for(_FORMATS[used]))
            except (openai.APITimeoutError, openai.APIConnectionError) as e:
                last_error, delay = e, None
            except openai.APIStatusError as e:
                if load.wait(e):  # a restarted server loading its model: waited out, not counted,
                    continue  # and no verdict on the request or its response form
                step = self._step_format(e, used) if forms else ""
                if step == "other form":  # not a retry: the endpoint cannot do this form
                    continue
                if step == "trial":  # the other form is tried in place of a retry of this one
                    refused = e
                    self.usage.add(task.name, retries=1)
                    attempt += 1
                    continue
                if step == "reverted":  # json_schema again, as a retry of its own refusal
                    last_error, delay = refused or e, None
                elif not retryable(e.status_code):
                    self.usage.add(task.name, failures=1)
                    raise LLMUnavailable(f"{self.label}: HTTP {e.status_code}: {_short(e)}") from e
                else:
                    last_error, delay = e, retry_after(e)
            else:
                if forms:
                    with self._format_lock:
                        if used == self._format:
                            self._format_settled, self._trial = True, False
                return completion, time.monotonic() - started
            if attempt >= self.max_retries:
                self.usage.add(task.name, failures=1)
                raise LLMUnavailable(
                    f"{self.label} {task.name}: gave up after {attempt + 1} attempts: {_short(last_error)}"
                    f"{load.gave_up()}"
                ) from last_error
            self.usage.add(task.name, retries=1)
            time.sleep(backoff(attempt, delay, self.backoff_base, self.backoff_max))
            attempt += 1

    def _step_format(self, e: Any, used: int) -> str:
        """How a refusal moves the response form: "other form" (the endpoint cannot do this
        one), "trial" (the other schema form, once, before any success), "reverted" (the trial
        failed too: the first refusal was the request's, not the form's), or ""."""
        with self._format_lock:
            if self._format != used:
                return "other form"  # a concurrent call has moved it already
            if self._trial and used == _OBJECT_SCHEMA:
                self._format, self._trial, self._format_settled = _SCHEMA, False, True
                return "reverted"
            if e.status_code == 400 and _about_format(e) and used < len(_FORMATS) - 1:
                self._format += 1
                self._format_settled = False
                return "other form"
            if used == _SCHEMA and not self._format_settled and (e.status_code in (400, 422) or e.status_code >= 500):
                self._format, self._trial = _OBJECT_SCHEMA, True
                return "trial"
            return ""

    def _params(self, task: Task, messages: Messages, fmt: str, max_tokens: int | None) -> dict[str, Any]:
        params: dict[str, Any] = {"model": self.model, "messages": messages}
        if self.temperature is not None:
            params["temperature"] = self.temperature
        if max_tokens is not None:
            params["max_tokens"] = max_tokens
        if fmt == "json_schema":
            params["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": task.name, "schema": task.schema, "strict": True},
            }
        elif fmt == "json_object_schema":
            params["response_format"] = {"type": "json_object", "schema": task.schema}
        else:
            # without schema enforcement the model must read the schema
            schema = json.dumps(task.schema, separators=(",", ":"))
            system = dict(messages[0], content=f"{messages[0]['content']}\n\nJSON schema of the reply: {schema}")
            params["messages"] = [system, *messages[1:]]
            if fmt == "json_object":
                params["response_format"] = {"type": "json_object"}
        return params

    def _record(self, task: Task, completion: Any, messages: Messages, seconds: float) -> str:
        choice = completion.choices[0] if getattr(completion, "choices", None) else None
        content = (choice.message.content if choice is not None else None) or ""
        usage = getattr(completion, "usage", None)
        prompt = getattr(usage, "prompt_tokens", None) or estimate_prompt_tokens(messages)
        done = getattr(usage, "completion_tokens", None) or estimate_tokens(content)
        self.usage.add(task.name, calls=1, prompt_tokens=prompt, completion_tokens=done)
        log.info(
            "%s %s: %d prompt + %d output tokens in %.1fs (%.1f tokens/s)",
            self.label,
            task.name,
            prompt,
            done,
            seconds,
            (prompt + done) / seconds if seconds > 0 else 0.0,
        )
        if choice is not None and getattr(choice, "finish_reason", None) == "length":
            self.usage.add(task.name, failures=1)
            raise LLMOutputTruncated(
                f"{self.label} {task.name}: the reply stopped at the model's output limit after {done} tokens"
            )
        return content


def _parse(task: Task, content: str) -> tuple[Any, str | None]:
    """(validated response, None), or (None, what is wrong with the reply)."""
    text = content.strip()
    fenced = re.match(r"^```(?:json)?\s*(.*?)\s*```$", text, re.DOTALL)
    if fenced:
        text = fenced.group(1)
    if not text:
        return None, "the reply was empty"
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        return None, f"not valid JSON ({e.msg} at line {e.lineno} column {e.colno})"
    try:
        resp = task.response.model_validate(data)
    except ValidationError as e:
        errors = "; ".join(f"{'.'.join(map(str, err['loc']))}: {err['msg']}" for err in e.errors()[:5])
        return None, f"does not match the schema ({errors})"
    problem = task.check(resp)
    return (None, problem) if problem else (resp, None)


def _about_format(e: Exception) -> bool:
    return bool(re.search(r"response_format|json_schema|json_object|structured|schema", _short(e), re.IGNORECASE))


def _short(e: Exception | None) -> str:
    return re.sub(r"\s+", " ", str(e))[:300] if e else ""
