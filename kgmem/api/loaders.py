"""Per-request DataLoaders: nested fields over many parents cost one query per field, not per
parent (no N+1).

A fresh :class:`Loaders` is built for every request (its caches must not outlive it: another
request may have written since). Keys are ``(namespace, id)`` pairs, because an admin request can
touch several namespaces; a batch is split by namespace and each part is one service call, which
is one Cypher statement. Each loader returns, for every key in order, the rows that belong to it
(an empty list, or None for a by-id lookup that found nothing).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

from strawberry.dataloader import DataLoader

from kgmem.core.browse_records import MemoryEpisode, StatusChangeRecord
from kgmem.graph.client import Row
from kgmem.service import Kgmem

Key = tuple[str, str]  # (namespace, id)
V = TypeVar("V")
R = TypeVar("R")  # a grouped load's record


async def _by_namespace(
    keys: Sequence[Key],
    fetch: Callable[[list[str], str], Awaitable[dict[str, V]]],
    missing: Callable[[], V],
) -> list[V]:
    namespaces: dict[str, list[str]] = {}
    for ns, ident in keys:
        ids = namespaces.setdefault(ns, [])
        if ident not in ids:
            ids.append(ident)
    found: dict[Key, V] = {}
    for ns, ids in namespaces.items():
        for ident, value in (await fetch(ids, ns)).items():
            found[(ns, ident)] = value
    return [found[k] if k in found else missing() for k in keys]


class Loaders:
    """The DataLoaders of one request."""

    def __init__(self, km: Kgmem, *, page_cap: int) -> None:
        self._km = km
        # memories loaded per entity: as many as the largest page a field may ask for
        self._page_cap = page_cap
        self.memory: DataLoader[Key, Row | None] = DataLoader(load_fn=self._memories)
        self.memory_entities: DataLoader[Key, list[Row]] = DataLoader(load_fn=self._entities)
        self.memory_episodes: DataLoader[Key, list[MemoryEpisode]] = DataLoader(
            load_fn=self._episodes
        )
        self.memory_history: DataLoader[Key, list[StatusChangeRecord]] = DataLoader(
            load_fn=self._history
        )
        self.memory_links: DataLoader[Key, list[Row]] = DataLoader(load_fn=self._links)
        self.entity_memories: DataLoader[Key, list[Row]] = DataLoader(load_fn=self._entity_memories)
        self.entity_links: DataLoader[Key, list[Row]] = DataLoader(load_fn=self._entity_links)

    async def _memories(self, keys: Sequence[Key]) -> list[Row | None]:
        async def fetch(ids: list[str], ns: str) -> dict[str, Row | None]:
            rows = await self._km.memories_by_id(ids, namespace=ns)
            return {r["id"]: r for r in rows}

        return await _by_namespace(keys, fetch, lambda: None)

    async def _grouped(
        self,
        keys: Sequence[Key],
        call: Callable[..., Awaitable[dict[str, list[R]]]],
        **extra: Any,
    ) -> list[list[R]]:
        async def fetch(ids: list[str], ns: str) -> dict[str, list[R]]:
            return await call(ids, namespace=ns, **extra)

        return await _by_namespace(keys, fetch, list)

    async def _entities(self, keys: Sequence[Key]) -> list[list[Row]]:
        return await self._grouped(keys, self._km.memory_entities)

    async def _episodes(self, keys: Sequence[Key]) -> list[list[MemoryEpisode]]:
        return await self._grouped(keys, self._km.memory_episodes)

    async def _history(self, keys: Sequence[Key]) -> list[list[StatusChangeRecord]]:
        return await self._grouped(keys, self._km.memory_status_changes)

    async def _links(self, keys: Sequence[Key]) -> list[list[Row]]:
        return await self._grouped(keys, self._km.memory_links)

    async def _entity_memories(self, keys: Sequence[Key]) -> list[list[Row]]:
        return await self._grouped(keys, self._km.entity_memories, limit=self._page_cap)

    async def _entity_links(self, keys: Sequence[Key]) -> list[list[Row]]:
        return await self._grouped(keys, self._km.entity_links)
