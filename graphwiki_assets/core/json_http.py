"""The JSON request handler shared by the OpenAI-protocol stand-ins (``llm/rules_server.py``,
``evals/sleeping_endpoints.py``): quiet, a JSON body in, a JSON reply out."""

from __future__ import annotations

import json
from http.server import BaseHTTPRequestHandler
from typing import Any


class JsonHandler(BaseHTTPRequestHandler):
    def log_message(self, *args: object) -> None:  # quiet: the server's counters report
        pass

    def read_json(self) -> dict[str, Any]:
        return json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")

    def send_json(self, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode()
        try:
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True  # the client went away (it was killed, or timed out): nothing to tell it
