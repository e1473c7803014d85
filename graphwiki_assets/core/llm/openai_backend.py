"""The OpenAI-compatible backend: any endpoint that speaks chat completions (OpenAI,
Ollama, vLLM, llama.cpp server).

Transport: at most ``settings.concurrency`` requests are in flight at once per backend,
whatever number of threads call it (a retry waiting out its backoff holds no slot).
The SDK's own retries are off so every attempt is counted here; 429, 408,
409, 5xx, timeouts and connection errors are retried with exponential backoff and
jitter (a server's Retry-After is honoured up to ``backoff_max``), then the call fails
with ``LLMUnavailable``. Other 4xx fail at once, except that an endpoint rejecting
JSON-schema output is asked again with plain JSON mode, then with no response format.
Output: the reply must parse as JSON and validate against the task's response model;
if not, the model is shown the error and asked once more, then ``LLMBadOutput``. A reply
cut off at the model's output limit is not re-asked: ``LLMOutputTruncated`` tells the
caller to ask for fewer answers at a time.
"""

from __future__ import annotations

import json
import random
import re
import threading
import time
from typing import Any

from pydantic import ValidationError

from graphwiki_assets.core.llm.base import BaseLLM, Task, Usage
from graphwiki_assets.core.llm.errors import LLMBadOutput, LLMOutputTruncated, LLMUnavailable
from graphwiki_assets.core.llm.prompts import Messages, estimate_prompt_tokens, estimate_tokens
from graphwiki_assets.core.settings import LLMSettings


def openai_label(model: str) -> str:
    """What every response of this backend is labelled with (also known before it is built)."""
    return f"openai:{model}"


_RETRY_STATUS = {408, 409, 429}
_FORMATS = ("json_schema", "json_object", "none")


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
        self.backoff_base = backoff_base
        self.backoff_max = backoff_max
        self.temperature = temperature
        self._format = 0  # index into _FORMATS; moves on when the endpoint rejects one
        self.concurrency = max(1, settings.concurrency)
        self._slots = threading.BoundedSemaphore(self.concurrency)
        if client is None:
            from openai import OpenAI  # imported here: the offline path never needs it

            client = OpenAI(
                api_key=settings.api_key or "not-needed",  # local servers take any key
                base_url=settings.base_url,
                timeout=settings.timeout_s,
                max_retries=0,
            )
        self._client = client

    # -- one validated response ----------------------------------------------------

    def _complete(self, task: Task, req: Any) -> Any:
        messages = task.messages(req)
        content = self._chat(task, messages)
        resp, error = _parse(task, content)
        if resp is None:
            self.usage.add(task.name, retries=1)
            repair = f"That reply was not valid: {error}. Reply again with only a JSON object that matches the schema."
            messages = [
                *messages,
                {"role": "assistant", "content": content[:4000]},
                {"role": "user", "content": repair},
            ]
            resp, error = _parse(task, self._chat(task, messages))
        if resp is None:
            self.usage.add(task.name, failures=1)
            raise LLMBadOutput(f"{self.label} {task.name}: invalid output after a repair re-ask: {error}")
        return resp

    # -- transport -----------------------------------------------------------------

    def _chat(self, task: Task, messages: Messages) -> str:
        import openai

        last_error: Exception | None = None
        attempt = 0
        while True:
            fmt = _FORMATS[self._format]
            try:
                with self._slots:
                    completion = self._client.chat.completions.create(**self._params(task, messages, fmt))
            except (openai.APITimeoutError, openai.APIConnectionError) as e:
                last_error, delay = e, None
            except openai.APIStatusError as e:
                if e.status_code == 400 and self._format < len(_FORMATS) - 1 and _about_format(e):
                    self._format += 1  # not a retry: the endpoint cannot do this format
                    continue
                if e.status_code not in _RETRY_STATUS and e.status_code < 500:
                    self.usage.add(task.name, failures=1)
                    raise LLMUnavailable(f"{self.label}: HTTP {e.status_code}: {_short(e)}") from e
                last_error, delay = e, _retry_after(e)
            else:
                return self._record(task, completion, messages)
            if attempt >= self.max_retries:
                self.usage.add(task.name, failures=1)
                raise LLMUnavailable(
                    f"{self.label} {task.name}: gave up after {attempt + 1} attempts: {_short(last_error)}"
                ) from last_error
            self.usage.add(task.name, retries=1)
            time.sleep(self._backoff(attempt, delay))
            attempt += 1

    def _params(self, task: Task, messages: Messages, fmt: str) -> dict[str, Any]:
        params: dict[str, Any] = {"model": self.model, "messages": messages}
        if self.temperature is not None:
            params["temperature"] = self.temperature
        if fmt == "json_schema":
            params["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": task.name, "schema": task.schema, "strict": True},
            }
        else:
            # without schema enforcement the model must read the schema
            schema = json.dumps(task.schema, separators=(",", ":"))
            system = dict(messages[0], content=f"{messages[0]['content']}\n\nJSON schema of the reply: {schema}")
            params["messages"] = [system, *messages[1:]]
            if fmt == "json_object":
                params["response_format"] = {"type": "json_object"}
        return params

    def _record(self, task: Task, completion: Any, messages: Messages) -> str:
        choice = completion.choices[0] if getattr(completion, "choices", None) else None
        content = (choice.message.content if choice is not None else None) or ""
        usage = getattr(completion, "usage", None)
        prompt = getattr(usage, "prompt_tokens", None) or estimate_prompt_tokens(messages)
        done = getattr(usage, "completion_tokens", None) or estimate_tokens(content)
        self.usage.add(task.name, calls=1, prompt_tokens=prompt, completion_tokens=done)
        if choice is not None and getattr(choice, "finish_reason", None) == "length":
            self.usage.add(task.name, failures=1)
            raise LLMOutputTruncated(
                f"{self.label} {task.name}: the reply stopped at the model's output limit after {done} tokens"
            )
        return content

    def _backoff(self, attempt: int, retry_after: float | None) -> float:
        delay = self.backoff_base * (2**attempt) * (0.5 + random.random() / 2)
        if retry_after is not None:
            delay = max(delay, retry_after)
        return min(delay, self.backoff_max)


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


def _retry_after(e: Any) -> float | None:
    try:
        value = e.response.headers.get("retry-after")
        return float(value) if value is not None else None
    except (AttributeError, TypeError, ValueError):
        return None


def _short(e: Exception | None) -> str:
    return re.sub(r"\s+", " ", str(e))[:300] if e else ""
