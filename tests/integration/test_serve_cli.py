"""`graphwiki serve` as a process and `graphwiki ask` finding it: the question goes over HTTP
when the server for this GRAPHWIKI_HOME runs (with its token), in-process otherwise, and the
output is the same either way. The server refuses to listen off loopback without a token."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request

import pytest

from graphwiki_assets.cli.main import main
from graphwiki_assets.core.evals.instance import free_port
from graphwiki_assets.server.client import discovery_path
from tests.support.paths import REPO_ROOT

TOKEN = "a-long-random-secret-for-the-cli-test"


def _last_question_actor(cli) -> str:
    code, out = cli("log", "--action", "question", "--json")
    assert code == 0
    return json.loads(out)[-1]["actor"]


@pytest.fixture
def served_home(settings, tmp_path, cli):
    """`graphwiki serve` in a subprocess for the cli fixture's home, with a token."""
    port = free_port()
    env = {
        **os.environ,
        "GRAPHWIKI_HOME": str(tmp_path),
        "GRAPHWIKI_SOURCES_DIR": str(tmp_path / "sources"),
        "NEO4J_URI": settings.neo4j.uri,
        "NEO4J_PASSWORD": settings.neo4j.password,
        "GRAPHWIKI_SERVE_TOKEN": TOKEN,
        "PYTHONPATH": str(REPO_ROOT),
    }
    log = (tmp_path / "serve.log").open("w")
    process = subprocess.Popen(
        [sys.executable, "-m", "graphwiki_assets.cli.main", "serve", "--port", str(port)],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 180
    while not discovery_path(tmp_path).exists() or not _healthy(port):
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise AssertionError((tmp_path / "serve.log").read_text())
        time.sleep(0.3)
    yield process
    if process.poll() is None:
        process.kill()
    log.close()


def _healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1) as reply:
            return json.loads(reply.read())["ok"]
    except OSError:
        return False


def test_ask_uses_the_running_server_and_falls_back_without_it(seed_graph, served_home, cli, monkeypatch, tmp_path):
    record = json.loads(discovery_path(tmp_path).read_text())
    assert record["pid"] == served_home.pid and record["url"].startswith("http://127.0.0.1:")
    assert TOKEN not in discovery_path(tmp_path).read_text()

    monkeypatch.setenv("GRAPHWIKI_SERVE_TOKEN", TOKEN)
    code, served = cli("ask", "What is Cypher?", "--json")
    assert code == 0 and _last_question_actor(cli).startswith("http:cli")
    code, here = cli("ask", "What is Cypher?", "--json", "--no-server")
    assert code == 0 and _last_question_actor(cli).startswith("cli")
    served_answer, here_answer = json.loads(served), json.loads(here)
    assert served_answer.keys() == here_answer.keys()
    assert served_answer["citations"] == here_answer["citations"] and served_answer["flags"] == here_answer["flags"]
    _, served_text = cli("ask", "What is Cypher?")
    _, here_text = cli("ask", "What is Cypher?", "--no-server")
    timed = lambda text: [line for line in text.splitlines() if " ms; " not in line]  # noqa: E731  (elapsed time differs)
    assert timed(served_text) == timed(here_text) and len(timed(served_text)) > 3

    monkeypatch.delenv("GRAPHWIKI_SERVE_TOKEN")  # the server refuses: answered here instead
    code, _ = cli("ask", "What is Cypher?")
    assert code == 0 and _last_question_actor(cli).startswith("cli")

    monkeypatch.setenv("GRAPHWIKI_SERVE_TOKEN", TOKEN)
    served_home.send_signal(signal.SIGINT)
    served_home.wait(60)
    assert not discovery_path(tmp_path).exists()
    code, _ = cli("ask", "What is Cypher?")
    assert code == 0 and _last_question_actor(cli).startswith("cli")


def test_serve_refuses_another_address_without_a_token(cli_env, monkeypatch, capsys):
    monkeypatch.delenv("GRAPHWIKI_SERVE_TOKEN", raising=False)
    assert main(["serve", "--host", "0.0.0.0", "--port", str(free_port())]) == 1
    assert "refusing to bind 0.0.0.0 without a token" in capsys.readouterr().err
