"""Fixtures for the GraphQL service tests: one app per session on the real Neo4j, driven over
ASGI with httpx inside the session event loop.

The app is built by ``create_app`` from the session's server settings plus three API keys —
an admin key, and one key for each of two tenant namespaces — and its lifespan runs for the
whole session (it owns its own ``Kgmem``, separate from the ``km`` fixture).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import AsyncExitStack
from typing import Any

import pytest

from api.helpers import ADMIN_KEY, KEY_A, KEY_B, Api, api_settings, running
from kgmem.api import create_app
from kgmem.service import Kgmem
from kgmem.settings import Settings


@pytest.fixture(scope="session")
def api(server_settings: Settings, km: Kgmem, arun: Any) -> Iterator[Api]:
    """The app with an admin key and one key per tenant namespace (km: schema applied)."""
    ns_a, ns_b = f"api-a-{uuid.uuid4().hex[:8]}", f"api-b-{uuid.uuid4().hex[:8]}"
    settings = api_settings(
        server_settings,
        api_keys={ADMIN_KEY: ["*"], KEY_A: [ns_a], KEY_B: [ns_b]},
        # These tests read what an observe's extraction wrote in its answer; worker mode (the
        # API's default) is tested with real worker processes in tests/integration.
        extraction_mode="inline",
    )
    app = create_app(settings)
    stack = AsyncExitStack()
    client = arun(stack.enter_async_context(running(app)))
    try:
        yield Api(app, client, arun, ns_a=ns_a, ns_b=ns_b)
    finally:
        arun(stack.aclose())
        for ns in (ns_a, ns_b):
            arun(km.wipe_namespace(ns))
