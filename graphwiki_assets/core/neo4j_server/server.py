"""Run Neo4j (with GDS) as a background process bound to 127.0.0.1, without Docker.

Layout of one instance under ``ServerSettings.home``::

    conf/neo4j.conf   data/   logs/   run/neo4j.pid

Each instance has its own home and Bolt port, so tests and evals run their own
server beside the user's.
"""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from graphwiki_assets.core.neo4j_server.distribution import Distribution, ensure_distribution
from graphwiki_assets.core.neo4j_server.java import find_java
from graphwiki_assets.core.processes import live_pid, stop_group, stoppable, wait_until
from graphwiki_assets.core.settings import ServerSettings

ENTRY_POINT = "org.neo4j.server.CommunityEntryPoint"
ADMIN_TOOL = "org.neo4j.cli.AdminTool"
JVM_FLAGS = [
    "-XX:+UseG1GC",
    "-XX:-OmitStackTraceInFastThrow",
    "-XX:+DisableExplicitGC",
    "-Djdk.nio.maxCachedBufferSize=1024",
    "-Dio.netty.tryReflectionSetAccessible=true",
    "-Dlog4j2.disable.jmx=true",
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-opens=java.base/java.lang=ALL-UNNAMED",
    "--enable-native-access=ALL-UNNAMED",
]


class ServerError(RuntimeError):
    pass


def _private(path: Path) -> None:
    """Readable by the owner only: the graph, its logs and its credentials are nobody else's."""
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
        os.chmod(path, mode & 0o700 if path.is_dir() else mode & 0o600)
    except FileNotFoundError:
        pass


def _server_child() -> None:
    os.umask(0o077)  # what the server writes is its owner's only
    stoppable()


def _private_tree(root: Path) -> None:
    _private(root)
    for path in root.rglob("*"):
        if not path.is_symlink():
            _private(path)


@dataclass
class ServerStatus:
    running: bool
    pid: int | None
    bolt_uri: str
    home: str
    seconds: float | None = None
    neo4j_version: str | None = None
    gds_version: str | None = None
    problem: str | None = None  # why the versions could not be read (a wrong password, say)

    def describe(self) -> str:
        if not self.running:
            return f"not running (home {self.home})"
        versions = (
            f"Neo4j {self.neo4j_version} with GDS {self.gds_version}"
            if self.neo4j_version
            else "Neo4j (version unknown)"
        )
        text = f"{versions} running on {self.bolt_uri} (pid {self.pid}), home {self.home}"
        return text + (f"; {self.problem}" if self.problem else "")

    def as_dict(self) -> dict:
        return asdict(self)


