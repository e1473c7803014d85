"""Run llama.cpp's ``llama-server`` as a background process on 127.0.0.1.

Layout under ``LocalLLMSettings.home`` (``$GRAPHWIKI_HOME/llm``)::

    llama-server.log   llama-server.pid

The server speaks the OpenAI chat-completions protocol (``/v1``); ``--jinja`` applies the
model's own chat template, which schema-constrained output needs. One slot (``--parallel
1``) gives a call the whole context window: on a CPU, calls side by side are no faster.
"""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from graphwiki_assets.core.llm.endpoint import get_json, server_context
from graphwiki_assets.core.llm_server.models import ensure_model, local_model
from graphwiki_assets.core.llm_server.runtime import ensure_runtime
from graphwiki_assets.core.processes import live_pid, stop_group, stoppable, wait_until
from graphwiki_assets.core.settings import LocalLLMSettings, user_cache_dir


class LocalServerError(RuntimeError):
    pass


@dataclass
class LocalServerStatus:
    running: bool
    pid: int | None
    base_url: str
    model: str
    home: str
    context_tokens: int | None = None  # what the server reports (/props)
    model_file: str | None = None
    seconds: float | None = None

    def describe(self) -> str:
        if not self.running:
            return f"not running (home {self.home})"
        return (
            f"llama-server running on {self.base_url} (pid {self.pid}), model {self.model}"
            f", context {self.context_tokens} tokens, home {self.home}"
        )

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


class LocalLLMServer:
    def __init__(self, settings: LocalLLMSettings, cache_root: Path | None = None, log: Callable[[str], None] = print):
        self.settings = settings
        self.home = Path(settings.home)
        self.cache_root = cache_root or user_cache_dir()
        self._log = log

    @property
    def pid_file(self) -> Path:
        return self.home / "llama-server.pid"

    @property
    def log_file(self) -> Path:
        return self.home / "llama-server.log"

    @property
    def root_url(self) -> str:
        return f"http://127.0.0.1:{self.settings.port}"

    def _log_tail(self, lines: int = 25) -> str:
        if not self.log_file.exists():
            return "(no log written)"
        return "\n".join(self.log_file.read_text(errors="replace").splitlines()[-lines:])

    def pid(self) -> int | None:
        return live_pid(self.pid_file)

    def _port_taken(self) -> bool:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.settimeout(0.5)
            return sock.connect_ex(("127.0.0.1", self.settings.port)) == 0

    def _ready(self) -> bool:
        health = get_json(self.root_url + "/health")
        return bool(health and health.get("status") == "ok" and get_json(self.root_url + "/v1/models"))

    def status(self) -> LocalServerStatus:
        pid = self.pid()
        running = pid is not None and self._ready()
        models = (get_json(self.root_url + "/v1/models") or {}).get("data") or [{}] if running else [{}]
        return LocalServerStatus(
            running=running,
            pid=pid,
            base_url=self.settings.base_url,
            model=str(models[0].get("id") or self.settings.alias),
            home=str(self.home),
            context_tokens=server_context(self.settings.base_url) if running else None,
            model_file=self._model_file_if_known(),
        )

    def _model_file_if_known(self) -> str | None:
        if self.settings.model_path:
            return str(self.settings.model_path)
        path = self.settings.models_dir / local_model(self.settings.model).file_name
        return str(path) if path.exists() else None

    def model_file(self) -> Path:
        """The GGUF file to serve: GRAPHWIKI_LLM_MODEL_PATH, else the pinned model, fetched once."""
        if self.settings.model_path:
            if not self.settings.model_path.is_file():
                raise LocalServerError(f"GRAPHWIKI_LLM_MODEL_PATH {self.settings.model_path} is not a file")
            return self.settings.model_path
        return ensure_model(local_model(self.settings.model), self.settings.models_dir, log=self._log)

    def prepare(self) -> tuple[Path, Path]:
        """(runtime binary, model file), each fetched or built once and then taken from the cache."""
        model = self.model_file()
        return ensure_runtime(self.cache_root, log=self._log), model

    def command(self, binary: Path, model: Path) -> list[str]:
        s = self.settings
        return [
            str(binary),
            *("--model", str(model), "--alias", s.alias),
            *("--host", "127.0.0.1", "--port", str(s.port)),
            *("--ctx-size", str(s.context_tokens), "--threads", str(s.threads), "--parallel", "1"),
            "--jinja",
        ]

    def start(self, timeout_s: float = 300.0) -> LocalServerStatus:
        started = time.monotonic()
        if self.pid() is not None:
            if self._wait_ready(timeout_s):
                return self._timed(started)
            raise LocalServerError(
                f"llama-server (pid {self.pid()}) is running but does not answer.\n{self._log_tail()}"
            )
        if self._port_taken():
            raise LocalServerError(
                f"port {self.settings.port} on 127.0.0.1 is already taken by another process; "
                "stop it or choose another port with GRAPHWIKI_LLM_PORT."
            )
        binary, model = self.prepare()
        self.home.mkdir(parents=True, exist_ok=True)
        with open(self.log_file, "ab") as log:
            proc = subprocess.Popen(
                self.command(binary, model),
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
                cwd=self.home,
                preexec_fn=stoppable,
            )
        self.pid_file.write_text(str(proc.pid))
        self._log(f"llama-server starting (pid {proc.pid}) on {self.settings.base_url} with {model.name}")
        if not self._wait_ready(timeout_s, proc):
            code = proc.poll()
            if code is None:
                self.stop()
            raise LocalServerError(
                f"llama-server did not answer within {timeout_s:.0f}s"
                + (f" (exited with code {code})" if code is not None else "")
                + f"; log {self.log_file}:\n{self._log_tail()}"
            )
        return self._timed(started)

    def _timed(self, started: float) -> LocalServerStatus:
        status = self.status()
        status.seconds = round(time.monotonic() - started, 2)
        return status

    def _wait_ready(self, timeout_s: float, proc: subprocess.Popen | None = None) -> bool:
        return wait_until(self._ready, timeout_s, proc)

    def stop(self, timeout_s: float = 30.0) -> LocalServerStatus:
        stop_group(self.pid_file, timeout_s)
        return self.status()
