"""The MCP server through the SDK's own client, over both transports: stdio (`graphwiki mcp`
started as a subprocess, as an MCP client starts it) and streamable HTTP (mounted at /mcp in
the HTTP API's app behind its token, served by uvicorn, as `graphwiki serve` does). One session each: the tools are listed
with their schemas, an answer keeps its citations, flags and each fact's status, a concept
comes with its claims' statuses, a source added through MCP is ingested and its concept
found, the resources read as markdown, and refused calls (a bad argument, an unknown concept,
a graph that cannot be reached) come back as errors that say why while the session goes on."""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path

import anyio
import httpx2
import pytest
import uvicorn
from fastapi import FastAPI
from mcp import Client, ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from graphwiki_assets.core.evals.instance import free_port
from graphwiki_assets.core.service import Workspace
from graphwiki_assets.core.store.driver import GraphStore
from graphwiki_assets.server.http_app import build_app
from graphwiki_assets.server.mcp_server import build_mcp, mount_mcp

REPO = Path(__file__).resolve().parents[2]
TOOLS = {"ask", "search_concepts", "get_concept", "overview", "impact", "audit_log", "add_source", "ingest_job"}
RAFT = "# Raft\n\nRaft is a consensus algorithm. etcd uses Raft."
SESSION_SECONDS = 60  # the session's calls, once the server answers
STARTUP_SECONDS = 120  # a hang guard: `graphwiki mcp` loads the embedding model before it answers


def text_of(result) -> str:
    return " ".join(block.text for block in result.content if block.type == "text")


async def tools_are_typed(session: ClientSession) -> None:
    tools = {tool.name: tool for tool in (await session.list_tools()).tools}
    assert set(tools) == TOOLS
    for tool in tools.values():
        assert tool.description and tool.output_schema and tool.output_schema["type"] == "object", tool.name
    assert tools["ask"].input_schema["required"] == ["question"]
    assert tools["search_concepts"].annotations.read_only_hint is True


async def answers_keep_citations_flags_and_statuses(session: ClientSession) -> None:
    result = await session.call_tool("ask", {"question": "What is Cypher?"})
    assert not result.is_error, text_of(result)
    answer = result.structured_content
    assert answer["shape"] == "what_is" and answer["found"] is True
    assert "src-cypher" in answer["citations"] and all("[source:" in s["text"] for s in answer["sentences"])
    assert any("cl-cypher-declarative is disputed" in flag for flag in answer["flags"])
    status = {fact["id"]: fact["status"] for fact in answer["facts"]}
    assert status["cl-cypher-declarative"] == status["cl-cql-imperative"] == "disputed"
    assert status["cl-cypher-gql"] == "current"
    # the text a model reads is the same result as data (JSON fields), not prose addressed to it
    assert json.loads(text_of(result)) == answer


async def a_concept_comes_with_its_claims_statuses(session: ClientSession) -> None:
    result = await session.call_tool("get_concept", {"key": "cypher query language"})
    assert not result.is_error, text_of(result)
    card = result.structured_content["concept"]
    assert card["id"] == "c-cypher"
    claims = {claim["id"]: claim for claim in card["claims"]}
    assert claims["cl-cypher-declarative"]["status"] == "disputed"
    assert claims["cl-cypher-declarative"]["contradicts"] == ["cl-cql-imperative"]
    assert claims["cl-cypher-gql"]["status"] == "current"
    assert any("disputed" in flag for flag in result.structured_content["flags"])


