"""A background event loop that owns the in-process service, for synchronous framework code.

Contract. The in-process ``Kgmem`` holds an async Neo4j driver bound to the loop that opened it,
while LangGraph and LangChain call their stores and retrievers from plain threads too
(``graph.invoke``, ``retriever.invoke``). :func:`serving` starts one daemon thread running a
loop, opens a ``Kgmem`` on it and yields a :class:`Bridge`; ``call`` runs a coroutine on that
loop from any thread (never from the loop's own thread: that would wait on itself), and
``acall`` awaits it from another loop. Leaving the block closes the service and stops the loop.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from kgmem.errors import KgmemError
from kgmem.service import Kgmem
from kgmem.settings import Settings

T = TypeVar("T")


@dataclass(frozen=True)
class Bridge:
    """The service and the loop it lives on."""

    service: Kgmem
    loop: asyncio.AbstractEventLoop

    def _on_own_loop(self) -> bool:
        try:
            return asyncio.get_running_loop() is self.loop
        except RuntimeError:
            return False

    def call(self, work: Coroutine[Any, Any, T]) -> T:
        """Run ``work`` on the service's loop and wait for it (from a thread without it)."""
        if self._on_own_loop():
            work.close()
            raise KgmemError("a synchronous store call on the service's own loop would deadlock")
        return asyncio.run_coroutine_threadsafe(work, self.loop).result()

    async def acall(self, work: Coroutine[Any, Any, T]) -> T:
        """Await ``work``: directly on the service's loop, else through it."""
        if self._on_own_loop():
            return await work
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(work, self.loop))


@contextmanager
def serving(settings: Settings | None = None) -> Iterator[Bridge]:
    """Open the in-process service on a loop of its own thread, for the duration of the block."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="kgmem-service", daemon=True)
    thread.start()
    service = Kgmem(settings or Settings())
    bridge = Bridge(service, loop)
    try:
        bridge.call(service.open())
        yield bridge
    finally:
        try:
            bridge.call(service.close())
        finally:
            loop.call_soon_threadsafe(loop.stop)
            thread.join()
            loop.close()
