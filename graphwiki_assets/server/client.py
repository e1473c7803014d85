"""Finding a running ``graphwiki serve`` for this GRAPHWIKI_HOME and asking it over HTTP.

The server leaves a discovery file in its home (``serve.json``: url, pid, start time; never
the token). A client trusts it only when that process is alive and ``/health`` answers
quickly, so a stale file from a killed server costs half a second at most. Only the
standard library is imported here: the CLI's path through a server must stay light (no
model, no driver), which is the point of asking a server.
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from graphwiki_assets.core.processes import pid_alive

DISCOVERY_FILE = "serve.json"
TOKEN_ENV = "GRAPHWIKI_SERVE_TOKEN"
PROBE_SECONDS = 0.5  # a server busy for longer than this is treated as absent
ASK_SECONDS = 600.0  # an answer from a slow LLM endpoint may take minutes


class ServerRefused(Exception):
    """The server answered with an error status; ``detail`` is its reason."""

    def __init__(self, status: int, detail: str):
        super().__init__(f"{status}: {detail}")
        self.status = status
        self.detail = detail


class ServerGone(Exception):
    """The server could not be reached (it stopped, or never answered in time)."""


def discovery_path(home: Path) -> Path:
    return Path(home) / DISCOVERY_FILE


def write_discovery(home: Path, url: str, pid: int | None = None) -> Path:
    path = discovery_path(home)
    path.parent.mkdir(parents=True, exist_ok=True)
    record = {"url": url, "pid": pid or os.getpid(), "started_at": datetime.now(UTC).isoformat(timespec="seconds")}
    temporary = path.with_suffix(".json.tmp")
    temporary.write_text(json.dumps(record), encoding="utf-8")
    temporary.replace(path)  # a reader never sees half a file
    return path


def remove_discovery(home: Path, pid: int | None = None) -> None:
    """Remove the discovery file if it is this process's (another server may have replaced it)."""
    record = read_discovery(home)
    if record is not None and record.get("pid") == (pid or os.getpid()):
        discovery_path(home).unlink(missing_ok=True)


def read_discovery(home: Path) -> dict | None:
    try:
        record = json.loads(discovery_path(home).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return record if isinstance(record, dict) and record.get("url") and record.get("pid") else None


def _alive(pid: Any) -> bool:
    return isinstance(pid, int) and pid > 0 and pid_alive(pid)


@dataclass(frozen=True)
class ServerClient:
    url: str
    token: str | None = None

    def request(
        self, method: str, path: str, body: Any = None, timeout: float = ASK_SECONDS, headers: dict | None = None
    ) -> Any:
        """The JSON a route returns; ServerRefused on an error status, ServerGone when unreachable."""
        data = None if body is None else json.dumps(body).encode("utf-8")
        sent = {"Accept": "application/json", **(headers or {})}
        if data is not None:
            sent["Content-Type"] = "application/json"
        if self.token:
            sent["Authorization"] = f"Bearer {self.token}"
        req = urllib.request.Request(self.url.rstrip("/") + path, data=data, method=method, headers=sent)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as reply:
                return json.loads(reply.read() or b"null")
        except urllib.error.HTTPError as exc:
            raise ServerRefused(exc.code, _detail(exc)) from None
        except (urllib.error.URLError, OSError) as exc:  # refused, reset, timed out
            raise ServerGone(f"{self.url}: {exc}") from None

    def health(self, timeout: float = PROBE_SECONDS) -> dict:
        return self.request("GET", "/health", timeout=timeout)

    def ask(self, request: dict, actor: str | None = None) -> dict:
        return self.request("POST", "/ask", request, headers={"X-Graphwiki-Actor": actor} if actor else None)


def _detail(exc: urllib.error.HTTPError) -> str:
    try:
        body = json.loads(exc.read() or b"{}")
    except ValueError:
        body = {}
    detail = body.get("detail") if isinstance(body, dict) else None
    return str(detail) if detail else exc.reason or "error"


def running_server(home: Path, token: str | None = None, timeout: float = PROBE_SECONDS) -> ServerClient | None:
    """A client of the server serving this home, when one is alive and healthy right now."""
    record = read_discovery(home)
    if record is None or not _alive(record.get("pid")):
        return None
    client = ServerClient(str(record["url"]), token)
    try:
        state = client.health(timeout)
    except (ServerRefused, ServerGone):
        return None
    return client if isinstance(state, dict) and state.get("ok") else None
