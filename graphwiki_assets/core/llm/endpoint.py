"""What a local OpenAI-compatible server says about itself, read over plain HTTP.

llama.cpp's ``llama-server`` reports its context window per call at ``/props``; other
servers do not, and then the window comes from the settings (GRAPHWIKI_LLM_CONTEXT).
Only loopback endpoints are asked: a remote API is not probed on every client build.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any
from urllib.parse import urlsplit

LOOPBACK = {"127.0.0.1", "localhost", "::1"}


def get_json(url: str, timeout_s: float = 2.0) -> dict[str, Any] | None:
    """The JSON object a local endpoint answers with, or None while it cannot answer."""
    try:
        with urllib.request.urlopen(url, timeout=timeout_s) as response:
            data = json.loads(response.read() or b"{}")
    except (urllib.error.URLError, OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def is_loopback(base_url: str | None) -> bool:
    return bool(base_url) and urlsplit(str(base_url)).hostname in LOOPBACK


def server_context(base_url: str | None) -> int | None:
    """The context window, in tokens, that a loopback llama.cpp server gives one call, or None."""
    if not base_url or not is_loopback(base_url):
        return None
    root = base_url.rstrip("/").removesuffix("/v1")
    props = get_json(root + "/props")
    if not props:
        return None
    n_ctx = (props.get("default_generation_settings") or {}).get("n_ctx") or props.get("n_ctx")
    return n_ctx if isinstance(n_ctx, int) and n_ctx > 0 else None
