"""CPU time of this process and of a local server, as the benches report it against the cores."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

from graphwiki_assets.core.cpu_time import CpuMeter, cores, local_server_pid, process_seconds

BUSY = "import time\nend = time.process_time() + 0.5\nwhile time.process_time() < end: pass\ntime.sleep(30)"


def _spin(seconds: float) -> None:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def test_this_process_is_charged_for_the_work_it_does():
    before = process_seconds(os.getpid())
    _spin(0.3)
    assert process_seconds(os.getpid()) - before >= 0.25


def test_another_process_is_read_by_its_pid_and_a_gone_one_reads_as_none():
    child = subprocess.Popen([sys.executable, "-c", BUSY])
    try:
        deadline = time.monotonic() + 20
        while (process_seconds(child.pid) or 0.0) < 0.45 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert process_seconds(child.pid) >= 0.45
    finally:
        child.kill()
        child.wait()
    assert process_seconds(child.pid) is None


def test_the_server_is_found_by_the_port_it_listens_on_and_only_on_this_machine():
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        assert local_server_pid(f"bolt://localhost:{port}") == os.getpid()
        assert local_server_pid(f"neo4j://127.0.0.1:{port}") == os.getpid()
        assert local_server_pid(f"neo4j+s://graph.example.com:{port}") is None
    assert local_server_pid(f"bolt://localhost:{port}") is None  # nobody listens any more


def test_the_budget_sets_the_cpu_used_against_what_the_cores_give():
    meter = CpuMeter(server_pid=os.getpid()).start()
    _spin(0.3)
    meter.stop()
    budget = meter.budget(wall=1.0)

    assert budget["cores"] == cores() >= 1
    assert budget["process_seconds"] >= 0.2 and budget["neo4j_seconds"] >= 0.2  # the "server" is this process
    assert budget["total_seconds"] == round(meter.own_seconds + meter.server_seconds, 1)
    assert budget["least_wall_seconds"] == round((meter.own_seconds + meter.server_seconds) / cores(), 1)
    assert budget["busy_share"] == round((meter.own_seconds + meter.server_seconds) / cores(), 3)


def test_without_a_server_only_this_process_counts():
    budget = CpuMeter().start().stop().budget(wall=2.0)
    assert budget["neo4j_seconds"] is None
    assert budget["total_seconds"] == budget["process_seconds"]
