"""A real uvicorn server on a free port in a thread, for tests that speak HTTP to the API."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn

from graphwiki_assets.core.evals.instance import free_port


@contextmanager
def serving(app, start_timeout: float = 30.0, log_level: str = "warning") -> Iterator[str]:
    """The app served on 127.0.0.1; yields its base URL and stops it (lifespan included)."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level=log_level))
    thread = threading.Thread(target=server.run, name="test-uvicorn", daemon=True)
    thread.start()
    deadline = time.monotonic() + start_timeout
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError(f"uvicorn did not start on port {port}")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(60)
