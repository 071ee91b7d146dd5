"""MCP over streamable HTTP at ``/mcp`` in the API's Starlette app, behind the API's own keys.

Contract. :func:`mount` builds the route and the context manager the app's lifespan enters (the
SDK's session manager). Every POST to ``/mcp`` passes the same admission as ``/graphql``
(:meth:`kgmem.api.app.KgmemGraphQL.admit`: the bearer or ``X-API-Key`` key, 401 without a valid
one, 429 past the key's rate; the app's middleware already bounds the body size and the requests
in flight), and the accepted principal rides in the request's scope to
:class:`HttpBackend`, which confines every tool call to that key's namespaces and gives it the
app's service (connecting it if Neo4j was down at startup). The transport is stateless with
JSON responses: any API process of ``kgmem serve --workers N`` can answer any request, and no
session lives in one process's memory. DNS-rebinding protection (a ``Host``/``Origin`` check) is
on only when auth is disabled: with keys required, a page in a browser cannot call without one.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from typing import Any

from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from kgmem.api.auth import NOBODY, Principal
from kgmem.api.probes import ensure_connected
from kgmem.mcp.calls import Ctx
from kgmem.mcp.server import build_server
from kgmem.service import Kgmem
from kgmem.settings import Settings

PATH = "/mcp"
PRINCIPAL = "kgmem_principal"  # the scope-state key the admission leaves the caller under

Admit = Callable[[Request], Principal | Response]


class HttpBackend:
    """Calls over HTTP: the app's service, and the principal the request's key was admitted as."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    @staticmethod
    def _request(ctx: Ctx) -> Request:
        request = ctx.request_context.request
        assert isinstance(request, Request), "an HTTP call carries its request"
        return request

    async def service(self, ctx: Ctx) -> Kgmem:
        app: Starlette = self._request(ctx).scope["app"]
        await ensure_connected(app)  # if it fails, the call answers "unavailable"
        km: Kgmem = app.state.kgmem
        return km

    def principal(self, ctx: Ctx) -> Principal:
        # A request that passed no admission may use no namespace at all.
        found = self._request(ctx).scope.get("state", {}).get(PRINCIPAL, NOBODY)
        assert isinstance(found, Principal)
        return found

    def actor(self, ctx: Ctx) -> str:
        return f"mcp:{self.principal(ctx).name}"


class McpEndpoint:
    """The ASGI app at ``/mcp``: admission first, then the SDK's transport."""

    def __init__(self, manager: StreamableHTTPSessionManager, admit: Admit) -> None:
        self.manager, self.admit = manager, admit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            admitted = self.admit(Request(scope))
            if isinstance(admitted, Response):
                await admitted(scope, receive, send)
                return
            scope.setdefault("state", {})[PRINCIPAL] = admitted
        await self.manager.handle_request(scope, receive, send)


@dataclass(frozen=True)
class Mounted:
    route: Route
    running: Callable[[], AbstractAsyncContextManager[None]]


def mount(settings: Settings, admit: Admit) -> Mounted:
    server = build_server(HttpBackend(settings))
    local_only = TransportSecuritySettings(
        enable_dns_rebinding_protection=settings.api_auth_disabled,
        allowed_hosts=["127.0.0.1:*", "localhost:*", "[::1]:*"],
        allowed_origins=["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"],
    )
    # The SDK builds its session manager with the app it returns; only the manager is used.
    server.streamable_http_app(
        json_response=True,
        stateless_http=True,
        transport_security=local_only,
        max_request_body_size=settings.api_max_body_bytes,
    )
    manager = server.session_manager

    @asynccontextmanager
    async def running() -> AsyncIterator[None]:
        # The manager's task group must be entered and left by one task; a lifespan may be
        # entered and left by different ones (a test harness does), so a task of its own holds it.
        started, stop = asyncio.Event(), asyncio.Event()

        async def hold() -> None:
            async with manager.run():
                started.set()
                await stop.wait()

        holder = asyncio.create_task(hold())
        waiting = asyncio.create_task(started.wait())
        await asyncio.wait({holder, waiting}, return_when=asyncio.FIRST_COMPLETED)
        if holder.done():  # it failed to start: say why
            waiting.cancel()
            await holder
        try:
            yield
        finally:
            stop.set()
            await holder

    endpoint: Any = McpEndpoint(manager, admit)
    return Mounted(Route(PATH, endpoint, methods=["GET", "POST", "DELETE"]), running)
