"""Eight HTTP clients asking while the server ingests a source: no request fails, and the
source's every claim reaches the graph (the ingest is not starved or cut short by readers)."""

from __future__ import annotations

import json
import threading
from concurrent.futures import ThreadPoolExecutor

import httpx

from graphwiki_assets.server.http_app import build_app
from tests.integration.test_serve_http import wait_for_job
from tests.support.paths import REPO_ROOT
from tests.support.serving import serving

CLIENTS = 8
QUESTIONS = [
    {"question": "What is Cypher?"},
    {"question": "What else relates to Neo4j?"},
    {"question": "How does Cypher connect to Neo4j?"},
    {"question": "Find something shaped like PageRank", "shape": "shaped_like"},
]


def _document() -> str:
    """The seed corpus as one markdown file, one section per article (a few seconds of ingest)."""
    records = [json.loads(line) for line in (REPO_ROOT / "evals/multihop/seed/corpus.jsonl").read_text().splitlines()]
    return "\n\n".join(f"# {r['title']}\n\n{r['text']}" for r in records)


def test_eight_clients_ask_while_a_source_is_ingested(workspace, seed_graph, store):
    statuses: list[int] = []
    errors: list[str] = []
    ingesting = threading.Event()

    def asker(url: str, n: int) -> None:
        asked = 0
        with httpx.Client(base_url=url, timeout=120) as own:  # a client of its own, as eight users have
            while asked < 6 or ingesting.is_set():  # at least six each, and until the ingest ends
                response = own.post("/ask", json=QUESTIONS[(n + asked) % len(QUESTIONS)])
                statuses.append(response.status_code)
                if response.status_code != 200 or not response.json().get("shape"):
                    errors.append(response.text[:300])
                asked += 1

    with serving(build_app(workspace)) as url, httpx.Client(base_url=url, timeout=120) as http:
        ingesting.set()
        job = http.post("/sources", json={"name": "seed/articles.md", "text": _document()}).json()
        with ThreadPoolExecutor(CLIENTS) as pool:
            askers = [pool.submit(asker, url, n) for n in range(CLIENTS)]
            finished = wait_for_job(http, job["id"], timeout=600)
            ingesting.clear()
            for done in askers:
                done.result()

    assert errors == [] and len(statuses) >= CLIENTS * 6
    assert finished["status"] == "done", finished["error"]
    report = finished["report"]
    assert report["sources"]["new"] == 1 and report["sources"]["failed"] == 0 and report["claims"] > 0
    stored = store.query(
        "MATCH (s:Source) WHERE s.path ENDS WITH $name MATCH (c:Claim)-[:DERIVED_FROM]->(s) RETURN count(c) AS n",
        name="articles.md",
    )
    assert stored[0]["n"] == report["claims"]
