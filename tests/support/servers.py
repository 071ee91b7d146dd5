"""A Neo4j + GDS server of a test's own, started through kgmem's launcher on free loopback ports.

``own_neo4j(home, **overrides)`` starts one with auth off and a small heap (``overrides`` are
``Settings`` fields) and yields its settings and server, stopping it afterwards: for the session's
shared server, and for tests that kill or stop theirs.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from kgmem.graph.launcher import LocalServer, free_port
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
