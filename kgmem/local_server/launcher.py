"""Start, stop and inspect the local Neo4j + GDS server built by ``tools/neo4j``.

The server is a Java process (``tools/neo4j/run.sh``) running an embedded Neo4j Community DBMS with
the open GDS procedures, Bolt on 127.0.0.1. ``LocalServer`` builds the launcher with Maven when
needed, starts the process detached with its output in ``<home>/launcher.log``, waits for its READY
line, and records ``<home>/server.json`` (pid, URI, versions) so ``status`` and ``stop`` work from
another process. Construction does no I/O. The Maven project is ``tools/neo4j`` of a source
checkout; an installed wheel carries a copy (``kgmem/local_server/neo4j_project``, see setup.py),
which the first ``build`` copies into a per-user cache (``launcher_cache_dir``) and builds there
(Maven resolves the jars into ~/.m2), since site-packages may be read-only.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from kgmem.errors import LauncherError
from kgmem.settings import Settings

READY = "KGMEM_NEO4J_READY"
BROWSER = "KGMEM_BROWSER"
ERROR = "KGMEM_NEO4J_ERROR"


PACKAGED = Path(__file__).resolve().parent / "neo4j_project"
CHECKOUT = Path(__file__).resolve().parents[2] / "tools" / "neo4j"


def tools_dir() -> Path:
    """The Maven project to build and run: the checkout's, else the per-user copy of the wheel's."""
    if (CHECKOUT / "pom.xml").exists():
        return CHECKOUT
    return launcher_cache_dir()


def launcher_cache_dir() -> Path:
    """Where an installed kgmem keeps its built launcher, keyed by the packaged pom (a new kgmem
    with new Neo4j or GDS versions builds afresh beside the old one)."""
    import hashlib

    try:
        from platformdirs import user_cache_dir

        base = Path(user_cache_dir("kgmem"))
    except ImportError:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "kgmem"
    pom = PACKAGED / "pom.xml"
    key = hashlib.sha256(pom.read_bytes()).hexdigest()[:12] if pom.exists() else "none"
    return base / f"neo4j-launcher-{key}"


def _unpack_packaged(target: Path) -> None:
    """Copy the wheel's Maven project to ``target`` once (write-then-rename: a concurrent
    first start never sees half a project)."""
    import shutil
    import tempfile

    if (target / "pom.xml").exists():
        return
    if not (PACKAGED / "pom.xml").exists():
        raise LauncherError(
            "the Neo4j launcher's Maven project is neither in a source checkout nor in this "
            "install: reinstall kgmem[server] from a wheel built by setup.py"
        )
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=target.parent, prefix=target.name + ".tmp"))
    try:
        shutil.copytree(PACKAGED, tmp, dirs_exist_ok=True)
        os.replace(tmp, target)
    except OSError:
        shutil.rmtree(tmp, ignore_errors=True)
        if not (target / "pom.xml").exists():
            raise


@dataclass(frozen=True)
class ServerInfo:
    pid: int
    uri: str
    neo4j_version: str
    gds_version: str
    home: str
    started_at: float
    start_seconds: float
    browser_url: str = ""  # the bundled Neo4j Browser's URL when browser_port serves one


def port_free(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError:
            return False
    return True


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A zombie (exited child not yet reaped) counts as gone.
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
            return fh.read().split(") ", 1)[1][0] != "Z"
    except OSError:
        return True


class LocalServer:
    """The local Neo4j + GDS server rooted at ``settings.home``."""

    def __init__(self, settings: Settings, *, auth: bool | None = None) -> None:
        self._settings = settings
        self.home = Path(settings.home).resolve()
        self.auth = settings.neo4j_auth if auth is None else auth
        self.info_file = self.home / "server.json"
        self.log_file = self.home / "launcher.log"

    def build(self) -> None:
        """Resolve Neo4j + GDS from Maven Central and compile the launcher (no-op when built)."""
        project = tools_dir()
        if project != CHECKOUT:
            _unpack_packaged(project)
        script = project / "build.sh"
        if not script.exists():
            raise LauncherError(f"{script} not found: the Maven project is incomplete")
        proc = subprocess.run(["bash", str(script)], capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            tail = (proc.stdout + proc.stderr).strip().splitlines()[-15:]
            raise LauncherError("building tools/neo4j with Maven failed:\n" + "\n".join(tail))

    def status(self) -> ServerInfo | None:
        """The running server's info, or None when none runs for this home."""
        if not self.info_file.exists():
            return None
        info = ServerInfo(**json.loads(self.info_file.read_text()))
        if not pid_alive(info.pid):
            self.info_file.unlink(missing_ok=True)
            return None
        return info

    def start(self) -> ServerInfo:
        """Start the server (or return the one already running) and wait until Bolt answers."""
        running = self.status()
        if running is not None:
            return running
        port = self._settings.bolt_port
        if not port_free(port):
            raise LauncherError(
                f"Bolt port {port} on 127.0.0.1 is already taken by another process: stop it, "
                "or choose another port with KGMEM_BOLT_PORT"
            )
        self.build()
        self.home.mkdir(parents=True, exist_ok=True)
        (self.home / "neo4j" / "ready").unlink(missing_ok=True)
        env = dict(os.environ)
        env["KGMEM_LAUNCHER_HEAP"] = self._settings.neo4j_heap
        args = [
            "bash",
            str(tools_dir() / "run.sh"),
            "--home",
            str(self.home / "neo4j"),
            "--bolt",
            f"127.0.0.1:{port}",
            "--pagecache",
            self._settings.neo4j_pagecache,
            "--browser-port",
            str(self._settings.browser_port),
        ]
        if self.auth:
            args += ["--auth", "password"]
            env["KGMEM_LAUNCHER_PASSWORD"] = self._settings.neo4j_password_value()
        else:
            args += ["--auth", "none"]
        t0 = time.monotonic()
        with open(self.log_file, "wb") as log:  # fresh log: READY must come from this run
            proc = subprocess.Popen(
                args, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True
            )
        line = self._wait_ready(proc, t0)
        parts = dict(p.split("=", 1) for p in line.split()[2:])
        info = ServerInfo(
            pid=proc.pid,
            uri=line.split()[1],
            neo4j_version=parts.get("neo4j", "?"),
            gds_version=parts.get("gds", "?"),
            home=str(self.home),
            started_at=time.time(),
            start_seconds=round(time.monotonic() - t0, 2),
            browser_url=self._browser_url(),
        )
        self.info_file.write_text(json.dumps(asdict(info)))
        return info

    def _browser_url(self) -> str:
        """The Browser URL the launcher printed (it serves the Browser before Bolt is ready)."""
        for line in self.log_file.read_text(errors="replace").splitlines():
            if line.startswith(BROWSER + " "):
                return line.split(None, 1)[1].strip()
        return ""

    def _wait_ready(self, proc: subprocess.Popen[bytes], t0: float) -> str:
        deadline = t0 + self._settings.start_timeout_s
        seen = 0
        while time.monotonic() < deadline:
            text = self.log_file.read_text(errors="replace")
            for line in text[seen:].splitlines():
                if line.startswith(READY):
                    return line.strip()
                if line.startswith(ERROR):
                    proc.wait(timeout=30)
                    reason = line[len(ERROR) :].strip()
                    if reason.startswith("port_in_use"):
                        raise LauncherError(
                            f"Bolt port {self._settings.bolt_port} is already in use: "
                            "choose another with KGMEM_BOLT_PORT"
                        )
                    raise LauncherError(f"the Neo4j launcher failed: {reason}")
            if proc.poll() is not None:
                tail = "\n".join(text.strip().splitlines()[-10:])
                raise LauncherError(f"the Neo4j launcher exited ({proc.returncode}):\n{tail}")
            time.sleep(0.2)
        self._kill(proc.pid)
        raise LauncherError(f"Neo4j did not answer within {self._settings.start_timeout_s:.0f}s")

    def stop(self, timeout_s: float = 60.0) -> bool:
        """Stop the running server cleanly; True when one was running."""
        info = self.status()
        if info is None:
            return False
        os.killpg(info.pid, signal.SIGTERM)
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline and pid_alive(info.pid):
            time.sleep(0.2)
        if pid_alive(info.pid):
            self._kill(info.pid)
        self.info_file.unlink(missing_ok=True)
        return True

    @staticmethod
    def _kill(pid: int) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pid, signal.SIGKILL)
