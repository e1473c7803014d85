"""The HTTP API of ``graphwiki serve``: the service layer's operations as JSON routes.

Route functions are plain (sync) functions: FastAPI runs them on anyio's worker threads,
and the Neo4j driver and the embedder are safe to share between threads. A refusal keeps
its reason (400/422 bad request, 404 not found, 503 when Neo4j or the LLM endpoint cannot
be reached); anything else is a 500 with one line, the stack trace only in the log.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, AsyncExitStack, asynccontextmanager
from datetime import datetime
from typing import Annotated

import anyio.to_thread
from fastapi import APIRouter, FastAPI, Header, Path, Query, Request, Security
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.security import HTTPBearer

from graphwiki_assets.core.service import UNAVAILABLE, AddSource, AskRequest, BadRequest, NotFound, Workspace
from graphwiki_assets.core.service.jobs import JobQueue, JobView
from graphwiki_assets.core.service.requests import MAX_SOURCE_BYTES
from graphwiki_assets.core.service.workspace import JOB_STOP_SECONDS
from graphwiki_assets.server.middleware import BearerToken, BodyLimit, ErrorsAsJson

# Threads for route functions: anyio's default is 40, set here so the capacity is stated,
# not inherited: 8 concurrent askers use 8, the ingest worker has its own thread.
ROUTE_THREADS = 40
# The largest body a route needs: a source of MAX_SOURCE_BYTES as JSON, where an escape
# ("\\u00e9", 6 bytes) never takes more than three times the bytes of what it encodes.
MAX_BODY_BYTES = 3 * MAX_SOURCE_BYTES + 64 * 1024
MAX_ACTOR_CHARS = 64

Lifespan = Callable[[FastAPI], AbstractAsyncContextManager[None]]


def _actor(header: str | None) -> str:
    """Who asked, for the audit log: the client's own label, marked as coming over HTTP."""
    label = "".join(ch for ch in (header or "") if ch.isprintable()).strip()[:MAX_ACTOR_CHARS]
    return f"http:{label}" if label else "http"


Actor = Annotated[str | None, Header(alias="X-Graphwiki-Actor", description="who asks, for the audit log")]


def _routes(workspace: Workspace, jobs: JobQueue) -> APIRouter:
    router = APIRouter()

    @router.post("/ask", summary="answer a question from the graph, with citations, claim statuses and flags")
    def ask(request: AskRequest, actor: Actor = None) -> dict:
        return workspace.ask(request, actor=_actor(actor))

    @router.get("/concepts", summary="concepts by name, then by meaning")
    def search(q: Annotated[str, Query(min_length=1, max_length=500)], k: Annotated[int, Query(ge=1, le=100)] = 10):
        return workspace.search(q, k)

    @router.get("/concepts/{key:path}", summary="a concept's card by id, name or alias")
    def concept(key: Annotated[str, Path(description="the concept's id, name or an alias")]) -> dict:
        return workspace.concept(key)

    @router.get("/overview", summary="the graph's overview: size, communities, what needs review")
    def overview() -> dict:
        return workspace.overview()

    @router.get("/impact/{source_id:path}", summary="what depends on a source, and optionally flag it for review")
    def impact(source_id: str, depth: str = "1", flag: bool = False) -> dict:
        return workspace.impact(source_id, depth=depth, flag=flag)

    @router.get("/log", summary="the audit log, oldest first")
    def log(
        since: datetime | None = None,
        action: str | None = None,
        limit: Annotated[int, Query(ge=1, le=10_000)] = 100,
    ) -> list[dict]:
        return workspace.log(since=since, action=action, limit=limit)

    @router.post("/sources", status_code=202, summary="queue a source (given as text) for ingest")
    def add_source(request: AddSource, actor: Actor = None) -> JobView:
        return jobs.submit(request, actor=_actor(actor))

    @router.get("/jobs", summary="ingest jobs, oldest first")
    def list_jobs() -> list[JobView]:
        return jobs.views()

    @router.get("/jobs/{job_id}", summary="an ingest job: status, progress lines, its report")
    def job(job_id: str) -> JobView:
        return jobs.get(job_id)

    return router


def _health(workspace: Workspace) -> APIRouter:
    router = APIRouter()

    @router.get("/health", summary="graph reachable, LLM backend, models loaded (open without a token)")
    def health() -> JSONResponse:
        state = workspace.health()
        return JSONResponse(state, status_code=200 if state["ok"] else 503)

    return router


def _refusals(app: FastAPI) -> None:
    def reply(status: int) -> Callable[[Request, Exception], JSONResponse]:
        return lambda request, exc: JSONResponse({"detail": str(exc)}, status_code=status)

    app.add_exception_handler(BadRequest, reply(400))
    app.add_exception_handler(NotFound, reply(404))
    for unavailable in UNAVAILABLE:
        app.add_exception_handler(unavailable, reply(503))
    app.add_exception_handler(RequestValidationError, _invalid)


def _invalid(request: Request, exc: Exception) -> JSONResponse:
    """FastAPI's validation errors as one line, each field with its problem."""
    errors = exc.errors() if isinstance(exc, RequestValidationError) else []
    problems = "; ".join(
        f"{'.'.join(str(p) for p in e.get('loc', ()) if p != 'body') or 'request'}: {e.get('msg')}" for e in errors
    )
    return JSONResponse({"detail": problems or str(exc)}, status_code=422)


def build_app(
    workspace: Workspace,
    token: str | None = None,
    lifespans: list[Lifespan] | None = None,
) -> FastAPI:
    """The API over an open workspace (the caller closes it); ``lifespans`` run with the
    app's own. Further endpoints added later (``mount_mcp``) sit behind the same token: it
    is checked by middleware, not by a route dependency."""
    jobs = workspace.jobs

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        anyio.to_thread.current_default_thread_limiter().total_tokens = ROUTE_THREADS
        jobs.start()
        try:
            async with AsyncExitStack() as stack:
                for hook in lifespans or []:
                    await stack.enter_async_context(hook(app))
                yield
        finally:
            await anyio.to_thread.run_sync(jobs.stop, JOB_STOP_SECONDS)  # the rest resume at the next start

    secured = [Security(HTTPBearer(auto_error=False))] if token else []
    app = FastAPI(
        title="graphwiki",
        summary="a knowledge base in a Neo4j graph: questions with citations, concepts, sources, the audit log",
        lifespan=lifespan,
    )
    app.state.workspace, app.state.jobs = workspace, jobs
    app.include_router(_routes(workspace, jobs), dependencies=secured)
    app.include_router(_health(workspace))
    _refusals(app)
    # Starlette runs the last added first: errors, then the token, then the size bound.
    app.add_middleware(BodyLimit, max_bytes=MAX_BODY_BYTES)
    if token:
        app.add_middleware(BearerToken, token=token)
    app.add_middleware(ErrorsAsJson)  # outermost of ours: a crash in the token check is caught too
    return app
