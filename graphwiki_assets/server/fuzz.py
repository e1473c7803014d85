"""The HTTP API fuzzed from its own OpenAPI document (``graphwiki bench fuzz``).

Schemathesis turns every operation's schema into Hypothesis strategies: requests that fit
the schema (positive) and requests that break it on purpose (negative: wrong types, values
out of range, missing fields). Each one goes to a running server over HTTP as a client
would send it. What the server may answer: any status but a 5xx, within the timeout, and
every refusal a JSON body with its reason. The command prints the counts as JSON; the
test suite runs a shortened form of it.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

import anyio
import httpx
from mcp.shared.exceptions import MCPError

SERVER_ERRORS_KEPT = 20  # examples of each failure kind kept for the report


@dataclass
class FuzzResult:
    url: str
    operations: int
    examples_per_mode: int
    requests: int = 0
    by_status: dict[str, int] = field(default_factory=dict)
    server_errors: list[dict] = field(default_factory=list)  # 5xx: must stay empty
    hung: list[dict] = field(default_factory=list)  # no answer within the timeout: must stay empty
    refusals_without_reason: list[dict] = field(default_factory=list)  # a 4xx with no JSON detail
    invalid_operations: list[str] = field(default_factory=list)  # schema parts the fuzzer cannot read
    slowest_refusal_ms: float = 0.0
    seconds: float = 0.0

    @property
    def clean(self) -> bool:
        return not (self.server_errors or self.hung or self.refusals_without_reason or self.invalid_operations)

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "clean": self.clean}


def fuzz_http(url: str, examples: int = 100, token: str | None = None, timeout_s: float = 30.0) -> FuzzResult:
    """Every operation of the server at ``url``, ``examples`` positive and as many negative
    requests each (fewer where the schema allows fewer distinct ones)."""
    import schemathesis
    from hypothesis import Phase, given
    from hypothesis.errors import Unsatisfiable
    from schemathesis import GenerationMode
    from schemathesis.core.result import Err, Ok

    headers = {"Authorization": f"Bearer {token}"} if token else {}
    document = httpx.get(f"{url}/openapi.json", headers=headers, timeout=timeout_s).raise_for_status().json()
    schema = schemathesis.openapi.from_dict(document)
    loaded = list(schema.get_all_operations())
    operations = [r.ok() for r in loaded if isinstance(r, Ok)]
    result = FuzzResult(url=url, operations=len(operations), examples_per_mode=examples)
    result.invalid_operations = [str(r.err()) for r in loaded if isinstance(r, Err)]
    statuses: Counter[str] = Counter()
    started = time.monotonic()

    def send(case: Any) -> None:
        label = f"{case.method} {case.formatted_path}"
        sent = time.monotonic()
        try:
            response = case.call(base_url=url, headers=headers, timeout=timeout_s)
        except Exception as exc:  # requests' timeouts and dropped connections alike
            result.hung.append({"request": label, "error": type(exc).__name__})
            return
        ms = (time.monotonic() - sent) * 1000
        result.requests += 1
        statuses[str(response.status_code)] += 1
        if response.status_code >= 500 and len(result.server_errors) < SERVER_ERRORS_KEPT:
            result.server_errors.append({"request": label, "status": response.status_code, "body": response.text[:300]})
        elif 400 <= response.status_code < 500:
            result.slowest_refusal_ms = max(result.slowest_refusal_ms, round(ms, 1))
            if not _has_reason(response) and len(result.refusals_without_reason) < SERVER_ERRORS_KEPT:
                result.refusals_without_reason.append({"request": label, "status": response.status_code})

    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            run = _derandomised(examples, Phase.explicit)(given(case=operation.as_strategy(generation_mode=mode))(send))
            try:
                run()
            except Unsatisfiable:  # nothing to break in an operation without parameters
                continue
    result.by_status = dict(sorted(statuses.items()))
    result.seconds = round(time.monotonic() - started, 2)
    return result


def _has_reason(response: Any) -> bool:
    try:
        detail = response.json().get("detail")
    except (ValueError, AttributeError):
        return False
    return bool(detail)


@dataclass
class McpFuzzResult:
    url: str
    tools: int
    calls: int = 0
    answered: int = 0
    tool_errors: int = 0  # refused by the tool, with its reason
    protocol_errors: int = 0  # refused by the protocol layer (invalid params), with its reason
    without_reason: list[dict] = field(default_factory=list)
    hung: list[dict] = field(default_factory=list)
    broken: list[dict] = field(default_factory=list)  # the session itself failed: must stay empty
    seconds: float = 0.0

    @property
    def clean(self) -> bool:
        return not (self.without_reason or self.hung or self.broken)

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "clean": self.clean}


def mcp_arguments(schema: dict) -> Any:
    """Hypothesis strategy of argument objects for a tool's input schema: each parameter
    given or not, as a value of its type or as any JSON value at all, plus a stray key."""
    from hypothesis import strategies as st

    anything = st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=40),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
        max_leaves=6,
    )
    typed = {
        "string": st.text(max_size=200) | st.just("x" * 5000) | st.just("../../etc/passwd.md"),
        "integer": st.integers(min_value=-(2**40), max_value=2**40),
        "boolean": st.booleans(),
        "number": st.floats(allow_nan=False),
    }
    optional = {}
    for name, spec in (schema.get("properties") or {}).items():
        kinds = [k.get("type") for k in spec.get("anyOf", [spec])]
        own = [typed[k] for k in kinds if k in typed]
        optional[name] = st.one_of(*own, anything) if own else anything
    optional["unexpected"] = anything
    return st.fixed_dictionaries({}, optional=optional)


async def fuzz_mcp(url: str, examples: int = 100, token: str | None = None, timeout_s: float = 30.0) -> McpFuzzResult:
    """Every tool of the MCP endpoint at ``url`` (…/mcp) called ``examples`` times with
    generated arguments, well-formed or not, in one session."""
    import httpx2
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    headers = {"Authorization": f"Bearer {token}"} if token else {}
    started = time.monotonic()
    async with (
        httpx2.AsyncClient(headers=headers, timeout=timeout_s) as http,
        streamable_http_client(url, http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        tools = (await session.list_tools()).tools
        result = McpFuzzResult(url=url, tools=len(tools))
        for tool in tools:
            drawn = _examples(mcp_arguments(tool.input_schema), examples)
            for arguments in drawn:
                await _call(session, tool.name, arguments, result, timeout_s)
    result.seconds = round(time.monotonic() - started, 2)
    return result


def _derandomised(n: int, *phases: Any) -> Any:
    """Hypothesis settings for up to ``n`` examples, the same ones each run (a regression
    check, not a lottery), with no deadline, no example database and no health checks."""
    from hypothesis import HealthCheck, Phase, settings

    return settings(
        max_examples=n,
        deadline=None,
        database=None,
        derandomize=True,
        phases=[*phases, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )


def _examples(strategy: Any, n: int) -> list[Any]:
    """Up to ``n`` values of a strategy, the same ones each run."""
    from hypothesis import given

    drawn: list[Any] = []

    @_derandomised(n)
    @given(value=strategy)
    def keep(value: Any) -> None:
        drawn.append(value)

    keep()
    return drawn


async def _call(session: Any, name: str, arguments: dict, result: McpFuzzResult, timeout_s: float) -> None:
    label = {"tool": name, "arguments": str(arguments)[:200]}
    result.calls += 1
    try:
        with anyio.fail_after(timeout_s):
            reply = await session.call_tool(name, arguments)
    except TimeoutError:
        result.hung.append(label)
        return
    except MCPError as exc:
        if str(exc).strip():
            result.protocol_errors += 1
        else:
            result.without_reason.append(label)
        return
    except Exception as exc:  # the session broke: the server dropped it
        result.broken.append({**label, "error": f"{type(exc).__name__}: {exc}"[:300]})
        return
    if not reply.is_error:
        result.answered += 1
    elif any(block.type == "text" and block.text.strip() for block in reply.content):
        result.tool_errors += 1
    else:
        result.without_reason.append(label)
