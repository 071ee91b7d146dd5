"""The API load benchmark's server side: ``api_server`` serves the real app
(``kgmem.api.app.create_app``) under uvicorn on a free loopback port in a child process
(``python -m benchmarks.perf.api_load --serve PORT`` runs ``serve``) with the given API keys and
stops it gracefully (``stack_env``: the environment a child process needs to reach the
benchmark's Neo4j, the API's and the extraction workers'); ``wait_ready`` polls ``/readyz``
until Neo4j, GDS and both models are loaded; ``tree_cpu_s`` reads a process tree's CPU seconds
from /proc and ``neo4j_pid`` the local server's pid, so the benchmark can charge CPU to the API
process and Neo4j; ``git_state`` records the commit and the changed files of the tree the child
serves.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

from benchmarks.common.paths import REPO
from kgmem.local_server.launcher import free_port
from kgmem.settings import Settings

ROOT = REPO


def serve(port: int) -> None:
    """Child process: the real app from the environment's settings, under uvicorn; with
    ``KGMEM_API_WORKERS`` above 1, that many processes from the app factory, as
    ``kgmem serve --workers N`` runs them (sharing metrics through ``KGMEM_API_METRICS_DIR``)."""
    import tempfile

    import uvicorn

    from kgmem.api.app import create_app
    from kgmem.api.processes import serve_processes

    logging.basicConfig(
        level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    settings = Settings()
    workers = max(1, settings.api_workers)
    if workers > 1:
        os.environ.setdefault("KGMEM_API_METRICS_DIR", tempfile.mkdtemp(prefix="kgmem-metrics-"))
        serve_processes(workers, "127.0.0.1", port, "warning")
        return
    uvicorn.run(
        create_app(settings), host="127.0.0.1", port=port, log_level="warning", access_log=False
    )


def stack_env(settings: Settings) -> dict[str, str]:
    """This environment plus what a child process needs to reach the benchmark's server."""
    env = dict(os.environ)
    env.update(
        {
            "KGMEM_HOME": str(settings.home),
            "KGMEM_BOLT_PORT": str(settings.bolt_port),
            "KGMEM_NEO4J_URI": settings.neo4j_uri,
            "KGMEM_NEO4J_AUTH": "true" if settings.neo4j_auth else "false",
        }
    )
    return env


@contextlib.contextmanager
def api_server(
    settings: Settings,
    keys: dict[str, list[str]],
    log_path: Path,
    neo4j_timeout_s: float,
    workers: int = 1,
    extraction_mode: str | None = None,
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """Serve the app on a free loopback port in a child process; SIGINT (graceful) at the end.
    ``extraction_mode`` (default: ``KGMEM_EXTRACTION_MODE``, else inline) is the API's."""
    port = free_port()
    env = stack_env(settings)
    env.update(
        {
            "KGMEM_NEO4J_TIMEOUT_S": str(neo4j_timeout_s),
            "KGMEM_API_KEYS": json.dumps(keys),
            "KGMEM_API_PRELOAD_MODELS": "true",
            "KGMEM_API_WORKERS": str(workers),
            # the benchmark's clients are the load: no 503 from the in-flight bound
            "KGMEM_API_MAX_IN_FLIGHT": "100000",
            # inline unless asked: observes extract inside the request; worker-mode intake (the
            # API's default) is measured with `kgmem worker` processes beside it (--extract-workers)
            "KGMEM_EXTRACTION_MODE": extraction_mode
            or os.environ.get("KGMEM_EXTRACTION_MODE", "inline"),
        }
    )
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "benchmarks.perf.api_load", "--serve", str(port)],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        yield f"http://127.0.0.1:{port}", proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


async def wait_ready(
    client: httpx.AsyncClient, proc: subprocess.Popen[bytes], workers: int = 1
) -> dict[str, Any]:
    """Poll /readyz until Neo4j, GDS and both models are loaded (the preload finished) in each
    of the ``workers`` processes: the kernel hands a connection to any of them, and the
    benchmark's keep-alive connections stay with the process that took them, so a process still
    loading its models would take none of the load."""
    deadline = time.monotonic() + 600
    body: dict[str, Any] = {}
    ready: set[int] = set()
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the API process exited with {proc.returncode}")
        try:
            r = await client.get("/readyz")
            body = r.json()
            checks = body.get("checks", {})
            if r.status_code == 200 and all(
                checks.get(m, {}).get("state") == "loaded" for m in ("embedder", "spacy")
            ):
                ready.add(int(body.get("pid", 0)))
                if len(ready) >= workers:
                    return body
                continue  # ask again on a new connection: another process may answer
            if any(c.get("state") == "failed" for c in checks.values()):
                raise RuntimeError(f"a model failed to load: {checks}")
        except httpx.TransportError:
            pass
        await asyncio.sleep(0.5)
    raise RuntimeError(f"the API did not become ready: {body}")


def tree_cpu_s(pid: int) -> float:
    """User + system CPU seconds of a process and its live descendants (0 if unreadable)."""
    tick = os.sysconf("SC_CLK_TCK")
    parent: dict[int, int] = {}
    cpu: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        p = int(entry.name)
        parent[p] = int(fields[1])
        cpu[p] = (int(fields[11]) + int(fields[12])) / tick
    wanted = {pid}
    grew = True
    while grew:
        more = {p for p, pp in parent.items() if pp in wanted} - wanted
        grew = bool(more)
        wanted |= more
    return sum(cpu.get(p, 0.0) for p in wanted)


def neo4j_pid(settings: Settings) -> int | None:
    with contextlib.suppress(OSError, ValueError, KeyError):
        return int(json.loads((settings.home / "server.json").read_text())["pid"])
    return None


def git_state() -> dict[str, Any]:
    """The commit and the files that differ from it: the run measures the working tree."""

    def git(*argv: str) -> str:
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            done = subprocess.run(["git", *argv], cwd=ROOT, capture_output=True, text=True)
            return done.stdout.strip()
        return ""

    return {"head": git("rev-parse", "HEAD"), "dirty": git("status", "--short").splitlines()}
