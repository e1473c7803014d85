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

import httpx

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
    from hypothesis import HealthCheck, Phase, given, settings
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
            run = settings(
                max_examples=examples,
                deadline=None,
                database=None,
                derandomize=True,  # the same requests each run: a regression check, not a lottery
                phases=[Phase.explicit, Phase.generate],
                suppress_health_check=list(HealthCheck),
            )(given(case=operation.as_strategy(generation_mode=mode))(send))
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
