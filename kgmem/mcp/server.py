"""The kgmem MCP server: its tools and resources on the official SDK, and its stdio form.

Contract. :func:`build_server` makes an ``MCPServer`` (the SDK's high-level server) answering
through a :class:`~kgmem.mcp.calls.Backend`: the tools of :mod:`kgmem.mcp.tools` and the
resource template ``kgmem://overview/{namespace}``, a namespace's overview — its core memories,
recent changes, topics and triggers within a token budget (the service's ``resume`` context),
the text an agent reads when a session starts. :class:`StdioBackend` runs as the configured
namespace with its own service: it connects on the first call and again after a failure, so a
host can start the server before Neo4j and a call made while Neo4j is down is an
``unavailable`` error, not a hang or a false success. :func:`run_stdio` serves it on stdin and
stdout (``kgmem mcp``); only JSON-RPC goes to stdout, logs go to stderr.
"""

from __future__ import annotations

import asyncio

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError

import kgmem
from kgmem.api.auth import Principal
from kgmem.mcp import calls, tools
from kgmem.mcp.calls import Backend, Ctx, answer
from kgmem.service import Kgmem
from kgmem.settings import Settings

INSTRUCTIONS = (
    "kgmem is your long-term memory. At the start of a task read the overview resource "
    "(kgmem://overview/<namespace>) or recall what you need; store what the user tells you with "
    "observe (whole turns, flush=true at the end of a conversation) or remember (one explicit "
    "fact). Recall answers carry memory ids: use them to forget or correct a memory, and "
    "explain to see why a memory came back. Memories replaced by newer ones keep their "
    "history: timeline and entity show it."
)
OVERVIEW_TOKENS = 2_000


def build_server(backend: Backend) -> MCPServer:
    server: MCPServer = MCPServer(
        "kgmem", version=kgmem.__version__, instructions=INSTRUCTIONS, log_level="WARNING"
    )
    tools.register(server, backend)

    async def overview(namespace: str, ctx: Ctx) -> str:
        async def run() -> str:
            ns = calls.namespace(backend, ctx, namespace)
            km = await backend.service(ctx)
            context = await km.resume(ns, token_budget=OVERVIEW_TOKENS)
            return context.text

        return await answer("overview", run, ResourceError)

    server.resource(
        "kgmem://overview/{namespace}",
        name="overview",
        title="Namespace overview",
        description="What the memory holds for a namespace: core memories, recent changes, "
        "topics and triggers, within about 2000 tokens. Read it when a session starts.",
        mime_type="text/plain",
    )(overview)
    return server


class StdioBackend:
    """One user on this machine: the configured namespace, this process's own service."""

    def __init__(self, settings: Settings, km: Kgmem | None = None) -> None:
        self.settings = settings
        self.km = km or Kgmem(settings)  # a service of the caller's (a benchmark) may be lent
        self._principal = Principal("stdio", frozenset({settings.namespace}))
        self._connected = False
        self._lock = asyncio.Lock()

    async def service(self, ctx: Ctx) -> Kgmem:
        if not self._connected:
            async with self._lock:
                if not self._connected:
                    await self.km.open()  # GraphUnavailable when Neo4j is down: an error answer
                    self._connected = True
        return self.km

    def principal(self, ctx: Ctx) -> Principal:
        return self._principal

    def actor(self, ctx: Ctx) -> str:
        return "mcp:stdio"

    async def close(self) -> None:
        await self.km.close()


def run_stdio(settings: Settings) -> None:
    """Serve MCP on stdin/stdout as ``settings.namespace`` until the host closes the pipe."""
    backend = StdioBackend(settings)
    server = build_server(backend)

    async def main() -> None:
        try:
            await server.run_stdio_async()
        finally:
            await backend.close()

    anyio.run(main)
