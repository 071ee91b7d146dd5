"""Fault suite: bad text and an empty namespace are a typed ``invalid_input`` on every surface.

A lone surrogate (what a broken client or an undecodable command-line byte produces), a C0
control character other than tab, newline and carriage return, and ``namespace=""`` are refused
by the Python service, the CLI (one red line, no traceback), the GraphQL API (``Rejected`` with
code ``invalid_input`` naming the field and the turn's index) and the SDK client (the same
``InvalidInput`` the service raises) — and nothing is written. Earlier versions raised
``UnicodeEncodeError`` from deep in the write path (a traceback, ``internal_error``) and stored
``namespace=""`` in the default namespace.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from api.helpers import ADMIN_KEY, running
from pydantic import ValidationError
from starlette.applications import Starlette
from typer.testing import CliRunner

from kgmem.api import create_app
from kgmem.cli import app
from kgmem.errors import InvalidInput, KgmemError
from kgmem.records import Turn
from kgmem.sdk.client import KgmemClient
from kgmem.service import Kgmem
from kgmem.settings import Settings

pytestmark = [pytest.mark.graph, pytest.mark.models]

SURROGATE = "Maya likes tea \ud800 a lot."
CONTROL = "Maya likes tea\u0007 a lot."


@pytest.fixture(scope="module")
def served(server_settings: Settings, km: Kgmem, arun: Any) -> Iterator[tuple[Starlette, Any]]:
    """The GraphQL app with an admin key, on the session's Neo4j (km: schema applied), and an
    httpx client bound to it."""
    api = create_app(server_settings.model_copy(update={"api_keys": {ADMIN_KEY: ["*"]}}))
    stack = AsyncExitStack()
    http = arun(stack.enter_async_context(running(api)))
    try:
        yield api, http
    finally:
        arun(stack.aclose())


@pytest.fixture(scope="module")
def client(served: tuple[Starlette, httpx.AsyncClient]) -> httpx.AsyncClient:
    return served[1]


def _counts(km: Kgmem, arun: Any, namespace: str) -> tuple[int, int]:
    labels = arun(km.stats(namespace=namespace))["labels"]
    return labels.get("Episode", 0), labels.get("Memory", 0)


def _gql(client: httpx.AsyncClient, arun: Any, query: str, variables: dict[str, Any]) -> Any:
    # Encoded by hand: JSON escapes a lone surrogate as \ud800, which httpx's encoder refuses.
    body = json.dumps({"query": query, "variables": variables}).encode()
    headers = {"Authorization": f"Bearer {ADMIN_KEY}", "Content-Type": "application/json"}
    response = arun(client.post("/graphql", content=body, headers=headers))
    assert response.status_code == 200, response.text
    data = response.json()
    assert not data.get("errors"), data["errors"]
    return data["data"]


OBSERVE = """
mutation($turns: [TurnInput!]!, $ns: String) {
  observe(turns: $turns, namespace: $ns, flush: true) {
    __typename ... on Rejected { reason code }
  }
}"""

REMEMBER = """
mutation($text: String!, $ns: String) {
  remember(input: {text: $text, namespace: $ns}) {
    __typename ... on Rejected { reason code }
  }
}"""

RECALL = """
query($q: String!, $ns: String) {
  recall(query: $q, namespace: $ns) { __typename ... on Rejected { reason code } }
}"""


# --- the Python service ---------------------------------------------------------------------


@pytest.mark.parametrize(("text", "says"), [(SURROGATE, "surrogate"), (CONTROL, "control")])
def test_service_refuses_bad_text_naming_the_field(
    text: str, says: str, km: Kgmem, arun: Any, namespace: str
) -> None:
    with pytest.raises(InvalidInput, match=f"text.*{says}"):
        arun(km.remember(text, namespace=namespace))
    good = Turn(text="Maya moved to Denver in 2021.", speaker="Maya")
    with pytest.raises(InvalidInput, match=rf"turns\[1\].*text.*{says}"):
        arun(km.observe([good, Turn(text=text)], namespace=namespace, flush=True))
    with pytest.raises(InvalidInput, match=rf"turns\[0\].*speaker.*{says}"):
        arun(km.observe([Turn(text="Hello there.", speaker=text)], namespace=namespace))
    with pytest.raises(InvalidInput, match=f"query.*{says}"):
        arun(km.recall(text, namespace=namespace))
    assert _counts(km, arun, namespace) == (0, 0)


def test_tab_newline_and_carriage_return_are_still_text(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    receipt = arun(km.remember("Maya likes\ttea,\r\nand coffee.", namespace=namespace))
    assert receipt.action == "created"


def test_service_refuses_an_empty_namespace_and_writes_nothing(km: Kgmem, arun: Any) -> None:
    before = _counts(km, arun, km.settings.namespace)
    with pytest.raises(InvalidInput, match="namespace"):
        arun(km.remember("Ravi collects stamps from Peru.", namespace=""))
    with pytest.raises(InvalidInput, match="namespace"):
        arun(km.observe([Turn(text="Ravi collects stamps.")], namespace="", flush=True))
    with pytest.raises(InvalidInput, match="namespace"):
        arun(km.recall("stamps", namespace=""))
    with pytest.raises(InvalidInput, match="namespace"):
        arun(km.stats(namespace=""))
    assert _counts(km, arun, km.settings.namespace) == before
    with pytest.raises((ValidationError, KgmemError)):
        Settings(namespace="")


# --- the CLI --------------------------------------------------------------------------------


def test_cli_refuses_bad_text_and_an_empty_namespace_as_one_red_line(
    env: dict[str, str], km: Kgmem, arun: Any, namespace: str
) -> None:
    runner = CliRunner()
    before = _counts(km, arun, km.settings.namespace)
    for args, needle in (
        (["remember", "caf\udce9 au lait", "-n", namespace], "surrogate"),
        (["remember", CONTROL, "-n", namespace], "control"),
        (["recall", "caf\udce9", "-n", namespace], "surrogate"),
        (["remember", "Ravi collects stamps from Peru.", "-n", ""], "namespace"),
    ):
        result = runner.invoke(app, args, env=env)
        assert result.exit_code == 1, (args, result.stdout, result.stderr, result.exception)
        assert isinstance(result.exception, SystemExit), result.exception
        lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
        assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
        assert needle in lines[0], lines[0]
    assert _counts(km, arun, namespace) == (0, 0)
    assert _counts(km, arun, km.settings.namespace) == before


def test_a_subprocess_given_an_undecodable_argument_prints_no_traceback(
    env: dict[str, str], tmp_path: Path
) -> None:
    # A byte that is not UTF-8 reaches Python as a lone surrogate (surrogateescape).
    proc = subprocess.run(
        [sys.executable, "-m", "kgmem", "remember", b"caf\xe9 au lait", "-n", "fault-bad-text"],
        capture_output=True,
        env={**os.environ, **env},
        timeout=300,
        check=False,
    )
    stderr = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 1, stderr
    assert "Traceback" not in stderr
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: text "), stderr


# --- GraphQL and the SDK --------------------------------------------------------------------


def test_graphql_refuses_bad_text_naming_the_turn_and_field(
    client: httpx.AsyncClient, km: Kgmem, arun: Any, namespace: str
) -> None:
    good = {"text": "Maya moved to Denver in 2021.", "speaker": "Maya"}
    for text, says in ((SURROGATE, "surrogate"), (CONTROL, "control")):
        out = _gql(client, arun, OBSERVE, {"turns": [good, good, {"text": text}], "ns": namespace})
        observed = out["observe"]
        assert observed["__typename"] == "Rejected", observed
        assert observed["code"] == "invalid_input"
        assert "turns[2]" in observed["reason"] and says in observed["reason"], observed
        out = _gql(client, arun, OBSERVE, {"turns": [good | {"speaker": text}], "ns": namespace})
        assert "turns[0]" in out["observe"]["reason"] and "speaker" in out["observe"]["reason"]
        remembered = _gql(client, arun, REMEMBER, {"text": text, "ns": namespace})["remember"]
        assert remembered["code"] == "invalid_input" and says in remembered["reason"], remembered
        recalled = _gql(client, arun, RECALL, {"q": text, "ns": namespace})["recall"]
        assert recalled["code"] == "invalid_input" and "query" in recalled["reason"], recalled
    assert _counts(km, arun, namespace) == (0, 0)


def test_graphql_refuses_an_empty_namespace(
    client: httpx.AsyncClient, km: Kgmem, arun: Any
) -> None:
    before = _counts(km, arun, km.settings.namespace)
    out = _gql(client, arun, REMEMBER, {"text": "Ravi collects stamps from Peru.", "ns": ""})
    assert out["remember"]["code"] == "invalid_input", out
    assert _counts(km, arun, km.settings.namespace) == before


def test_sdk_client_raises_the_services_invalid_input(
    served: tuple[Starlette, httpx.AsyncClient], km: Kgmem, arun: Any, namespace: str
) -> None:
    transport = httpx.ASGITransport(app=served[0])

    async def go() -> list[str]:
        messages: list[str] = []
        async with KgmemClient("http://kgmem.test", ADMIN_KEY, transport=transport) as remote:
            for call in (
                lambda: remote.remember(SURROGATE, namespace=namespace),
                lambda: remote.observe([Turn(text=SURROGATE)], namespace=namespace),
                lambda: remote.remember("Ravi collects stamps.", namespace=""),
            ):
                try:
                    await call()
                except InvalidInput as exc:
                    messages.append(exc.message)
        return messages

    messages = arun(go())
    assert len(messages) == 3, messages
    assert "surrogate" in messages[0] and "turns[0]" in messages[1]
    assert "namespace" in messages[2]
    assert _counts(km, arun, namespace) == (0, 0)
