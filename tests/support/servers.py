"""A Neo4j + GDS server of a test's own, started through kgmem's launcher on free loopback ports.

``own_neo4j(home, **overrides)`` starts one with auth off and a small heap (``overrides`` are
``Settings`` fields) and yields its settings and server, stopping it afterwards: for the session's
shared server, and for tests that kill or stop theirs. ``wait_ready(url, proc)`` waits for a
``kgmem serve`` subprocess to answer ``/readyz`` (failing at once if the process died).
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from kgmem.local_server.launcher import LocalServer, free_port
from kgmem.settings import Settings


@contextmanager
def own_neo4j(home: Path, **overrides: Any) -> Iterator[tuple[Settings, LocalServer]]:
    port = free_port()
    fields: dict[str, Any] = {
        "home": home,
        "bolt_port": port,
        "neo4j_uri": f"bolt://127.0.0.1:{port}",
        "neo4j_auth": False,
        "neo4j_heap": "512m",
        "neo4j_pagecache": "64m",
        **overrides,
    }
    settings = Settings(**fields)
    server = LocalServer(settings)
    server.start()
    try:
        yield settings, server
    finally:
        server.stop()


def wait_ready(url: str, proc: subprocess.Popen[str], timeout_s: float = 240) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        try:
            if httpx.get(f"{url}/readyz", timeout=5).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(1)
    raise AssertionError(f"kgmem serve at {url} did not become ready")
