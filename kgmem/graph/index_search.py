"""Namespace-scoped searches over the shared vector and fulltext indexes, widening as needed.

Contract: each function returns up to ``limit`` (or ``k``) rows of *one* namespace, best first,
exactly as if the namespace had an index of its own, as long as its rows are within the first
``OVERFETCH_CAP`` of the shared index. Neo4j 5's index procedures have no filter, so a query reads
the top ``k`` of every namespace and keeps its own; when a busy neighbour crowds a namespace out
of that window (fewer own rows than asked for although the index had more to give), the search
is run again over a window four times wider, up to the cap. Recall's searches take the next
windows with them (``WINDOWS_PER_STATEMENT``) and widen on the server, so a crowded namespace
pays for the wider reads but not for a round trip each. A store with one namespace never pays
for the second read. Rows are ``{"id", "score"}`` for recall and the gate's neighbour rows
for the write path; the episode channel reads episodes and returns the memories derived from them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from kgmem.graph.client import GraphClient, Row

# Index rows read per search at most. Past it a namespace is a sliver of a huge shared index and
# should get a database of its own; the search then returns what the window held.
OVERFETCH_CAP = 10_000
WIDEN = 4
WINDOWS_PER_STATEMENT = 3  # the widening steps one recall search statement runs on the server


def _wider(k: int) -> int:
    return min(k * WIDEN, OVERFETCH_CAP)


def _windows(k: int) -> list[int]:
    """``k`` and the wider windows after it that one statement may read, in order."""
    windows = [k]
    while len(windows) < WINDOWS_PER_STATEMENT and windows[-1] < OVERFETCH_CAP:
        windows.append(_wider(windows[-1]))
    return windows


def _short(found: int, wanted: int, seen: int, k: int) -> bool:
    """True when a wider window could hold more of this namespace's rows."""
    return found < wanted and seen >= k and k < OVERFETCH_CAP


async def _widening(
    once: Callable[[list[int]], Awaitable[Row]], k: int, limit: int, found: str = "hits"
) -> list[Row]:
    """Run a one-row search over ever wider windows while the namespace is crowded out. The
    statement reads the windows it is given in turn, stopping at the first that is not short,
    and answers ``level`` (the index of the window it read last), ``seen``, ``hits`` and, when
    it is not the hits themselves, the count named ``found``."""
    while True:
        windows = _windows(k)
        row = await once(windows)
        k = windows[int(row["level"])]
        count = len(row["hits"]) if found == "hits" else int(row[found])
        if not _short(count, limit, int(row["seen"]), k):
            return list(row["hits"])
        k = _wider(k)


async def search_memory_vector(
    graph: GraphClient, *, namespace: str, embedding: list[float], k: int, limit: int
) -> list[Row]:
    async def once(windows: list[int]) -> Row:
        rows = await graph.run(
            "search_memory_vector",
            namespace=namespace,
            embedding=embedding,
            windows=windows,
            limit=limit,
        )
        return rows[0]

    return await _widening(once, k, limit)


async def search_memory_fulltext(
    graph: GraphClient, *, namespace: str, query: str, k: int, limit: int
) -> list[Row]:
    async def once(windows: list[int]) -> Row:
        rows = await graph.run(
            "search_memory_fulltext", namespace=namespace, query=query, windows=windows, limit=limit
        )
        return rows[0]

    return await _widening(once, k, limit)


async def search_memory_neighbours(
    graph: GraphClient, *, namespace: str, items: list[dict[str, Any]], k: int
) -> list[Row]:
    """Per item: its content-hash twins and its ``k`` nearest memories of the namespace."""
    result: dict[Any, Row] = {}
    window = k
    todo = items
    while todo:
        rows = await graph.run(
            "search_memory_neighbours", namespace=namespace, items=todo, k=window
        )
        short = set()
        for row in rows:
            result[row["key"]] = row
            if _short(len(row["neighbours"]), k, int(row["seen"]), window):
                short.add(row["key"])
        todo = [it for it in todo if it["key"] in short]
        window = _wider(window)
    return [
        {"key": r["key"], "hash_ids": r["hash_ids"], "neighbours": r["neighbours"][:k]}
        for r in (result[it["key"]] for it in items if it["key"] in result)
    ]


async def search_episode_memories(
    graph: GraphClient, *, namespace: str, query: str, k: int, limit: int
) -> list[Row]:
    """Memories of the namespace derived from the episodes that best match ``query``."""

    async def once(windows: list[int]) -> Row:
        rows = await graph.run(
            "search_episode_memories",
            namespace=namespace,
            query=query,
            windows=windows,
            limit=limit,
        )
        return rows[0]

    return await _widening(once, k, limit, found="episodes")
