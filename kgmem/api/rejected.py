"""The expected-failure member of the API's union results, and the wrapper that produces it.

Contract. ``Rejected`` is what an operation answers when it fails in an expected way (bad input,
no such memory, a concurrent write): a stable ``code`` and a ``reason`` for people, nothing
written. :func:`attempt` runs one resolver body and turns an expected ``KgmemError`` into
``Rejected``; anything else propagates and is masked by ``kgmem.api.errors``. It lives apart
from the result types so the object types (an entity's ``facts``) can answer unions too.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

import strawberry

from kgmem.api.errors import is_expected
from kgmem.errors import KgmemError, primary

T = TypeVar("T")


@strawberry.type(description="An expected failure: nothing was written.")
class Rejected:
    reason: str
    code: str

    @classmethod
    def of(cls, exc: KgmemError) -> Rejected:
        return cls(reason=exc.message, code=exc.code)


async def attempt(work: Callable[[], Awaitable[T]]) -> T | Rejected:
    """Run a resolver body; an expected failure becomes ``Rejected`` (nothing was written)."""
    try:
        return await work()
    except Exception as exc:
        cause = primary(exc)  # a task group's exception group: its KgmemError decides
        if isinstance(cause, KgmemError) and is_expected(cause):
            return Rejected.of(cause)
        raise
