"""The ``Memory`` interface, choosing its form, and running it from synchronous code.

Contract. :class:`Memory` is what kgmem offers an agent; :class:`kgmem.Kgmem` (in process) and
:class:`~kgmem.sdk.client.KgmemClient` (remote) both satisfy it (checked by mypy here).
:func:`connect` yields the remote client when given a URL, else the in-process service;
:func:`run_sync` runs one SDK call from plain synchronous code, on a worker thread's fresh loop
when an event loop already runs (a Jupyter cell).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import AsyncIterator, Coroutine, Sequence
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, Unpack, runtime_checkable

from kgmem.facts import EntityFacts
from kgmem.ingest.reports import ObserveReport
from kgmem.recall.options import RecallChoices, RecallOptions
from kgmem.recall.results import RecallResult
from kgmem.recall.xray import Xray
from kgmem.records import Turn, WriteReceipt
from kgmem.sdk.client import KgmemClient

if TYPE_CHECKING:  # the in-process form needs the server extra: imported when connect() uses it
    from kgmem.service import Kgmem
    from kgmem.settings import Settings

T = TypeVar("T")


@runtime_checkable
class Memory(Protocol):
    """What kgmem offers an agent; ``Kgmem`` (in process) and ``KgmemClient`` (remote) both are."""

    async def observe(
        self,
        turns: Sequence[Turn],
        *,
        namespace: str | None = None,
        flush: bool = False,
        wait: float = 0.0,
    ) -> ObserveReport: ...

    async def remember(
        self, text: str, *, namespace: str | None = None, category: str = "fact"
    ) -> WriteReceipt: ...

    async def recall(
        self,
        query: str,
        options: RecallOptions | None = None,
        *,
        namespace: str | None = None,
        bookmarks: Sequence[str] = (),
        **choices: Unpack[RecallChoices],
    ) -> RecallResult: ...

    async def explain(
        self,
        query: str,
        options: RecallOptions | None = None,
        *,
        namespace: str | None = None,
        bookmarks: Sequence[str] = (),
        **choices: Unpack[RecallChoices],
    ) -> Xray: ...

    async def entity_facts(
        self, entity: str, *, slot: str | None = None, namespace: str | None = None
    ) -> EntityFacts: ...


@asynccontextmanager
async def connect(
    url: str | None = None, *, api_key: str | None = None, settings: Settings | None = None
) -> AsyncIterator[Memory]:
    """A ``Memory``: the remote client when ``url`` is given, else the in-process service.

    ``async with connect() as memory:`` in a notebook opens ``Kgmem`` on the configured Neo4j;
    ``async with connect("http://127.0.0.1:8000", api_key=key) as memory:`` talks to the API.
    """
    if url is not None:
        async with KgmemClient(url, api_key) as client:
            yield client
    else:
        from kgmem.service import Kgmem
        from kgmem.settings import Settings

        async with Kgmem(settings or Settings()) as km:
            yield km


def run_sync(work: Coroutine[Any, Any, T]) -> T:
    """Run one SDK call from synchronous code: ``run_sync(client.recall("..."))``.

    With no event loop running it uses ``asyncio.run``; inside one (a Jupyter cell) it runs the
    call on a fresh loop in a worker thread. A ``KgmemClient`` outside ``async with`` works
    either way; the in-process ``Kgmem`` holds a loop-bound driver, so in notebooks ``await`` it.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(work)
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, work).result()


def _conforms(in_process: Kgmem, remote: KgmemClient) -> tuple[Memory, Memory]:
    """Never called: mypy checks here that both forms satisfy ``Memory``."""
    return in_process, remote
