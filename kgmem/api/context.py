"""The per-request GraphQL context: the service, the caller, its loaders, and namespace checks.

Built by the app for every request after the API key was accepted. Resolvers reach everything
through it: ``ctx.namespace(arg)`` turns the optional ``namespace`` argument into the namespace
the request will use — the one named, if the key may use it (else :class:`Forbidden`, before
any I/O); otherwise the key's only namespace, or the service default for an admin — so no
resolver can touch a namespace its key does not cover. ``ctx.page(n)`` applies the page limit.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

import strawberry

from kgmem.api.auth import Principal, namespace_for
from kgmem.api.limits import page_size
from kgmem.api.loaders import Loaders
from kgmem.api.metrics import Metrics
from kgmem.service import Kgmem
from kgmem.settings import Settings


@dataclass
class ApiContext:
    km: Kgmem
    settings: Settings
    principal: Principal
    metrics: Metrics
    loaders: Loaders
    # The bookmarks of the writes this request made: the response's consistency token.
    bookmarks: set[str] = field(default_factory=set)
    started: float = field(default_factory=time.perf_counter)

    def namespace(self, requested: str | None) -> str:
        """The namespace this request may use for an operation (see the module docstring)."""
        return namespace_for(self.principal, requested, self.settings.namespace)

    def page(self, value: int, what: str = "first") -> int:
        return page_size(value, self.settings, what)

    @property
    def actor(self) -> str:
        """Who the audit trail names for writes made through this request."""
        return f"api:{self.principal.name}"


Info = strawberry.Info[ApiContext, Any]

F = TypeVar("F", bound=Callable[..., Any])


def resolver(description: str) -> Callable[[F], F]:
    """``@strawberry.field(description=...)`` as a typed decorator (Strawberry types it Any)."""

    def wrap(fn: F) -> F:
        return cast(F, strawberry.field(description=description)(fn))

    return wrap


def mutation(description: str) -> Callable[[F], F]:
    """``@strawberry.mutation(description=...)`` as a typed decorator."""

    def wrap(fn: F) -> F:
        return cast(F, strawberry.mutation(description=description)(fn))

    return wrap
