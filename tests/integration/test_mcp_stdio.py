"""``kgmem mcp`` as a local MCP host runs it: a subprocess on stdio, driven by the SDK's client.

Every test spawns ``python -m kgmem mcp`` with the session's ``KGMEM_*`` environment and a fresh
namespace, then talks to it only through ``mcp.Client``: the tools are listed with their
schemas, a conversation is observed and comes back as receipts whose memory ids exist in the
graph, recall finds it with ids, validity and a why, explain shows the X-ray, forget removes a
hit from recall, the overview resource reads the namespace. A namespace other than the
configured one, a text over the content limit and a server pointed at a closed port are tool
errors with a message, and nothing is written.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest

pytest.importorskip("mcp")

from mcp import Client, StdioServerParameters
from mcp_types import CallToolResult
from support.mcp_results import error_text, ok

from kgmem.local_server.launcher import free_port
from kgmem.service import Kgmem

pytestmark = [pytest.mark.graph, pytest.mark.models, pytest.mark.slow]

T = TypeVar("T")
TOOLS = {
    "observe",
    "remember",
    "recall",
    "explain",
    "forget",
    "correct",
    "timeline",
    "entity",
    "stats",
}
CONVERSATION = [
    {
        "text": "I moved to Lisbon last spring and I work as a nurse at the children's hospital.",
        "role": "user",
        "speaker": "Maya",
        "session_id": "s1",
    },
    {"text": "That sounds rewarding. How do you like Lisbon?", "role": "assistant"},
    {
        "text": "I love it. My sister Ines lives nearby and we go sailing every weekend.",
        "role": "user",
        "speaker": "Maya",
        "session_id": "s1",
    },
]


def _server(env: dict[str, str], **extra: str) -> StdioServerParameters:
    # The whole environment: the subprocess must import this checkout as the tests do.
    return StdioServerParameters(
        command=sys.executable, args=["-m", "kgmem", "mcp"], env={**os.environ, **env, **extra}
    )


def _drive(server: StdioServerParameters, steps: Callable[[Client], Awaitable[T]]) -> T:
    async def run() -> T:
        async with Client(server, read_timeout_seconds=300) as client:
            return await steps(client)

    return asyncio.run(run())


def test_stdio_lists_observes_recalls_explains_and_forgets(
    env: dict[str, str], km: Kgmem, namespace: str, arun: Any
) -> None:
    async def steps(client: Client) -> dict[str, Any]:
        listed = await client.list_tools()
        observed = ok(await client.call_tool("observe", {"turns": CONVERSATION, "flush": True}))
        recalled = ok(await client.call_tool("recall", {"query": "Where does Maya live?"}))
        explained = ok(await client.call_tool("explain", {"query": "Where does Maya live?"}))
        first = recalled["hits"][0]["id"]
        forgotten = ok(await client.call_tool("forget", {"memory_id": first}))
        after = ok(await client.call_tool("recall", {"query": "Where does Maya live?"}))
        stats = ok(await client.call_tool("stats", {}))
        overview = await client.read_resource(f"kgmem://overview/{namespace}")
        return {
            "tools": {t.name: t for t in listed.tools},
            "observed": observed,
            "recalled": recalled,
            "explained": explained,
            "forgotten": forgotten,
            "after": after,
            "stats": stats,
            "overview": overview,
        }

    got = _drive(_server(env, KGMEM_NAMESPACE=namespace), steps)

    assert set(got["tools"]) == TOOLS
    recall_schema = got["tools"]["recall"].input_schema
    assert recall_schema["required"] == ["query"]
    assert {"as_of", "profile", "limit", "categories"} <= set(recall_schema["properties"])
    assert got["tools"]["forget"].annotations.destructive_hint is True

    observed = got["observed"]
    assert observed["namespace"] == namespace
    assert observed["status"] == "extracted" and observed["new_episodes"] == 3
    assert len(observed["episode_ids"]) == 3 and observed["memories"]
    # The receipt names what was stored: every memory it reports is in the graph.
    for receipt in observed["memories"]:
        if receipt["action"] in ("created", "reinforced", "superseded", "updated"):
            assert arun(km.get_memory(receipt["memory_id"], namespace=namespace)) is not None

    hits = got["recalled"]["hits"]
    assert hits and any("Lisbon" in h["content"] for h in hits)
    assert all(h["id"] and h["why"].startswith("found by") for h in hits)
    assert "valid_from" in hits[0] and "valid_until" in hits[0]

    explained = got["explained"]
    assert explained["hits"] and explained["timings_ms"]
    assert explained["hits"][0]["contributions"]

    forgotten = got["forgotten"]
    assert forgotten["status"] == "deleted" and forgotten["hard"] is False
    assert forgotten["memory_id"] not in {h["id"] for h in got["after"]["hits"]}
    assert arun(km.get_memory(forgotten["memory_id"], namespace=namespace))["status"] == "deleted"

    assert got["stats"]["namespace"] == namespace
    assert got["stats"]["statuses"].get("deleted") == 1
    text = got["overview"].contents[0].text
    assert isinstance(text, str) and text.strip()


def test_stdio_refuses_other_namespace_and_oversized_text_writing_nothing(
    env: dict[str, str], km: Kgmem, namespace: str, arun: Any
) -> None:
    other = namespace + "-other"

    async def steps(client: Client) -> list[CallToolResult]:
        return [
            await client.call_tool("remember", {"text": "Ivo keeps bees.", "namespace": other}),
            await client.call_tool("remember", {"text": "x" * 9000}),  # max_content_chars 8192
            await client.call_tool("forget", {"memory_id": "no-such-memory"}),
        ]

    foreign, oversized, unknown = _drive(_server(env, KGMEM_NAMESPACE=namespace), steps)
    assert foreign.is_error and "forbidden" in error_text(foreign) and other in error_text(foreign)
    assert oversized.is_error and "invalid_input" in error_text(oversized)
    assert unknown.is_error and "not_found" in error_text(unknown)
    for ns in (namespace, other):
        assert arun(km.stats(namespace=ns))["nodes"] == 0


def test_stdio_with_neo4j_down_answers_an_error_not_a_success(
    env: dict[str, str], namespace: str
) -> None:
    closed = f"bolt://127.0.0.1:{free_port()}"  # nothing listens there

    async def steps(client: Client) -> tuple[CallToolResult, CallToolResult]:
        written = await client.call_tool("remember", {"text": "Ivo keeps bees."})
        read = await client.call_tool("recall", {"query": "what does Ivo keep?"})
        return written, read

    server = _server(env, KGMEM_NAMESPACE=namespace, KGMEM_NEO4J_URI=closed)
    written, read = _drive(server, steps)
    for result in (written, read):
        assert result.is_error, result
        assert "unavailable: the memory service cannot answer" in error_text(result)
        assert result.structured_content is None
