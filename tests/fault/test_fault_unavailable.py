"""Typed errors for faults and bad variables: every GraphQL operation answers ``unavailable``
while Neo4j is down (a recall's task group wraps the failure in an exception group), a variable
of the wrong type is ``invalid_input`` naming it with no traceback logged, and ``kgmem
consolidate`` whose Neo4j dies mid-run prints one ``error:`` line, no traceback, exit 1.

Neo4j being down is a closed port for the API (nothing listens there), and a dedicated server,
killed while the command runs, for the CLI (never the session-shared one).
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import pytest
from api.helpers import ADMIN_KEY, Api, api_settings, running
from support.servers import own_neo4j

import kgmem
from kgmem.api import create_app
from kgmem.graph import lease_repository
from kgmem.local_server.launcher import LocalServer, free_port
from kgmem.service import Kgmem
from kgmem.settings import Settings

pytestmark = [pytest.mark.graph, pytest.mark.models]

ROOT = Path(kgmem.__file__).resolve().parents[1]  # the code under test, for the subprocess

OPERATIONS = [
    '{ recall(query: "where does Jon work?") { __typename } }',
    '{ recall(query: "where does Jon work?", explain: true) { __typename } }',
    '{ memory(id: "m-1") { id } }',
    "{ memories { nodes { id } } }",
    '{ entity(name: "Jon") { id } }',
    '{ facts(entity: "Jon") { __typename } }',
    "{ entities { id } }",
    "{ relations { source } }",
    '{ timeline(entity: "Jon") { id } }',
    '{ statusHistory(id: "m-1") { new } }',
    "{ topics { id } }",
    "{ boxes { id } }",
    "{ traces { id } }",
    "{ stats { nodes } }",
    'mutation { remember(input: {text: "Jon works at Acme."}) { __typename } }',
    'mutation { observe(turns: [{text: "I moved to Lisbon last May."}], flush: true) '
    "{ __typename } }",
    'mutation { forget(id: "m-1") { __typename } }',
    'mutation { pin(id: "m-1") { __typename } }',
    'mutation { feedback(id: "m-1", useful: true) { __typename } }',
]


@pytest.fixture(scope="module")
def down(server_settings: Settings, arun: Any) -> Iterator[Api]:
    """The API on a Neo4j that is not there: a port nothing listens on."""
    port = free_port()
    settings = api_settings(
        server_settings,
        neo4j_uri=f"bolt://127.0.0.1:{port}",
        bolt_port=port,
        neo4j_timeout_s=2.0,
        api_keys={ADMIN_KEY: ["*"]},
        api_preload_models=False,
    )
    app = create_app(settings)
    stack = AsyncExitStack()
    client = arun(stack.enter_async_context(running(app)))
    try:
        yield Api(app, client, arun, ns_a="default", ns_b="default")
    finally:
        arun(stack.aclose())


@pytest.mark.parametrize("document", OPERATIONS)
def test_every_operation_says_unavailable_while_neo4j_is_down(
    down: Api, document: str, caplog: pytest.LogCaptureFixture
) -> None:
    out = down.gql(document)
    codes = [e["extensions"]["code"] for e in out.get("errors") or []]
    assert codes and set(codes) == {"unavailable"}, out
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"


BAD_VARIABLES = [
    (
        "mutation($t: String!) { remember(input: {text: $t}) { __typename } }",
        {"t": 123},
        "$t",
    ),
    (
        "mutation($in: RememberInput!) { remember(input: $in) { __typename } }",
        {"in": {"text": 123}},
        "text",
    ),
    (
        'mutation($at: DateTime) { observe(turns: [{text: "hi there", at: $at}]) { __typename } }',
        {"at": "yesterday"},
        "$at",
    ),
    (
        "mutation($t: [TurnInput!]!) { observe(turns: $t) { __typename } }",
        {"t": [{"text": "hi there", "at": "yesterday"}]},
        "at",
    ),
    ("query($n: Int!) { entities(first: $n) { id } }", {"n": "ten"}, "$n"),
]


@pytest.mark.parametrize(("document", "variables", "named"), BAD_VARIABLES)
def test_a_variable_of_the_wrong_type_is_invalid_input_naming_it(
    down: Api,
    document: str,
    variables: dict[str, Any],
    named: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.DEBUG, logger="kgmem"):
        out = down.gql(document, variables)
    assert out.get("data") is None
    (error,) = out["errors"]
    assert error["extensions"]["code"] == "invalid_input", error
    assert named in error["message"], error
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


@pytest.fixture
def doomed_server(tmp_path: Path) -> Iterator[tuple[Settings, LocalServer]]:
    """A Neo4j of this test's own, which the test kills."""
    with own_neo4j(tmp_path / "neo4j-home") as started:
        yield started


def test_consolidate_prints_one_error_line_when_neo4j_dies_mid_run(
    doomed_server: tuple[Settings, LocalServer], arun: Any
) -> None:
    settings, server = doomed_server
    km = Kgmem(settings)

    async def fill() -> None:
        await km.open()
        await km.init_schema()
        for i in range(12):
            await km.remember(f"Jon Smith visited city number {i} with Maya in spring.")
        await km.close()

    arun(fill())
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "KGMEM_NEO4J_URI": settings.neo4j_uri,
        "KGMEM_NEO4J_AUTH": "false",
        "KGMEM_BOLT_PORT": str(settings.bolt_port),
        "KGMEM_NEO4J_TIMEOUT_S": "3",
    }
    cmd = [sys.executable, "-m", "kgmem", "consolidate"]
    run = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    watcher = Kgmem(settings)
    arun(watcher.open())

    async def lease_taken() -> bool:
        row = await lease_repository.get_consolidation_lease(watcher.graph, namespace="default")
        return row["holder"] is not None

    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline and run.poll() is None and not arun(lease_taken()):
            time.sleep(0.1)
    finally:
        arun(watcher.close())
    assert run.poll() is None, "consolidation ended before Neo4j could be killed"
    info = server.status()
    assert info is not None
    os.killpg(info.pid, signal.SIGKILL)  # this test's own server, by its id
    _, stderr = run.communicate(timeout=180)
    assert run.returncode == 1, stderr
    assert "Traceback" not in stderr, stderr
    errors = [line for line in stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "Neo4j" in errors[0], stderr
