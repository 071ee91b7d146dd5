"""Shared fixtures: one real Neo4j + GDS server per test session, the real models, one loop.

The server is started through kgmem's own launcher (``LocalServer``) on a free loopback port with
auth off and a temporary home, and stopped at the end of the session. Graph tests get a fresh
namespace each, so they never see each other's data. Async code runs on one session-wide event
loop (``arun``), because the async Neo4j driver is bound to the loop that created it.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import settings
from support.servers import own_neo4j

from kgmem.service import Kgmem
from kgmem.settings import Settings

T = TypeVar("T")

# Property tests check laws, not speed (speed is measured in benchmarks/): no per-example
# deadline, which a loaded 2-core machine (CI, a Neo4j beside the tests) would trip at random.
settings.register_profile("kgmem", deadline=None)
settings.load_profile("kgmem")

# The folders whose tests run against the database. Marking them here, by where they live, keeps
# `pytest -m "not graph"` runnable without Neo4j whatever a test file remembers to declare; a test
# elsewhere that asks for the session's server (directly or through a fixture) is marked as well.
GRAPH_FOLDERS = frozenset({"api", "browser", "fault", "integration"})
TESTS_ROOT = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        path = item.path.resolve()
        folder = path.relative_to(TESTS_ROOT).parts[0] if path.is_relative_to(TESTS_ROOT) else ""
        uses_server = "server_settings" in getattr(item, "fixturenames", ())
        if (folder in GRAPH_FOLDERS or uses_server) and item.get_closest_marker("graph") is None:
            item.add_marker(pytest.mark.graph)


@pytest.fixture(scope="session")
def runner() -> Iterator[asyncio.Runner]:
    with asyncio.Runner() as r:
        yield r


@pytest.fixture(scope="session")
def arun(runner: asyncio.Runner) -> Any:
    def run(coro: Coroutine[Any, Any, T]) -> T:
        return runner.run(coro)

    return run


@pytest.fixture(scope="session")
def server_settings(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Settings]:
    home: Path = tmp_path_factory.mktemp("neo4j-home")
    with own_neo4j(home, neo4j_heap="1g", neo4j_pagecache="128m") as (settings, _):
        yield settings


@pytest.fixture(scope="session")
def env(server_settings: Settings) -> dict[str, str]:
    """The ``KGMEM_*`` environment that points the CLI at the session's server."""
    return {
        "KGMEM_NEO4J_URI": server_settings.neo4j_uri,
        "KGMEM_NEO4J_AUTH": "false",
        "KGMEM_BOLT_PORT": str(server_settings.bolt_port),
        "KGMEM_HOME": str(server_settings.home),
    }


@pytest.fixture(scope="session")
def km(server_settings: Settings, arun: Any) -> Iterator[Kgmem]:
    service = Kgmem(server_settings)
    arun(service.open())
    arun(service.init_schema())
    try:
        yield service
    finally:
        arun(service.close())


@pytest.fixture
def namespace(km: Kgmem, arun: Any) -> Iterator[str]:
    ns = f"t-{uuid.uuid4().hex[:12]}"
    yield ns
    arun(km.wipe_namespace(ns))


@pytest.fixture
def tuned(server_settings: Settings, arun: Any) -> Iterator[Any]:
    """A second service on the same server with some settings changed."""
    opened: list[Kgmem] = []

    def make(**update: Any) -> Kgmem:
        service = Kgmem(server_settings.model_copy(update=update))
        arun(service.open())
        opened.append(service)
        return service

    yield make
    for service in opened:
        arun(service.close())
