"""The Starlette app: ``create_app(settings)`` serves ``/graphql`` (+ GraphiQL), ``/mcp`` (the
MCP server over streamable HTTP, :mod:`kgmem.mcp.http`, when the ``mcp`` extra is installed),
``/xray``, ``/healthz``, ``/readyz`` and ``/metrics``.

The app's lifespan owns the service: it builds one :class:`~kgmem.service.Kgmem` (the Neo4j
driver and the models) from the settings, connects it, loads the models in a worker thread in
the background (``api_preload_models``), and closes it on shutdown. Building the app does no I/O
beyond reading the API key file, and refuses a bad key configuration at once (``ConfigError``).
``/graphql`` takes POSTs with an API key (see ``kgmem.api.auth``) and shows GraphiQL to a browser
GET (add the key as a header in GraphiQL's headers pane). ``/healthz`` answers while the process
runs; ``/readyz`` answers 200 only when Neo4j and GDS answer and both models are loaded or
loadable (503 with the failing checks otherwise); ``/metrics`` is Prometheus text; ``/xray`` is
the recall X-ray page (``kgmem.api.xray_page``: no data, no key to load, it calls ``/graphql``);
GraphiQL at ``GET /graphql`` with its assets under ``/graphiql/`` (``kgmem.api.graphiql_page``).
Every error a caller sees is JSON with a code and a message, never a traceback. The probes and
the lazy Neo4j connection they share are in :mod:`kgmem.api.probes`.

Backpressure (:mod:`kgmem.api.admission`): past ``api_max_in_flight`` GraphQL and MCP requests at
once this process answers 503, and a key past its ``api_rate_per_s`` 429, both with
``Retry-After``; ``/mcp`` admits its callers through the same keys and buckets (``admit``).
Every GraphQL request runs in a consistency scope: the bookmarks of the writes it made come back
in the response's ``extensions.bookmarks`` (the token a later ``recall(bookmarks: ...)`` passes
to read those writes on a cluster). ``create_app()`` with no argument builds its settings from
the environment: it is the factory ``kgmem serve --workers N`` gives uvicorn for each process.
``extraction_mode=auto`` is ``worker`` under the app (:func:`serving`): observe stores the turns
and answers, and ``kgmem worker`` processes extract them.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, nullcontext
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from strawberry.asgi import GraphQL

from kgmem.api import graphiql_page, process_metrics, xray_page
from kgmem.api.admission import InFlightLimit, TokenBuckets, retry_after
from kgmem.api.auth import ANONYMOUS_ADMIN, NOBODY, KeyRing, Principal, presented_key
from kgmem.api.context import ApiContext
from kgmem.api.limits import BodySizeLimit
from kgmem.api.loaders import Loaders
from kgmem.api.metrics import Metrics
from kgmem.api.probes import RECONNECT_EVERY_S, ensure_connected, healthz, metrics_endpoint, readyz
from kgmem.api.schema import build_schema
from kgmem.errors import ModelUnavailable
from kgmem.extras import missing
from kgmem.service import Kgmem
from kgmem.settings import Settings

if TYPE_CHECKING:
    from kgmem.mcp.http import Mounted

log = logging.getLogger("kgmem.api")
ROUTES = ("/graphql", "/mcp", "/xray", "/healthz", "/readyz", "/metrics")


def _error(status: int, code: str, message: str, **headers: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status, headers=headers)


class KgmemGraphQL(GraphQL[ApiContext, None]):
    """Strawberry's ASGI view with the API-key gate in front and an :class:`ApiContext`."""

    def __init__(self, settings: Settings, keyring: KeyRing, metrics: Metrics) -> None:
        super().__init__(
            build_schema(settings), graphql_ide="graphiql", allow_queries_via_get=False
        )
        self.settings, self.keyring, self.metrics = settings, keyring, metrics
        self.buckets = TokenBuckets(settings.api_rate_per_s, settings.api_rate_burst)

    @property
    def graphql_ide_html(self) -> str:
        return graphiql_page.graphiql_html()  # assets served here, not from a CDN

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        # Only POST executes operations (GET only renders GraphiQL), so only POST needs a key.
        if scope["type"] == "http" and scope["method"] == "POST":
            principal = self.admit(Request(scope))
            if isinstance(principal, Response):
                await principal(scope, receive, send)
                return
            scope.setdefault("state", {})["principal"] = principal
        # The writes this request makes leave their bookmarks here (extensions.bookmarks).
        with Kgmem.writes_bookmarks() as written:
            scope.setdefault("state", {})["bookmarks"] = written
            await super().__call__(scope, receive, send)

    def admit(self, request: Request) -> Principal | Response:
        """The caller of a request that will execute operations, or the refusal to send: no or
        a wrong key (401), or a key past its rate (429). ``/mcp`` admits through here too."""
        principal = self._authenticate(request)
        if isinstance(principal, Response):
            return principal
        wait = self.buckets.take(principal.name)
        if wait > 0:
            self.metrics.overload.inc(reason="rate_limited")
            return _error(
                429,
                "rate_limited",
                f"this API key may send {self.settings.api_rate_per_s:g} requests a second: "
                "retry after the time Retry-After gives",
                **{"Retry-After": retry_after(wait)},
            )
        return principal

    def _authenticate(self, request: Request) -> Principal | Response:
        if self.settings.api_auth_disabled:
            return ANONYMOUS_ADMIN
        if len(self.keyring) == 0:
            self.metrics.refused.inc(reason="no_keys_configured")
            return _error(
                401,
                "unauthorized",
                "this server has no API keys configured: set KGMEM_API_KEYS or "
                "KGMEM_API_KEYS_FILE (or KGMEM_API_AUTH_DISABLED=true on a trusted machine)",
            )
        key = presented_key(request.headers)
        if key is None:
            self.metrics.refused.inc(reason="no_key")
            return _error(
                401,
                "unauthorized",
                "send an API key: 'Authorization: Bearer <key>' or 'X-API-Key: <key>'",
                **{"WWW-Authenticate": "Bearer"},
            )
        principal = self.keyring.authenticate(key)
        if principal is None:
            self.metrics.refused.inc(reason="bad_key")
            return _error(
                401, "unauthorized", "the API key is not valid", **{"WWW-Authenticate": "Bearer"}
            )
        return principal

    async def get_context(self, request: Request, response: Any) -> ApiContext:  # type: ignore[override]
        km: Kgmem = request.app.state.kgmem
        await ensure_connected(request.app)  # if it fails, resolvers answer "unavailable"
        return ApiContext(
            km=km,
            settings=self.settings,
            # A GET (GraphiQL) passed no key check and can execute nothing: it gets NOBODY.
            principal=getattr(request.state, "principal", NOBODY),
            metrics=self.metrics,
            loaders=Loaders(km, page_cap=self.settings.api_max_page_size),
            bookmarks=getattr(request.state, "bookmarks", set()),
        )


