"""The evals' own Neo4j: moved to a free port when another program holds its own, and
stopped after the eval that started it (a gigabyte of heap is not left running)."""

from __future__ import annotations

import signal
import socket
from pathlib import Path

import pytest

from graphwiki_assets.core.evals.instance import _on_a_free_port, eval_settings, eval_store, free_port
from graphwiki_assets.core.neo4j_server.server import Neo4jServer
from graphwiki_assets.core.settings import Settings


def test_a_port_another_program_holds_moves_the_eval_instance_to_a_free_one_it_remembers(tmp_path, monkeypatch):
    monkeypatch.delenv("GRAPHWIKI_EVAL_BOLT_PORT", raising=False)
    monkeypatch.delenv("GRAPHWIKI_EVAL_NEO4J_URI", raising=False)
    user = Settings.from_env({"GRAPHWIKI_HOME": str(tmp_path)})
    said: list[str] = []
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        taken = other.getsockname()[1]
        (tmp_path / "eval").mkdir()
        (tmp_path / "eval" / "bolt-port").write_text(str(taken))
        assert eval_settings(user, {}).neo4j.uri.endswith(f":{taken}")
        moved = _on_a_free_port(eval_settings(user, {}), log=said.append)
    port = int(moved.neo4j.uri.rsplit(":", 1)[1])
    assert port != taken and moved.server.bolt_port == port
    assert eval_settings(user, {}).neo4j.uri == moved.neo4j.uri  # the next eval finds it again
    assert f"port {taken} is taken" in said[0]


def test_a_port_the_user_chose_is_never_moved(tmp_path, monkeypatch):
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        taken = other.getsockname()[1]
        monkeypatch.setenv("GRAPHWIKI_EVAL_BOLT_PORT", str(taken))
        settings = eval_settings(Settings.from_env({"GRAPHWIKI_HOME": str(tmp_path)}))
        assert _on_a_free_port(settings, log=lambda msg: None) == settings


@pytest.mark.integration  # a Neo4j or model endpoint of its own
def test_an_eval_stops_the_server_it_started(tmp_path, monkeypatch, settings):
    monkeypatch.delenv("GRAPHWIKI_EVAL_NEO4J_URI", raising=False)
    monkeypatch.delenv("GRAPHWIKI_EVAL_KEEP_NEO4J", raising=False)
    monkeypatch.setenv("GRAPHWIKI_EVAL_BOLT_PORT", str(free_port()))
    user = Settings.from_env({"GRAPHWIKI_HOME": str(tmp_path), "NEO4J_PASSWORD": settings.neo4j.password})
    ev = eval_settings(user)
    said: list[str] = []
    # As inside a Dagster run started in the background: SIGINT ignored, and Dagster maps
    # SIGTERM to SIGINT's handler. The server must still stop cleanly at SIGTERM.
    previous = signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        with eval_store(ev, log=said.append) as store:
            assert store.query("RETURN 1 AS one")[0]["one"] == 1
            assert Neo4jServer(ev.server).status().running
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert not Neo4jServer(ev.server).status().running
    assert any("stopped the eval Neo4j" in msg for msg in said)
    log = (Path(ev.server.home) / "logs" / "neo4j.log").read_text()
    assert "Stopped." in log  # shut down at SIGTERM, not killed after the stop timeout
