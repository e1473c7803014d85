"""The HTTP API fuzzed from its OpenAPI document and the MCP tools called with generated
arguments (a shortened `graphwiki bench fuzz`): no request, whether it fits the schema or
breaks it, gets a 5xx, hangs, breaks the session or is refused without a reason; a body over the bound is refused before it is read; with a token, a request
without it is refused on every route, MCP included."""

from __future__ import annotations

import http.client
import re

import anyio
import httpx

from graphwiki_assets.server.fuzz import fuzz_http, fuzz_mcp
from graphwiki_assets.server.http_app import MAX_BODY_BYTES, build_app
from graphwiki_assets.server.mcp_server import mount_mcp
from tests.support.serving import serving

TOKEN = "another-long-random-secret-for-the-test"


def test_generated_requests_get_no_server_error_and_no_hang(workspace, seed_graph):
    app = build_app(workspace, token=TOKEN)
    mount_mcp(app, workspace)
    with serving(app) as url:
        result = fuzz_http(url, examples=12, token=TOKEN, timeout_s=60)
        tools = anyio.run(fuzz_mcp, f"{url}/mcp", 10, TOKEN, 60.0)
    assert tools.clean, tools.as_dict()  # every malformed call a tool or protocol error with its reason
    assert tools.calls >= 60 and tools.tool_errors + tools.protocol_errors > 0 and tools.answered > 0
    assert result.requests >= 100 and result.operations >= 9
    assert result.clean, result.as_dict()  # no 5xx, no hang, no refusal without a reason, every operation read
    assert any(status.startswith("4") for status in result.by_status)  # the negative half was refused


def test_a_body_over_the_bound_is_refused_before_it_is_read(workspace, seed_graph):
    with serving(build_app(workspace)) as url:
        stated = _stating(url, MAX_BODY_BYTES + 1)  # nothing of it sent: the answer comes first
        # no Content-Length: the body streams in chunks until it passes the bound
        streamed = httpx.post(f"{url}/sources", content=_chunks(MAX_BODY_BYTES + 1), timeout=60)
    assert stated[0] == 413 and "larger than this server takes" in stated[1]
    assert streamed.status_code == 413 and "larger than this server takes" in streamed.json()["detail"]


def _stating(url: str, length: int) -> tuple[int, str]:
    """POST headers that state ``length`` bytes, and no body: (status, body) of the answer."""
    host, port = url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=10)
    connection.putrequest("POST", "/sources")
    connection.putheader("Content-Type", "application/json")
    connection.putheader("Content-Length", str(length))
    connection.endheaders()
    response = connection.getresponse()
    return response.status, response.read().decode()


def _chunks(total: int, size: int = 1 << 20):
    sent = 0
    while sent < total:
        chunk = b" " * min(size, total - sent)
        sent += len(chunk)
        yield chunk


def test_with_a_token_every_route_and_mcp_refuse_a_request_without_it(workspace, seed_graph):
    app = build_app(workspace, token=TOKEN)
    mount_mcp(app, workspace)
    with serving(app) as url:
        paths = httpx.get(f"{url}/openapi.json", headers={"Authorization": f"Bearer {TOKEN}"}).json()["paths"]
        for path, methods in paths.items():
            concrete = re.sub(r"\{[^}]+\}", "x", path)
            for method in methods:
                status = httpx.request(method.upper(), f"{url}{concrete}", timeout=10).status_code
                assert status == (200 if path == "/health" else 401), (method, path, status)
        mcp = httpx.post(f"{url}/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, timeout=10)
        assert mcp.status_code == 401
