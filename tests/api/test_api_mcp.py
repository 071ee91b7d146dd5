"""MCP over streamable HTTP at ``/mcp`` of ``kgmem serve``, driven by the SDK's own client.

The command runs as a subprocess on a free port against the session's Neo4j, with an admin key
and one key per tenant namespace (the GraphQL keys), a small body limit, and inline extraction
so an observe's answer carries its receipts. Over the SDK's streamable-HTTP client with a bearer
key: the tools are listed, a conversation is observed, recalled, explained and forgotten. A
wrong key is refused with 401 before any MCP handling, a tenant key naming the other tenant's
namespace is a ``forbidden`` tool error, and a body over the limit is refused with 413 — each
with nothing written. In process, a key's rate budget is one for ``/graphql`` and ``/mcp``.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import uuid
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, TypeVar

import httpx
import pytest

pytest.importorskip("mcp")

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp_types import CallToolResult
from support.mcp_results import error_text, ok
from support.servers import wait_ready

from api.helpers import ADMIN_KEY, KEY_A, KEY_B, api_settings, running
from kgmem.api import create_app
from kgmem.local_server.launcher import free_port
from kgmem.service import Kgmem
from kgmem.settings import Settings

pytestmark = [pytest.mark.graph, pytest.mark.models, pytest.mark.slow]

T = TypeVar("T")
MAX_BODY = 65_536
TURNS = [
    {"text": "I adopted a greyhound called Pixel last month.", "role": "user", "speaker": "Rui"},
    {"text": "Lovely! How is Pixel settling in?", "role": "assistant"},
    {"text": "Pixel sleeps on the sofa all day and hates the rain.", "role": "user"},
]


class Served:
    def __init__(self, url: str, ns_a: str, ns_b: str) -> None:
        self.url, self.ns_a, self.ns_b = url, ns_a, ns_b

    def drive(self, key: str, steps: Callable[[Client], Awaitable[T]]) -> T:
        async def run() -> T:
            headers = {"Authorization": f"Bearer {key}"}
            async with httpx2.AsyncClient(headers=headers, timeout=300) as http:
                transport = streamable_http_client(f"{self.url}/mcp", http_client=http)
                async with Client(transport, read_timeout_seconds=300) as client:
                    return await steps(client)

        return asyncio.run(run())


@pytest.fixture(scope="module")
def served(env: dict[str, str], km: Kgmem, arun: Any) -> Iterator[Served]:
    ns_a, ns_b = f"mcp-a-{uuid.uuid4().hex[:8]}", f"mcp-b-{uuid.uuid4().hex[:8]}"
    keys = {ADMIN_KEY: ["*"], KEY_A: [ns_a], KEY_B: [ns_b]}
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen(
        [sys.executable, "-m", "kgmem", "serve", "--port", str(port), "--workers", "1"],
        env={
            **os.environ,
            **env,
            "KGMEM_API_KEYS": json.dumps(keys),
            "KGMEM_EXTRACTION_MODE": "inline",
            "KGMEM_API_MAX_BODY_BYTES": str(MAX_BODY),
        },
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_ready(url, proc)
        yield Served(url, ns_a, ns_b)
    finally:
        proc.terminate()
        proc.wait(timeout=60)
        for ns in (ns_a, ns_b):
            arun(km.wipe_namespace(ns))


def test_http_lists_observes_recalls_explains_and_forgets(
    served: Served, km: Kgmem, arun: Any
) -> None:
    async def steps(client: Client) -> dict[str, Any]:
        listed = await client.list_tools()
        observed = ok(await client.call_tool("observe", {"turns": TURNS, "flush": True}))
        recalled = ok(await client.call_tool("recall", {"query": "What is Rui's dog called?"}))
        explained = ok(await client.call_tool("explain", {"query": "What is Rui's dog called?"}))
        hit = recalled["hits"][0]["id"]
        forgotten = ok(await client.call_tool("forget", {"memory_id": hit, "hard": True}))
        after = ok(await client.call_tool("recall", {"query": "What is Rui's dog called?"}))
        return {
            "tools": {t.name for t in listed.tools},
            "observed": observed,
            "recalled": recalled,
            "explained": explained,
            "forgotten": forgotten,
            "after": after,
        }

    got = served.drive(KEY_A, steps)  # a tenant key: its only namespace is the default
    assert {"observe", "recall", "explain", "forget", "entity", "stats"} <= got["tools"]
    observed = got["observed"]
    assert observed["namespace"] == served.ns_a and observed["status"] == "extracted"
    assert observed["memories"] and len(observed["episode_ids"]) == 3
    hits = got["recalled"]["hits"]
    assert any("Pixel" in h["content"] for h in hits), hits
    assert got["explained"]["hits"] and got["explained"]["intent"]
    forgotten = got["forgotten"]
    assert forgotten["hard"] is True and forgotten["memories_erased"] >= 1
    assert forgotten["memory_id"] not in {h["id"] for h in got["after"]["hits"]}
    assert arun(km.get_memory(forgotten["memory_id"], namespace=served.ns_a)) is None


def test_http_wrong_key_is_refused_with_nothing_written(
    served: Served, km: Kgmem, arun: Any
) -> None:
    def counts() -> list[int]:
        return [arun(km.stats(namespace=ns))["nodes"] for ns in (served.ns_a, served.ns_b)]

    before = counts()
    call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "remember", "arguments": {"text": "Ivo keeps bees."}},
    }
    headers = {"Accept": "application/json, text/event-stream"}
    for sent in ({}, {"Authorization": "Bearer " + "w" * 40}):
        response = httpx.post(f"{served.url}/mcp", json=call, headers={**headers, **sent})
        assert response.status_code == 401, response.text
        assert response.json()["error"]["code"] == "unauthorized"

    async def steps(client: Client) -> CallToolResult:
        return await client.call_tool("remember", {"text": "Ivo keeps bees."})

    with pytest.raises(Exception):  # noqa: B017 - the SDK client cannot even connect
        served.drive("w" * 40, steps)
    assert counts() == before


def test_http_key_for_another_namespace_is_forbidden(served: Served, km: Kgmem, arun: Any) -> None:
    before = arun(km.stats(namespace=served.ns_b))["nodes"]

    async def steps(client: Client) -> list[CallToolResult]:
        return [
            await client.call_tool(
                "remember", {"text": "Ivo keeps bees.", "namespace": served.ns_b}
            ),
            await client.call_tool("recall", {"query": "bees", "namespace": served.ns_b}),
        ]

    for result in served.drive(KEY_A, steps):
        assert result.is_error and "forbidden" in error_text(result), result
        assert served.ns_b in error_text(result)
    assert arun(km.stats(namespace=served.ns_b))["nodes"] == before


def test_http_oversized_argument_is_refused_with_nothing_written(
    served: Served, km: Kgmem, arun: Any
) -> None:
    before = arun(km.stats(namespace=served.ns_b))["nodes"]
    huge = "bees " * (MAX_BODY // 4)
    call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "remember", "arguments": {"text": huge}},
    }
    response = httpx.post(
        f"{served.url}/mcp",
        json=call,
        headers={"Authorization": f"Bearer {KEY_B}", "Accept": "application/json"},
    )
    assert response.status_code == 413 and response.json()["error"]["code"] == "body_too_large"

    async def steps(client: Client) -> CallToolResult:
        # Under the body limit but over the content limit (8192 characters): the service's check.
        return await client.call_tool("remember", {"text": "b" * 9000})

    result = served.drive(KEY_B, steps)
    assert result.is_error and "invalid_input" in error_text(result)
    assert arun(km.stats(namespace=served.ns_b))["nodes"] == before


def test_one_rate_budget_per_key_covers_graphql_and_mcp(
    server_settings: Settings, km: Kgmem, arun: Any
) -> None:
    settings = api_settings(
        server_settings,
        api_keys={KEY_A: ["mcp-rate"]},
        api_rate_per_s=0.01,
        api_rate_burst=1,
        api_preload_models=False,
    )
    app = create_app(settings)
    headers = {"Authorization": f"Bearer {KEY_A}", "Accept": "application/json"}
    ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}

    async def calls() -> list[httpx.Response]:
        async with running(app) as client:
            return [
                await client.post("/graphql", json={"query": "{ __typename }"}, headers=headers),
                await client.post("/mcp", json=ping, headers=headers),
            ]

    graphql, mcp = arun(calls())
    assert graphql.status_code == 200, graphql.text
    assert mcp.status_code == 429 and mcp.json()["error"]["code"] == "rate_limited"
    assert int(mcp.headers["Retry-After"]) >= 1
