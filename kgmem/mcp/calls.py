"""How one MCP tool call reaches the service: who calls, in which namespace, and what a failure
looks like to the model.

Contract. A :class:`Backend` gives a call its connected :class:`~kgmem.service.Kgmem` and its
:class:`~kgmem.api.auth.Principal`: over stdio the process's own service and a principal
confined to the configured namespace; over HTTP the app's service and the principal of the API
key the request presented (:mod:`kgmem.mcp.http`). :func:`namespace` resolves a tool's optional
``namespace`` argument exactly as GraphQL does (:func:`kgmem.api.auth.namespace_for`), and
:func:`limit` applies the API's page limit. :func:`answer` runs a tool body and turns every
failure into a ``ToolError`` the model can read — an expected one (bad input, unknown id, a
namespace the key may not use) with its own message and code, Neo4j or a model being down as
``unavailable``, anything else as ``internal_error`` (logged with its traceback) — so a call
that did not do its work can never look like a success.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ResourceError, ToolError

from kgmem.api.auth import Principal, namespace_for
from kgmem.api.errors import INTERNAL, UNAVAILABLE, ApiError, is_expected, is_unavailable
from kgmem.api.limits import page_size
from kgmem.errors import KgmemError, primary
from kgmem.service import Kgmem
from kgmem.settings import Settings

log = logging.getLogger("kgmem.mcp")
T = TypeVar("T")

Ctx = Context[Any, Any]


class Backend(Protocol):
    """Where a call's service and caller come from (stdio or HTTP)."""

    settings: Settings

    async def service(self, ctx: Ctx) -> Kgmem:
        """The connected service (a connection failure is ``GraphUnavailable``)."""
        ...

    def principal(self, ctx: Ctx) -> Principal:
        """Who makes this call."""
        ...

    def actor(self, ctx: Ctx) -> str:
        """Who the audit trail names for the writes of this call."""
        ...


def namespace(backend: Backend, ctx: Ctx, requested: str | None) -> str:
    return namespace_for(backend.principal(ctx), requested, backend.settings.namespace)


def limit(backend: Backend, value: int) -> int:
    return page_size(value, backend.settings, "limit")


async def answer(
    tool: str, work: Callable[[], Awaitable[T]], error: type[Exception] = ToolError
) -> T:
    """Run one tool body; any failure becomes ``error`` (a ``ToolError``; a ``ResourceError``
    for a resource read) with a message for the model."""
    try:
        return await work()
    except (ToolError, ResourceError):
        raise
    except Exception as exc:
        raise error(_message(tool, exc)) from exc


def _message(tool: str, exc: BaseException) -> str:
    cause = primary(exc)  # a task group's exception group: its KgmemError decides
    if isinstance(cause, ApiError):
        return f"{cause.code}: {cause.message} (nothing was done)"
    if isinstance(cause, KgmemError) and is_expected(cause):
        return f"{cause.code}: {cause.message} (nothing was written)"
    if is_unavailable(cause):
        log.warning("%s: unavailable: %s", tool, cause)
        return f"unavailable: {UNAVAILABLE}; nothing was written, try again later"
    log.error("%s: internal error", tool, exc_info=cause)
    return f"internal_error: {INTERNAL}"
