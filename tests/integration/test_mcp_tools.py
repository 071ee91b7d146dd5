"""The MCP tools that edit and browse, on the real stack through the SDK's in-memory client.

The server is :func:`kgmem.mcp.server.build_server` on the session's service (confined to a
fresh namespace, as ``kgmem mcp`` is): remember answers with its receipt, correct supersedes the
memory it names, timeline and entity show the old value in the history and the new one as
current, stats counts both; a recall ``limit`` over the page size and an unknown profile are
tool errors that name the limit and the allowed profiles.
"""

from __future__ import annotations

from typing import Any

import pytest
from mcp import Client
from support.mcp_results import error_text, ok

from kgmem.mcp.server import StdioBackend, build_server
from kgmem.service import Kgmem

pytestmark = [pytest.mark.graph, pytest.mark.models]


def test_remember_correct_timeline_entity_and_stats(km: Kgmem, namespace: str, arun: Any) -> None:
    settings = km.settings.model_copy(update={"namespace": namespace})
    server = build_server(StdioBackend(settings, km))

    async def steps() -> dict[str, Any]:
        async with Client(server) as client:
            first = ok(
                await client.call_tool("remember", {"text": "Maya Johnson lives in Denver."})
            )
            old = first["receipt"]["memory_id"]
            fixed = ok(
                await client.call_tool(
                    "correct", {"memory_id": old, "text": "Maya Johnson lives in Boulder."}
                )
            )
            return {
                "first": first,
                "fixed": fixed,
                "timeline": ok(await client.call_tool("timeline", {"entity": "Maya Johnson"})),
                "entity": ok(await client.call_tool("entity", {"name": "Maya Johnson"})),
                "stats": ok(await client.call_tool("stats", {})),
                "too_many": await client.call_tool("recall", {"query": "Maya", "limit": 101}),
                "profile": await client.call_tool("recall", {"query": "Maya", "profile": "x"}),
            }

    got = arun(steps())
    first, fixed = got["first"], got["fixed"]
    assert first["namespace"] == namespace and first["receipt"]["action"] == "created"
    old, new = first["receipt"]["memory_id"], fixed["receipt"]["memory_id"]
    assert fixed["corrected_id"] == old and new != old
    assert fixed["receipt"]["action"] == "superseded" and old in fixed["receipt"]["related_ids"]
    assert arun(km.get_memory(old, namespace=namespace))["status"] == "superseded"

    entries = {e["id"]: e for e in got["timeline"]["entries"]}
    assert entries[old]["status"] == "superseded" and new in entries[old]["superseded_by"]
    assert entries[new]["status"] == "active"

    slots = {s["slot"]: s for s in got["entity"]["facts"]}
    residence = slots["residence"]
    assert [f["memory_id"] for f in residence["current"]] == [new]
    assert old in [f["memory_id"] for f in residence["history"]]

    assert got["stats"]["statuses"] == {"active": 1, "superseded": 1}
    assert got["too_many"].is_error and "page_too_large" in error_text(got["too_many"])
    assert "100" in error_text(got["too_many"])
    assert got["profile"].is_error and "balanced" in error_text(got["profile"])