class Neo4jServer:
    def __init__(self, settings: ServerSettings, dist_root: Path | None = None, log=print):
        self.settings = settings
        self.home = Path(settings.home)
        self._dist_root = dist_root
        self._log = log

    # -- paths -----------------------------------------------------------------
    @property
    def pid_file(self) -> Path:
        return self.home / "run" / "neo4j.pid"

    @property
    def bolt_uri(self) -> str:
        return f"bolt://127.0.0.1:{self.settings.bolt_port}"

    def _log_tail(self, lines: int = 30) -> str:
        chunks = []
        for name in ("console.log", "neo4j.log"):
            path = self.home / "logs" / name
            if path.exists():
                text = path.read_text(errors="replace").strip().splitlines()[-lines:]
                chunks.append(f"--- {path} ---\n" + "\n".join(text))
        return "\n".join(chunks) or "(no log written)"

    # -- state -----------------------------------------------------------------
    def pid(self) -> int | None:
        return live_pid(self.pid_file)

    def _port_open(self) -> bool:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.settimeout(0.5)
            return sock.connect_ex(("127.0.0.1", self.settings.bolt_port)) == 0

    def _bolt_ready(self) -> bool:
        from neo4j import GraphDatabase
        from neo4j.exceptions import AuthError, ClientError, ServiceUnavailable

        try:
            with GraphDatabase.driver(self.bolt_uri, auth=("neo4j", self.settings.password)) as driver:
                driver.verify_connectivity()
            return True
        except AuthError as exc:
            raise ServerError(self._wrong_password()) from exc
        except ClientError as exc:
            if exc.code == "Neo.ClientError.Security.AuthenticationRateLimit":
                raise ServerError(
                    self._wrong_password() + " (after several wrong passwords Neo4j also refuses "
                    "logins for a few seconds)"
                ) from exc
            raise
        except (ServiceUnavailable, OSError):
            return False

    def _wrong_password(self) -> str:
        return (
            f"Neo4j at {self.bolt_uri} is running but rejects NEO4J_PASSWORD: its data under {self.home / 'data'} "
            "was created with another password. Set NEO4J_PASSWORD to that one, or stop the server and use a "
            "fresh GRAPHWIKI_HOME to start over."
        )

    def status(self) -> ServerStatus:
        pid = self.pid()
        running = pid is not None and self._port_open()
        status = ServerStatus(running, pid, self.bolt_uri, str(self.home))
        if running:
            status.neo4j_version, status.gds_version, status.problem = self._versions()
        return status

    def _versions(self) -> tuple[str | None, str | None, str | None]:
        from neo4j import GraphDatabase
        from neo4j.exceptions import AuthError, ClientError

        try:
            with GraphDatabase.driver(self.bolt_uri, auth=("neo4j", self.settings.password)) as driver:
                neo4j = driver.execute_query("CALL dbms.components() YIELD versions RETURN versions[0] AS v")
                try:
                    gds = driver.execute_query("RETURN gds.version() AS v").records[0]["v"]
                except ClientError:
                    return neo4j.records[0]["v"], None, "the GDS plugin is not loaded"
            return neo4j.records[0]["v"], gds, None
        except AuthError:
            return None, None, "it rejects NEO4J_PASSWORD (the data was created with another password)"
        except ClientError as exc:
            return None, None, f"it refused the version query: {exc.code}"
        except Exception as exc:  # a status call must not fail because a version query did
            return None, None, f"it did not answer a version query ({type(exc).__name__})"

    # -- lifecycle -------------------------------------------------------------
    def _write_config(self, dist: Distribution) -> Path:
        conf_dir = self.home / "conf"
        conf_dir.mkdir(parents=True, exist_ok=True)
        lines = {
            "server.default_listen_address": "127.0.0.1",
            "server.default_advertised_address": "127.0.0.1",
            "server.bolt.listen_address": f"127.0.0.1:{self.settings.bolt_port}",
            "server.bolt.advertised_address": f"127.0.0.1:{self.settings.bolt_port}",
            "server.http.enabled": "false",
            "server.https.enabled": "false",
            "dbms.security.auth_enabled": "true",
            "dbms.security.procedures.unrestricted": "gds.*",
            "dbms.usage_report.enabled": "false",
            "server.directories.data": str(self.home / "data"),
            "server.directories.logs": str(self.home / "logs"),
            "server.directories.run": str(self.home / "run"),
            "server.directories.plugins": str(dist.plugins),
            "server.directories.import": str(self.home / "import"),
            "server.memory.heap.initial_size": self.settings.heap,
            "server.memory.heap.max_size": self.settings.heap,
            "server.memory.pagecache.size": self.settings.pagecache,
            "db.tx_log.rotation.retention_policy": "1 days",
        }
        conf = conf_dir / "neo4j.conf"
        conf.write_text("".join(f"{k}={v}\n" for k, v in lines.items()))
        _private(conf_dir)
        _private(conf)
        return conf_dir

    def _env(self) -> dict:
        env = dict(os.environ)
        env["NEO4J_HOME"] = str(self.home)
        env["NEO4J_CONF"] = str(self.home / "conf")
        return env

    def _set_initial_password(self, java: str, dist: Distribution) -> None:
        auth = self.home / "data" / "dbms" / "auth.ini"
        if auth.exists():
            return
        # The password goes through an argument file readable by this user only, never on a
        # command line that any local user can read with `ps`.
        with tempfile.NamedTemporaryFile("w", dir=self.home / "run", prefix=".password-", delete=False) as fh:
            os.chmod(fh.name, 0o600)
            quoted = self.settings.password.replace("\\", "\\\\").replace('"', '\\"')
            fh.write(f'"{quoted}"\n')
        try:
            proc = subprocess.run(
                [java, "-cp", dist.classpath, ADMIN_TOOL, "dbms", "set-initial-password", f"@{fh.name}"],
                env=self._env(),
                capture_output=True,
                text=True,
                timeout=300,
            )
        finally:
            Path(fh.name).unlink(missing_ok=True)
        if proc.returncode != 0:
            raise ServerError(f"could not set the initial Neo4j password:\n{proc.stderr.strip()[-2000:]}")
        _private(auth)

    def start(self, timeout_s: float = 180.0) -> ServerStatus:
        started = time.monotonic()
        if self.pid() is not None:
            if self._wait_ready(min(timeout_s, 60.0)):
                return self._ready_status(started)
            raise ServerError(f"Neo4j (pid {self.pid()}) is running but Bolt does not answer.\n{self._log_tail()}")
        if self._port_open():
            raise ServerError(
                f"port {self.settings.bolt_port} on 127.0.0.1 is already taken by another process; "
                "stop it or choose another port with GRAPHWIKI_NEO4J_BOLT_PORT."
            )
        java = find_java()
        dist = ensure_distribution(self._dist_root, log=self._log)
        for sub in ("data", "logs", "run", "import"):
            (self.home / sub).mkdir(parents=True, exist_ok=True, mode=0o700)
        _private_tree(self.home)  # also a home made by an older version, with open modes
        conf_dir = self._write_config(dist)
        self._set_initial_password(java, dist)
        heap = [f"-Xms{self.settings.heap}", f"-Xmx{self.settings.heap}"]
        cmd = [
            java,
            *heap,
            *JVM_FLAGS,
            "-cp",
            dist.classpath,
            ENTRY_POINT,
            f"--home-dir={self.home}",
            f"--config-dir={conf_dir}",
        ]
        console = open(self.home / "logs" / "console.log", "ab")
        _private(self.home / "logs" / "console.log")
        proc = subprocess.Popen(
            cmd,
            env=self._env(),
            stdout=console,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            cwd=self.home,
            preexec_fn=_server_child,
        )
        console.close()
        self.pid_file.write_text(str(proc.pid))
        _private(self.pid_file)
        self._log(f"Neo4j starting (pid {proc.pid}) on {self.bolt_uri}, home {self.home}")
        if not self._wait_ready(timeout_s, proc):
            code = proc.poll()
            if code is None:
                self.stop()
            raise ServerError(
                f"Neo4j did not come up within {timeout_s:.0f}s"
                + (f" (exited with code {code})" if code is not None else "")
                + f".\n{self._log_tail()}"
            )
        return self._ready_status(started)

    def _ready_status(self, started: float) -> ServerStatus:
        status = self.status()
        status.seconds = round(time.monotonic() - started, 2)
        return status

    def _wait_ready(self, timeout_s: float, proc: subprocess.Popen | None = None) -> bool:
        return wait_until(lambda: self._port_open() and self._bolt_ready(), timeout_s, proc)

    def stop(self, timeout_s: float = 60.0) -> ServerStatus:
        stop_group(self.pid_file, timeout_s)
        return self.status()
