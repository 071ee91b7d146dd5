"""Helpers for the GraphQL service tests: the keys, a sync-friendly client, running an app.

``Api`` wraps an httpx client bound to a running app (lifespan entered by :func:`running`) and
runs its calls on the session event loop through ``arun``; ``Api.gql`` posts a GraphQL document
with a key and returns the parsed JSON.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

import httpx
from starlette.applications import Starlette

from kgmem.service import Kgmem
from kgmem.settings import Settings

ADMIN_KEY = "admin-" + "a" * 32
KEY_A = "tenant-a-" + "b" * 32
KEY_B = "tenant-b-" + "c" * 32


class Api:
    """A client of the running app, usable from sync tests through ``arun``."""

    def __init__(self, app: Starlette, client: httpx.AsyncClient, arun: Any, **names: str) -> None:
        self.app, self.client, self.arun = app, client, arun
        self.ns_a, self.ns_b = names["ns_a"], names["ns_b"]

    @property
    def km(self) -> Kgmem:
        km: Kgmem = self.app.state.kgmem
        return km

    def post(
        self,
        body: Any = None,
        *,
        key: str | None = ADMIN_KEY,
        headers: dict[str, str] | None = None,
        content: bytes | None = None,
    ) -> httpx.Response:
        sent = dict(headers or {})
        if key is not None:
            sent.setdefault("Authorization", f"Bearer {key}")
        if content is not None:
            return self.arun(self.client.post("/graphql", content=content, headers=sent))
        return self.arun(self.client.post("/graphql", json=body, headers=sent))

    def gql(
        self, query: str, variables: dict[str, Any] | None = None, *, key: str | None = ADMIN_KEY
    ) -> dict[str, Any]:
        response = self.post({"query": query, "variables": variables or {}}, key=key)
        assert response.status_code == 200, response.text
        data: dict[str, Any] = response.json()
        return data

    def ok(
        self, query: str, variables: dict[str, Any] | None = None, *, key: str | None = ADMIN_KEY
    ) -> dict[str, Any]:
        """The data of a request that must succeed without GraphQL errors."""
        data = self.gql(query, variables, key=key)
        assert not data.get("errors"), data["errors"]
        out: dict[str, Any] = data["data"]
        return out

    def get(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.arun(self.client.get(path, **kwargs))

    def stats(self, namespace: str) -> dict[str, Any]:
        """A namespace's counts, read straight from the service (not through the API)."""
        return self.arun(self.km.stats(namespace=namespace))


@asynccontextmanager
async def running(app: Starlette) -> AsyncIterator[httpx.AsyncClient]:
    """Run the app's lifespan and yield a client bound to it (httpx's transport skips it)."""
    async with AsyncExitStack() as stack:
        await stack.enter_async_context(app.router.lifespan_context(app))
        client = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://kgmem.test"
        )
        await stack.enter_async_context(client)
        yield client


def api_settings(server_settings: Settings, **update: Any) -> Settings:
    return server_settings.model_copy(update=update)