async def refusals_say_why_and_the_session_goes_on(session: ClientSession) -> None:
    bad_shape = await session.call_tool("ask", {"question": "What is Cypher?", "shape": "poem"})
    assert bad_shape.is_error and "unknown shape 'poem'" in text_of(bad_shape)
    missing = await session.call_tool("get_concept", {"key": "Memgraph"})
    assert missing.is_error and "not found" in text_of(missing) and "Memgraph" in text_of(missing)
    escape = await session.call_tool("add_source", {"name": "../outside.md", "text": RAFT})
    assert escape.is_error and "relative path inside the sources folder" in text_of(escape)
    with pytest.raises(MCPError, match="Memgraph"):
        await session.read_resource("graphwiki://concept/Memgraph")
    still = await session.call_tool("search_concepts", {"text": "pagerank", "k": 3})
    assert not still.is_error and still.structured_content["hits"][0]["id"] == "c-pagerank"


async def an_added_source_is_ingested_and_found(session: ClientSession) -> None:
    progress: list[str] = []

    async def on_progress(step: float, total: float | None, message: str | None) -> None:
        progress.append(message or "")

    result = await session.call_tool(
        "add_source", {"name": "notes/raft.md", "text": RAFT, "wait": True}, progress_callback=on_progress
    )
    assert not result.is_error, text_of(result)
    assert progress[0].startswith("written ") and progress[0].endswith("raft.md")
    job = result.structured_content
    assert job["status"] == "done" and job["progress"][0] == progress[0]
    report = job["report"]
    assert report["sources"]["new"] == 1 and report["sources"]["failed"] == 0 and report["claims"] >= 1
    hits = (await session.call_tool("search_concepts", {"text": "Raft"})).structured_content["hits"]
    assert hits[0]["name"] == "Raft" and hits[0]["matched"] == "name"
    raft = (await session.call_tool("get_concept", {"key": "raft"})).structured_content["concept"]
    assert raft["sources"][0]["path"].endswith("notes/raft.md")
    # without wait: a job at once, followed with ingest_job
    again = (await session.call_tool("add_source", {"name": "notes/raft.md", "text": RAFT})).structured_content
    assert again["status"] in ("queued", "running", "done") and again["id"]
    for _ in range(300):
        followed = (await session.call_tool("ingest_job", {"job_id": again["id"]})).structured_content
        if followed["status"] in ("done", "failed"):
            break
        await anyio.sleep(0.1)
    assert followed["status"] == "done" and followed["report"]["sources"]["unchanged"] == 1
    unknown = await session.call_tool("ingest_job", {"job_id": "0123"})
    assert unknown.is_error and "0123" in text_of(unknown)


async def the_resources_read_as_markdown(session: ClientSession) -> None:
    templates = (await session.list_resource_templates()).resource_templates
    assert [t.uri_template for t in templates] == ["graphwiki://concept/{key}"]
    page = (await session.read_resource("graphwiki://concept/c-cypher")).contents[0]
    assert page.mime_type == "text/markdown"
    assert "\n# Cypher\n" in page.text  # the wiki's page of the concept, front matter first
    assert "**disputed:** Cypher is a declarative query language" in page.text
    assert "contradicts “CQL is an imperative language" in page.text and "graphwiki://concept/c-neo4j" in page.text
    by_alias = (await session.read_resource("graphwiki://concept/cypher%20query%20language")).contents[0]
    assert by_alias.text == page.text
    overview = (await session.read_resource("graphwiki://overview")).contents[0]
    assert overview.text.startswith("# Overview") and "Cypher" in overview.text


async def the_log_and_impact_read_the_graph(session: ClientSession) -> None:
    log = (await session.call_tool("audit_log", {"action": "question"})).structured_content["entries"]
    assert log and log[-1]["actor"] == "mcp" and log[-1]["inputs"]["question"] == "What is Cypher?"
    reached = (await session.call_tool("impact", {"source": "src-cypher"})).structured_content
    assert {"cl-cypher-declarative", "c-cypher"} <= {node["id"] for node in reached["nodes"]}
    overview = (await session.call_tool("overview", {})).structured_content
    assert overview["counts"]["active_contradictions"] == 1


