"""A disk cache of request -> response in front of any backend.

The key is a hash of the task, the prompt version the backend answers it with (scored
verdicts have their own, ``llm.scored``), the backend label (which names the
model or the rules version) and the request JSON, so a changed prompt, model or rule
set never reuses an old answer. A hit costs no call and is counted as a cache hit.
Responses that had to be defaulted (a verdict the backend never gave) are not stored,
so a later run asks again.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from graphwiki_assets.core.llm.base import BaseLLM, Task
from graphwiki_assets.core.llm.halving import CallSizes


def cache_key(task: Task, label: str, req: Any, version: str | None = None) -> str:
    material = {
        "task": task.name,
        "prompt_version": version or task.version,
        "backend": label,
        "request": req.model_dump(mode="json"),
    }
    return hashlib.sha256(json.dumps(material, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


class CachedLLM(BaseLLM):
    def __init__(self, inner: BaseLLM, cache_dir: Path) -> None:
        self.inner = inner
        self.label = inner.label
        self.offline = inner.offline
        self.usage = inner.usage
        self.concurrency = inner.concurrency
        self.cache_dir = Path(cache_dir)

    @property
    def call_sizes(self) -> CallSizes:
        return self.inner.call_sizes  # what the model's output limit allows is the model's

    def path_for(self, task: Task, req: Any) -> Path:
        key = cache_key(task, self.label, req, self.inner.version_of(task))
        return self.cache_dir / task.name / key[:2] / f"{key}.json"

    def _run(self, task: Task, req: Any) -> Any:
        if not isinstance(req, task.request):
            raise TypeError(f"{task.name} takes a {task.request.__name__}, not {type(req).__name__}")
        path = self.path_for(task, req)
        hit = self._load(task, path)
        if hit is not None:
            self.usage.add(task.name, cache_hits=1)
            return hit
        resp = self.inner._run(task, req)
        if not getattr(resp, "defaulted", 0):
            self._store(path, task, resp)
        return resp

    def _load(self, task: Task, path: Path) -> Any | None:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return task.response.model_validate(data["response"])
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, TypeError, ValidationError):
            return None  # unreadable or from an older format: ask again and overwrite

    def _store(self, path: Path, task: Task, resp: Any) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        record = {
            "task": task.name,
            "prompt_version": self.inner.version_of(task),
            "backend": self.label,
            "response": resp.model_dump(mode="json"),
        }
        # write-then-rename: a reader never sees half a file, concurrent writers agree
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(record, f, ensure_ascii=False)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