class HttpMetrics:
    """Counts and times every HTTP request by route path and status."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app, self.metrics = app, metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        # Label by route path only (routes added to the app later count too); anything else is
        # "other", so a scan of random URLs cannot blow up the number of series.
        app = scope.get("app")
        routes = {getattr(r, "path", None) for r in getattr(app, "routes", ())} or set(ROUTES)
        path = scope["path"] if scope["path"] in routes else "other"
        status = 500
        t0 = time.perf_counter()

        async def tracking(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, tracking)
        finally:
            self.metrics.http_requests.inc(path=path, status=str(status))
            self.metrics.http_seconds.observe(time.perf_counter() - t0, path=path)


async def _internal_error(request: Request, exc: Exception) -> Response:
    log.error("unhandled error on %s", request.url.path, exc_info=exc)
    return _error(500, "internal_error", "internal error; it has been logged")


def _announce_auth(settings: Settings, keyring: KeyRing) -> None:
    if settings.api_auth_disabled:
        log.warning(
            "API AUTH IS DISABLED (KGMEM_API_AUTH_DISABLED=true): every caller is an admin of "
            "every namespace. Use this only on a trusted, single-user machine."
        )
    elif len(keyring) == 0:
        log.error(
            "NO API KEYS ARE CONFIGURED: every /graphql request will be refused with 401. Set "
            'KGMEM_API_KEYS=\'{"<key>": ["<namespace>"]}\' or KGMEM_API_KEYS_FILE.'
        )
    else:
        log.info("API keys loaded: %d", len(keyring))


def create_app(settings: Settings | None = None) -> Starlette:
    """The kgmem HTTP service for ``settings`` (``Settings()`` from the environment if None)."""
    settings = serving(settings or Settings())
    keyring = KeyRing.from_settings(settings)
    metrics = Metrics()

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        km = Kgmem(settings)
        app.state.kgmem = km
        app.state.model_error = None
        app.state.connected = False
        app.state.connect_lock = asyncio.Lock()
        app.state.last_attempt = -RECONNECT_EVERY_S
        _announce_auth(settings, keyring)
        # serve even if Neo4j is down: /readyz says why, and requests retry the connection
        await ensure_connected(app)
        warm: asyncio.Task[None] | None = None
        if settings.api_preload_models:
            warm = asyncio.create_task(_warm(app, km))
        shared = process_metrics.Snapshots.of(settings)
        app.state.snapshots = shared
        sharing = asyncio.create_task(shared.keep_writing(metrics, km)) if shared else None
        try:
            async with mcp.running() if mcp else nullcontext():
                yield
        finally:
            if shared is not None and sharing is not None:
                sharing.cancel()
                shared.remove()
            if warm is not None:
                await warm  # a model load in a thread cannot be cancelled; let it finish
            await km.close()

    middleware = [
        Middleware(HttpMetrics, metrics=metrics),
        Middleware(InFlightLimit, limit=settings.api_max_in_flight, metrics=metrics),
    ]
    if settings.api_cors_origins:  # CORS stays off unless origins are configured
        middleware.append(
            Middleware(
                CORSMiddleware,
                allow_origins=settings.api_cors_origins,
                allow_methods=["GET", "POST"],
                allow_headers=["Authorization", "X-API-Key", "Content-Type"],
            )
        )
    middleware.append(Middleware(BodySizeLimit, max_bytes=settings.api_max_body_bytes))
    graphql = KgmemGraphQL(settings, keyring, metrics)
    mcp = _mcp(settings, graphql)
    app = Starlette(
        routes=[
            Route("/graphql", graphql, methods=["GET", "POST"]),
            Route("/healthz", healthz, methods=["GET"]),
            Route("/readyz", readyz, methods=["GET"]),
            Route("/metrics", metrics_endpoint, methods=["GET"]),
            *xray_page.routes(),
            *graphiql_page.routes(),
            *([mcp.route] if mcp else []),
        ],
        middleware=middleware,
        exception_handlers={Exception: _internal_error},
        lifespan=lifespan,
    )
    app.state.metrics = metrics
    app.state.settings = settings
    return app


def _mcp(settings: Settings, graphql: KgmemGraphQL) -> Mounted | None:
    """MCP at /mcp, admitted like GraphQL; None in an install without the ``mcp`` extra."""
    if missing("mcp"):
        return None
    from kgmem.mcp.http import mount  # the MCP SDK is imported only when it is installed

    return mount(settings, graphql.admit)


def serving(settings: Settings) -> Settings:
    """The API's settings: ``extraction_mode=auto`` means worker here, so an observe answers as
    soon as its turns are stored and the extraction runs in ``kgmem worker`` processes."""
    if settings.extraction_mode == "auto":
        return settings.model_copy(update={"extraction_mode": "worker"})
    return settings


async def _warm(app: Starlette, km: Kgmem) -> None:
    try:
        await asyncio.to_thread(km.load_models)
    except ModelUnavailable as exc:
        app.state.model_error = exc.message
        log.error("a model failed to load: %s", exc.message)
