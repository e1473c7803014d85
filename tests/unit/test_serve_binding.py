"""Where `graphwiki serve` may listen and how a client finds it: loopback needs no token,
any other address does; the discovery file names a live process and never the token."""

from __future__ import annotations

import json
import os

import pytest

from graphwiki_assets.cli.serve import UnsafeBind, client_url, is_loopback, token_for
from graphwiki_assets.server.client import (
    discovery_path,
    read_discovery,
    remove_discovery,
    running_server,
    write_discovery,
)


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "localhost", "::1", "[::1]"])
def test_loopback_addresses_need_no_token(host):
    assert is_loopback(host) and token_for(host, "GRAPHWIKI_SERVE_TOKEN", env={}) is None


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.20", "graphwiki.example.org"])
def test_other_addresses_need_a_token(host):
    with pytest.raises(UnsafeBind, match="without a token"):
        token_for(host, "GRAPHWIKI_SERVE_TOKEN", env={"GRAPHWIKI_SERVE_TOKEN": "  "})
    assert token_for(host, "MY_TOKEN", env={"MY_TOKEN": "s3cret"}) == "s3cret"


def test_a_client_reaches_a_wildcard_bind_on_loopback():
    assert client_url("0.0.0.0", 8765) == "http://127.0.0.1:8765"
    assert client_url("::", 8765) == "http://[::1]:8765"
    assert client_url("::1", 9000) == "http://[::1]:9000"


def test_the_discovery_file_is_this_process_and_goes_with_it(tmp_path):
    write_discovery(tmp_path, "http://127.0.0.1:8765")
    record = json.loads(discovery_path(tmp_path).read_text())
    assert record["pid"] == os.getpid() and set(record) == {"url", "pid", "started_at"}
    remove_discovery(tmp_path, pid=os.getpid() + 1)  # another server's file is not ours to remove
    assert read_discovery(tmp_path) is not None
    remove_discovery(tmp_path)
    assert not discovery_path(tmp_path).exists()


def test_a_stale_discovery_file_is_ignored(tmp_path):
    dead = 2**22 + 12345  # above the default pid_max: no such process
    write_discovery(tmp_path, "http://127.0.0.1:9", pid=dead)
    assert running_server(tmp_path) is None


def test_a_live_process_that_does_not_answer_is_no_server(tmp_path):
    import socket
    import time

    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    write_discovery(tmp_path, f"http://127.0.0.1:{port}")  # this process: alive, but serves nothing
    started = time.monotonic()
    assert running_server(tmp_path) is None
    assert time.monotonic() - started < 1.0
