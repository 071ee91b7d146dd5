"""A namespace's hub names, read from the graph at most once a minute per graph client.

Contract: ``read_hub_names(graph, namespace=..., share=..., limit=...)`` returns the names
``repository.find_hub_names`` returns (the entities that at least ``share`` of the namespace's
memories mention, most mentioned first) and whether it ran that statement, from a memo kept per
graph client and keyed by (namespace, share, limit); an entry older than ``HUB_TTL_SECONDS`` is
read again. Hubs are the speakers and the user themself: they change only when a namespace's make-
up changes, and a stale list only re-weighs words in a recall's text searches (it never widens or
narrows what a recall may see), so a minute's staleness is the price of not counting a large
namespace's mentions on every recall. ``forget(graph, namespace)`` drops a namespace's entries (a
wipe, a test).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from kgmem.graph import repository
from kgmem.graph.client import GraphClient

HUB_TTL_SECONDS = 60.0
_MAX_KEYS = 4096  # namespaces x (share, limit); past it the memo starts afresh


class HubNames:
    """The hub names read per (namespace, share, limit), each with the time it was read."""

    def __init__(
        self, ttl: float = HUB_TTL_SECONDS, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._ttl = ttl
        self._clock = clock
        self._read: dict[tuple[str, float, int], tuple[float, list[str]]] = {}

    def get(self, key: tuple[str, float, int]) -> list[str] | None:
        held = self._read.get(key)
        if held is None or self._clock() - held[0] >= self._ttl:
            return None
        return held[1]

    def put(self, key: tuple[str, float, int], names: list[str]) -> None:
        if key not in self._read and len(self._read) >= _MAX_KEYS:
            self._read.clear()
        self._read[key] = (self._clock(), list(names))

    def forget(self, namespace: str) -> None:
        for key in [k for k in self._read if k[0] == namespace]:
            del self._read[key]


async def read_hub_names(
    graph: GraphClient, *, namespace: str, share: float, limit: int
) -> tuple[list[str], bool]:
    """The hub names, and whether they were read from the graph (False: served by the memo)."""
    memo = graph.memo(HubNames)
    key = (namespace, share, limit)
    names = memo.get(key)
    if names is not None:
        return list(names), False
    names = await repository.find_hub_names(graph, namespace=namespace, share=share, limit=limit)
    memo.put(key, names)
    return list(names), True


def forget(graph: GraphClient, namespace: str) -> None:
    graph.memo(HubNames).forget(namespace)
