"""A server this package starts stops at SIGTERM even when its parent ignores SIGTERM (a
Dagster run in a background job maps SIGTERM to an ignored SIGINT)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

PARENT = textwrap.dedent(
    """
    import signal, subprocess, sys, time
    from graphwiki_assets.core.processes import stoppable
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # what the child would inherit
    child = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(30)"],
        preexec_fn=stoppable if sys.argv[1] == "stoppable" else None,
    )
    time.sleep(0.5)
    child.terminate()
    try:
        child.wait(timeout=5)
        print("stopped")
    except subprocess.TimeoutExpired:
        child.kill()
        print("outlived SIGTERM")
    """
)


def _child_fate(mode: str) -> str:
    done = subprocess.run([sys.executable, "-c", PARENT, mode], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_a_child_started_stoppable_stops_at_sigterm_though_its_parent_ignores_it():
    assert _child_fate("stoppable") == "stopped"


def test_without_it_the_ignored_sigterm_is_inherited():
    assert _child_fate("plain") == "outlived SIGTERM"  # the control: the case is real
