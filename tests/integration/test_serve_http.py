"""The HTTP API of `graphwiki serve`, spoken to over real HTTP (httpx) on a real uvicorn
server, against the test Neo4j: every route answers JSON, refusals keep their reason, a
crash is one line without a stack trace, a token guards everything but /health, and a
source handed over is ingested by a queued job whose progress and report can be read."""

from __future__ import annotations

import logging
import time
from dataclasses import replace

import httpx
import pytest

from graphwiki_assets.core.evals.instance import free_port
from graphwiki_assets.core.service import Workspace
from graphwiki_assets.core.store.driver import GraphStore
from graphwiki_assets.server.http_app import build_app
from tests.support.serving import serving

TOKEN = "a-long-random-secret-for-the-test"
RAFT = "# Raft\n\nRaft is a consensus algorithm. etcd uses Raft to replicate its log."


def wait_for_job(http: httpx.Client, job_id: str, timeout: float = 120.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = http.get(f"/jobs/{job_id}").json()
        if job["status"] in ("done", "failed"):
            return job
        time.sleep(0.2)
    raise AssertionError(f"job {job_id} still {job['status']} after {timeout}s: {job['progress'][-5:]}")


@pytest.fixture
def api(workspace):
    with serving(build_app(workspace)) as url, httpx.Client(base_url=url, timeout=60) as http:
        yield http


def test_every_read_route_answers_json(api, seed_graph):
    health = api.get("/health").json()
    assert health["ok"] and health["graph"]["reachable"] and health["models_loaded"]
    assert health["backend"].startswith("offline")

    answer = api.post("/ask", json={"question": "What is Cypher?"}, headers={"X-Graphwiki-Actor": "tester"})
    assert answer.status_code == 200
    body = answer.json()
    assert body["shape"] == "what_is" and body["citations"] and body["text"]
    assert any("disputed" in flag for flag in body["flags"])
    # every depth the command line takes in-process, the server takes too
    deep = api.post(
        "/ask", json={"question": "What is Cypher?", "hops": 5, "k": 50}, headers={"X-Graphwiki-Actor": "tester"}
    )
    assert deep.status_code == 200 and deep.json()["citations"]

    hits = api.get("/concepts", params={"q": "pagerank", "k": 3}).json()
    assert hits[0]["id"] == "c-pagerank" and hits[0]["matched"] == "name"

    card = api.get("/concepts/cypher query language").json()
    assert card["id"] == "c-cypher"
    assert {c["id"]: c["status"] for c in card["claims"]}["cl-cypher-declarative"] == "disputed"

    overview = api.get("/overview").json()
    assert overview["markdown"]

    impact = api.get("/impact/src-cypher", params={"depth": "2"}).json()
    assert impact["source_id"] == "src-cypher" and impact["depth"] == 2 and impact["reached"] > 0

    questions = api.get("/log", params={"action": "question", "limit": 5}).json()
    assert questions[-1]["actor"] == "http:tester"

    paths = api.get("/openapi.json").json()["paths"]
    assert {"/ask", "/concepts", "/overview", "/log", "/sources", "/jobs/{job_id}", "/health"} <= set(paths)


def test_refusals_say_why_with_the_right_status(api, seed_graph):
    def refused(response: httpx.Response, status: int, words: str) -> None:
        assert response.status_code == status, response.text
        assert words in response.json()["detail"]

    refused(api.post("/ask", json={"question": "What is Cypher?", "shape": "poem"}), 422, "unknown shape 'poem'")
    refused(api.post("/ask", json={"question": "   "}), 422, "blank")
    refused(api.post("/ask", json={"question": "What is Cypher?", "hops": 9}), 422, "hops")
    refused(api.post("/ask", content=b"not json", headers={"content-type": "application/json"}), 422, "JSON")
    refused(api.get("/concepts/Memgraph"), 404, "Memgraph")
    refused(api.get("/concepts", params={"q": "x", "k": 0}), 422, "k")
    refused(api.get("/impact/src-nowhere"), 404, "src-nowhere")
    refused(api.get("/impact/src-cypher", params={"depth": "deep"}), 400, "depth")
    refused(api.get("/log", params={"action": "dance"}), 400, "dance")
    # an offset Python takes and Neo4j does not (over 18 h) is read as the moment it names
    assert api.get("/log", params={"since": "2020-01-01T00:00:00-23:00"}).status_code == 200
    refused(api.get("/log", params={"since": "0001-01-01T00:00:00+05:00"}), 400, "out of range")
    refused(api.post("/sources", json={"name": "../../etc/passwd.md", "text": "x"}), 422, "relative path")
    refused(api.post("/sources", json={"name": "notes/a.exe", "text": "x"}), 422, "must end in")
    refused(api.get("/jobs/0123"), 404, "0123")


def test_a_crash_is_one_line_without_a_stack_trace_and_logged(workspace, seed_graph, caplog):
    # a schema config broken after the server started: the next request that reads it fails
    (workspace.settings.home / "graphwiki.yaml").write_text("entity_types: [unclosed\n", encoding="utf-8")
    with serving(build_app(workspace)) as url, caplog.at_level(logging.ERROR, logger="graphwiki.serve"):
        response = httpx.get(f"{url}/overview", timeout=60)
    assert response.status_code == 500
    detail = response.json()["detail"]
    assert detail.startswith("internal error: ConfigError") and "\n" not in detail
    assert "Traceback" not in response.text and 'File "' not in response.text
    assert any(r.exc_info and "/overview" in r.getMessage() for r in caplog.records)


def test_an_unreachable_graph_is_503_with_the_reason(settings, embedder, offline_llm, tmp_path):
    down = replace(settings.neo4j, uri=f"bolt://127.0.0.1:{free_port()}")
    workspace = Workspace(
        replace(settings, neo4j=down, home=tmp_path, sources_dir=tmp_path / "s"),
        GraphStore(down),
        embedder,
        offline_llm,
    )
    with serving(build_app(workspace)) as url:
        health = httpx.get(f"{url}/health", timeout=30)
        card = httpx.get(f"{url}/concepts/Cypher", timeout=30)
    assert health.status_code == 503 and health.json()["graph"]["reachable"] is False
    assert card.status_code == 503 and "not reachable" in card.json()["detail"]


def test_a_token_guards_every_route_but_health(workspace, seed_graph, caplog, capfd):
    with serving(build_app(workspace, token=TOKEN), log_level="debug") as url, caplog.at_level(logging.DEBUG):
        assert httpx.get(f"{url}/health").status_code == 200
        for path in ("/concepts/Cypher", "/openapi.json", "/docs", "/jobs"):
            assert httpx.get(f"{url}{path}").status_code == 401
        assert httpx.post(f"{url}/ask", json={"question": "What is Cypher?"}).status_code == 401
        wrong = httpx.get(f"{url}/concepts/Cypher", headers={"Authorization": "Bearer not-the-token"})
        assert wrong.status_code == 401 and "Bearer" in wrong.json()["detail"]
        right = httpx.get(f"{url}/concepts/Cypher", headers={"Authorization": f"bearer {TOKEN}"})
        assert right.status_code == 200 and right.json()["id"] == "c-cypher"
        logged = caplog.text + capfd.readouterr().out  # uvicorn's access log writes to stdout itself
        assert "GET /concepts/Cypher" in logged and "401" in logged  # the access log is on
        assert TOKEN not in logged
        # a token in the query string is not one: it would sit in every access log
        assert httpx.get(f"{url}/concepts/Cypher", params={"token": TOKEN}).status_code == 401


def test_a_source_is_queued_ingested_and_reported(api, workspace):
    queued = api.post("/sources", json={"name": "notes/raft.md", "text": RAFT}, headers={"X-Graphwiki-Actor": "me"})
    assert queued.status_code == 202 and queued.json()["status"] in ("queued", "running")
    job = wait_for_job(api, queued.json()["id"])
    assert job["status"] == "done", job["error"]
    assert job["report"]["sources"] == {"new": 1, "unchanged": 0, "skipped": 0, "failed": 0}
    assert any(line.startswith("written ") for line in job["progress"])
    assert any("new" in line and "raft.md" in line for line in job["progress"])
    assert api.get("/concepts/Raft").json()["sources"][0]["path"].endswith("raft.md")
    assert api.get("/log", params={"action": "ingest"}).json()[-1]["actor"] == "http:me"
    assert queued.json()["id"] in {j["id"] for j in api.get("/jobs").json()}


def test_a_failed_job_keeps_its_error_and_the_next_one_runs(api, workspace):
    (workspace.settings.sources_dir).mkdir(parents=True, exist_ok=True)
    (workspace.settings.sources_dir / "taken.md").write_text("# a file, not a folder\n", encoding="utf-8")
    bad = api.post("/sources", json={"name": "taken.md/inside.md", "text": RAFT}).json()
    good = api.post("/sources", json={"name": "raft.md", "text": RAFT}).json()
    failed, done = wait_for_job(api, bad["id"]), wait_for_job(api, good["id"])
    assert failed["status"] == "failed" and failed["error"] and failed["report"] is None
    assert done["status"] == "done" and done["report"]["sources"]["new"] == 1
