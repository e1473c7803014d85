"""The soak: ``graphwiki serve`` under load and faults (``graphwiki bench soak``).

For the given minutes, 8 HTTP askers and one MCP client ask questions while source files
are submitted as ingest jobs at an even pace. Meanwhile Neo4j is killed (SIGKILL) and
started again once, the LLM endpoint (the offline rules served over HTTP) answers bursts
of 429 and of 503, and ``serve`` itself is killed (SIGKILL) and started again once. The
report says what became of every question (answered, refused with a status and how fast,
unreachable while restarting, hung) and of every file (ingested once, failed with a
reason, lost, doubled), and the server's memory at its start and end.

Everything runs in a scratch home with its own Neo4j on a free port, so it can kill them.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import httpx
import psutil

from graphwiki_assets.core.evals.instance import free_port
from graphwiki_assets.core.evals.multihop import load_jsonl
from graphwiki_assets.core.llm.rules_server import RulesServer
from graphwiki_assets.core.neo4j_server.server import Neo4jServer
from graphwiki_assets.core.processes import signal_group, wait_until
from graphwiki_assets.core.service.job_records import UNFINISHED
from graphwiki_assets.core.settings import Settings
from graphwiki_assets.core.store.driver import GraphStore
from graphwiki_assets.server.soak_clients import QuestionPool, Tally, http_asker, mcp_asker

REFUSAL_BOUND_S = 5.0  # every refusal must come at least this fast (the target)


@dataclass
class SoakConfig:
    minutes: float = 10.0
    files: int = 300
    askers: int = 8
    ask_timeout_s: float = 60.0  # an answer later than this is a hung question
    burst_every_s: float = 45.0  # the LLM endpoint refuses a burst of calls this often
    burst_size: int = 12
    drain_timeout_s: float = 1200.0  # after the load: how long the submitted jobs may take to end


@dataclass
class SoakResult:
    config: dict[str, Any]
    questions_http: dict[str, Any] = field(default_factory=dict)
    questions_mcp: dict[str, Any] = field(default_factory=dict)
    files: dict[str, Any] = field(default_factory=dict)
    faults: list[dict[str, Any]] = field(default_factory=list)
    rss_mb: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        q = [self.questions_http, self.questions_mcp]
        bounded = all(t["refused_within_bound"] == sum(t["refused"].values()) for t in q)
        growth = self.rss_mb.get("growth", 0.0)
        return (
            all(t["hung"] == 0 and t["answered_after_the_last_fault"] for t in q)
            and bounded
            and self.files["lost"] == 0
            and self.files["doubled"] == 0
            and growth <= 0.20
        )

    def as_dict(self) -> dict[str, Any]:
        return {**self.__dict__, "passed": self.passed}


class _Serve:
    """One ``graphwiki serve`` process on a fixed port, killed and started again at will."""

    def __init__(self, env: dict[str, str], port: int, log_path: Path):
        self.env, self.port, self.log_path = env, port, log_path
        self.url = f"http://127.0.0.1:{port}"
        self.proc: subprocess.Popen | None = None

    def start(self, timeout_s: float = 180.0) -> float:
        started = time.monotonic()
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "graphwiki_assets.cli.main", "serve", "--port", str(self.port)],
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        if wait_until(self._healthy, timeout_s, self.proc):
            return time.monotonic() - started
        if self.proc.poll() is not None:
            raise RuntimeError(f"graphwiki serve exited with {self.proc.returncode}; see {self.log_path}")
        raise RuntimeError(f"graphwiki serve did not answer /health in {timeout_s:.0f} s; see {self.log_path}")

    def _healthy(self) -> bool:
        try:
            return bool(httpx.get(f"{self.url}/health", timeout=2).json().get("ok"))
        except (httpx.TransportError, ValueError):
            return False

    def rss_mb(self) -> float | None:
        if self.proc is None:
            return None
        try:
            return round(psutil.Process(self.proc.pid).memory_info().rss / 2**20, 1)
        except psutil.Error:  # it has just died: the soak kills it on purpose
            return None

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            signal_group(self.proc.pid, signal.SIGKILL)
            self.proc.wait(30)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            signal_group(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(60)
            except subprocess.TimeoutExpired:
                self.kill()


def documents(corpus: Path, n: int) -> list[tuple[str, str, str]]:
    """(file name, title, markdown) of the first ``n`` passages of a JSONL corpus."""
    return [
        (f"soak/{row['id']}.md", row["title"], f"# {row['title']}\n\n{row['text']}\n") for row in load_jsonl(corpus)[:n]
    ]


def run_soak(base: Settings, corpus: Path, config: SoakConfig, home: Path | None = None, log=print) -> SoakResult:
    home = Path(home or tempfile.mkdtemp(prefix="graphwiki-soak-"))
    settings = base.with_instance(home, free_port())
    neo4j = Neo4jServer(settings.server, log=log)
    docs = documents(corpus, config.files)
    result = SoakResult(config=dict(config.__dict__, home=str(home)))
    started = time.monotonic()
    neo4j.start()
    with RulesServer() as rules:
        env = {
            **os.environ,
            "GRAPHWIKI_HOME": str(home),
            "NEO4J_URI": settings.neo4j.uri,
            "NEO4J_USERNAME": settings.neo4j.username,
            "NEO4J_PASSWORD": settings.server.password,  # what the scratch instance was created with
            "GRAPHWIKI_NEO4J_BOLT_PORT": str(settings.server.bolt_port),
            "OPENAI_BASE_URL": rules.base_url,
            "OPENAI_API_KEY": "soak",
            "GRAPHWIKI_LLM_MODEL": "rules",
        }
        env.pop("GRAPHWIKI_SERVE_TOKEN", None)
        serve = _Serve(env, free_port(), home / "serve.log")
        try:
            serve.start()
            _load(serve, neo4j, rules, docs, config, result, log)
        finally:
            serve.stop()
            with GraphStore(replace(settings.neo4j, password=settings.server.password)) as store:
                result.files = _files(store, result.files, docs)
            neo4j.stop()
    result.seconds = round(time.monotonic() - started, 1)
    return result


def _load(serve, neo4j, rules, docs, config: SoakConfig, result: SoakResult, log) -> None:
    duration = config.minutes * 60
    pool = QuestionPool()
    http, mcp = Tally(), Tally()
    stop = threading.Event()
    jobs: dict[str, str] = {}  # file name -> job id (the last accepted)
    submit_retries = [0]
    recovered: list[float | None] = [None]  # when the last fault ended
    result.rss_mb = {"start": serve.rss_mb()}
    watch = _JobWatch(serve)
    watch.start()
    t0 = time.monotonic()

    def submitter() -> None:
        gap = duration * 0.7 / max(1, len(docs))
        for i, (name, title, text) in enumerate(docs):
            while not stop.is_set():
                try:
                    reply = httpx.post(f"{serve.url}/sources", json={"name": name, "text": text}, timeout=30)
                    if reply.status_code == 202:
                        jobs[name] = reply.json()["id"]
                        pool.add(title)
                        break
                except httpx.TransportError:
                    pass
                submit_retries[0] += 1
                stop.wait(1.0)
            stop.wait(max(0.0, t0 + (i + 1) * gap - time.monotonic()))

    threads = [threading.Thread(target=submitter, name="soak-submitter", daemon=True)]
    threads += [
        threading.Thread(target=http_asker, args=(serve.url, pool, http, stop, config.ask_timeout_s), daemon=True)
        for _ in range(config.askers)
    ]
    threads.append(
        threading.Thread(target=mcp_asker, args=(serve.url, pool, mcp, stop, config.ask_timeout_s), daemon=True)
    )
    for thread in threads:
        thread.start()
    faults = [(0.3, "neo4j"), (0.6, "serve")]
    # Every fault happens, and the load goes on for a quarter of the run after the last one
    # (to see the clients recover), however long a restart takes on a slow machine.
    end, after_the_last = duration, duration * 0.25
    next_burst, burst_status = config.burst_every_s, 429
    while (elapsed := time.monotonic() - t0) < end or faults:
        if faults and elapsed >= faults[0][0] * duration:
            _, what = faults.pop(0)
            result.faults.append(_fault(what, serve, neo4j, result, elapsed, log))
            recovered[0] = now = time.monotonic()
            end = max(end, now - t0 + after_the_last)
        if elapsed >= next_burst:
            rules.burst(burst_status, config.burst_size)
            result.faults.append(
                {"at_s": round(elapsed, 1), "fault": f"LLM endpoint: {config.burst_size} x {burst_status}"}
            )
            next_burst, burst_status = next_burst + config.burst_every_s, 503 if burst_status == 429 else 429
        time.sleep(0.5)
    result.rss_mb["end"] = serve.rss_mb()
    stop.set()
    for thread in threads:
        thread.join(config.ask_timeout_s + 30)
    result.questions_http = http.summary(REFUSAL_BOUND_S, recovered[0], t0)
    result.questions_mcp = mcp.summary(REFUSAL_BOUND_S, recovered[0], t0)
    watch.drain(list(jobs.values()), config.drain_timeout_s)
    result.files = {"submitted": len(jobs), "submit_retries": submit_retries[0], **_outcomes(watch, jobs)}
    start_rss, end_rss = result.rss_mb.get("restarted"), result.rss_mb.get("end")
    if start_rss and end_rss:
        result.rss_mb["growth"] = round(end_rss / start_rss - 1, 3)


def _fault(what: str, serve, neo4j, result: SoakResult, elapsed: float, log) -> dict[str, Any]:
    began = time.monotonic()
    if what == "neo4j":
        pid = neo4j.pid()
        if pid:
            signal_group(pid, signal.SIGKILL)
        log(f"soak: Neo4j killed at {elapsed:.0f} s")
        time.sleep(5)  # questions meanwhile meet a graph that is gone
        neo4j.start()
    else:
        result.rss_mb["before_restart"] = serve.rss_mb()
        serve.kill()
        log(f"soak: serve killed at {elapsed:.0f} s")
        serve.start()
        result.rss_mb["restarted"] = serve.rss_mb()
    return {
        "at_s": round(elapsed, 1),
        "fault": f"{what} killed and started",
        "down_s": round(time.monotonic() - began, 1),
    }


class _JobWatch:
    """Polls the server's job list while the soak runs and keeps every job's end as it
    comes: the server remembers only its newest finished jobs, so a job is read while it is
    still listed."""

    def __init__(self, serve: _Serve):
        self.serve = serve
        self.ended: dict[str, dict] = {}  # job id -> the job as it ended
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="soak-jobs", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def poll(self) -> None:
        try:
            listed = httpx.get(f"{self.serve.url}/jobs", timeout=30).json()
        except (httpx.TransportError, ValueError):
            return  # restarting: the next poll reads it
        for job in listed if isinstance(listed, list) else []:
            if job.get("status") not in UNFINISHED:
                self.ended.setdefault(job["id"], job)

    def _run(self) -> None:
        while not self._stop.wait(2.0):
            self.poll()

    def drain(self, ids: list[str], timeout_s: float) -> None:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline and not set(ids) <= set(self.ended):
            time.sleep(1.0)
        self._stop.set()
        self.poll()


def _outcomes(watch: _JobWatch, jobs: dict[str, str]) -> dict[str, Any]:
    """What each accepted job ended as."""
    ended = {name: watch.ended[i] for name, i in jobs.items() if i in watch.ended}
    failed = {n: j.get("error") for n, j in ended.items() if j["status"] == "failed"}
    return {
        "jobs_done": sum(1 for j in ended.values() if j["status"] == "done"),
        "jobs_failed": len(failed),
        "failed_reasons": dict(list(failed.items())[:10]),
        "jobs_unfinished": len(jobs) - len(ended),
    }


def _files(store: GraphStore, files: dict[str, Any], docs) -> dict[str, Any]:
    """Each submitted file's Source nodes in the graph: one is ingested once, none is lost
    (unless its job failed with a reason), more than one is doubled."""
    names = [name for name, _, _ in docs]
    rows = store.query(
        "UNWIND $names AS name OPTIONAL MATCH (s:Source) WHERE s.path ENDS WITH name RETURN name, count(s) AS n",
        names=names,
    )
    counts = {r["name"]: r["n"] for r in rows}
    submitted = files.get("submitted", 0)
    once = sum(1 for n in counts.values() if n == 1)
    return {
        **files,
        "ingested_once": once,
        "doubled": sum(1 for n in counts.values() if n > 1),
        "lost": max(0, submitted - once - files.get("jobs_failed", 0)),
    }