async def one_session(session: ClientSession) -> float:
    """The session's calls, in order; returns their seconds (the server's start left out)."""
    await session.initialize()
    started = time.perf_counter()
    await tools_are_typed(session)
    await answers_keep_citations_flags_and_statuses(session)
    await a_concept_comes_with_its_claims_statuses(session)
    await refusals_say_why_and_the_session_goes_on(session)
    await an_added_source_is_ingested_and_found(session)
    await the_resources_read_as_markdown(session)
    await the_log_and_impact_read_the_graph(session)
    return time.perf_counter() - started


def test_an_mcp_session_over_stdio(seed_graph, settings, tmp_path):
    passed = {name: os.environ[name] for name in os.environ if name.startswith("HF_") or name == "XDG_CACHE_HOME"}
    server = StdioServerParameters(
        command=sys.executable,
        args=["-m", "graphwiki_assets.cli.main", "mcp", "--log-level", "WARNING"],
        env={
            **passed,
            "NEO4J_URI": settings.neo4j.uri,
            "NEO4J_PASSWORD": settings.neo4j.password,
            "GRAPHWIKI_HOME": str(tmp_path),
            "GRAPHWIKI_SOURCES_DIR": str(tmp_path / "sources"),
            "PYTHONPATH": str(REPO),
        },
        cwd=str(tmp_path),
    )

    unreadable: list[Exception] = []  # a line on stdout that is not a protocol message

    async def on_message(message) -> None:
        if isinstance(message, Exception):
            unreadable.append(message)

    async def run() -> float:
        with anyio.fail_after(STARTUP_SECONDS + SESSION_SECONDS):
            async with (
                stdio_client(server) as (read, write),
                ClientSession(read, write, message_handler=on_message) as session,
            ):
                return await one_session(session)

    assert anyio.run(run) < SESSION_SECONDS
    assert unreadable == []
    assert (tmp_path / "sources" / "notes" / "raft.md").read_text(encoding="utf-8") == RAFT


def test_an_mcp_session_over_streamable_http_inside_the_http_api(seed_graph, workspace):
    lived: list[str] = []

    @asynccontextmanager
    async def own_lifespan(app: FastAPI):
        lived.append("started")
        yield
        lived.append("stopped")

    token = "a-long-random-secret-for-the-mcp-test"
    app = build_app(workspace, token=token, lifespans=[own_lifespan])
    mount_mcp(app, workspace)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.05)
        assert server.started
        url = f"http://127.0.0.1:{port}/mcp"
        assert httpx2.post(url, json={}).status_code == 401  # the API's token guards MCP too

        async def run() -> float:
            with anyio.fail_after(STARTUP_SECONDS + SESSION_SECONDS):
                async with (
                    httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=60) as http,
                    streamable_http_client(url, http_client=http) as (read, write),
                    ClientSession(read, write) as session,
                ):
                    return await one_session(session)

        assert anyio.run(run) < SESSION_SECONDS
    finally:
        server.should_exit = True
        thread.join(timeout=10)
    assert not thread.is_alive()
    assert lived == ["started", "stopped"]  # the app's own lifespan ran around the session manager


def test_a_graph_that_cannot_be_reached_is_a_tool_error_that_says_so(settings, embedder, offline_llm, tmp_path):
    nowhere = replace(settings.neo4j, uri=f"bolt://127.0.0.1:{free_port()}")
    workspace = Workspace(replace(settings, home=tmp_path), GraphStore(nowhere), embedder, offline_llm)

    async def run() -> None:
        async with Client(build_mcp(workspace)) as client:
            for name, arguments in (("get_concept", {"key": "Cypher"}), ("ask", {"question": "What is Cypher?"})):
                result = await client.call_tool(name, arguments)
                assert result.is_error and "unavailable: Neo4j is not reachable" in text_of(result), name
            with pytest.raises(MCPError, match="not reachable"):
                await client.read_resource("graphwiki://overview")
            assert {tool.name for tool in (await client.list_tools()).tools} == TOOLS

    anyio.run(run)
