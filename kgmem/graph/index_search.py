"""Namespace-scoped searches over the shared vector and fulltext indexes, widening as needed.

Contract: each function returns up to ``limit`` (or ``k``) rows of *one* namespace, best first,
exactly as if the namespace had an index of its own, as long as its rows are within the first
``OVERFETCH_CAP`` of the shared index. Neo4j 5's index procedures have no filter, so a query reads
the top ``k`` of every namespace and keeps its own; when a busy neighbour crowds a namespace out
of that window (fewer own rows than asked for although the index had more to give), the search
is run again over a window four times wider, up to the cap. Recall's searches take the next
windows with them (``WINDOWS_PER_STATEMENT``) and widen on the server, so a crowded namespace
pays for the wider reads but not for a round trip each. A store with one namespace never pays
for the second read. A crowded namespace's recall searches start where its recent ones ended
(``StartWindows``) instead of re-reading the windows they all found short. Rows are ``{"id",
"score"}`` for recall and the gate's neighbour rows for the write path; the episode channel
reads episodes and returns the memories derived from them.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
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


# A namespace's share of a shared index changes slowly, so its searches end, query after query,
# at about the same window (at 100k all 100 LoCoMo questions end at 200 rows, at 10k at 800, at 1k
# at 3,200 or 10,000). A search starts at the narrowest window that the last MEMO_SIZE searches of
# the same statement, namespace and k ended at, and so skips reads all of them found short (at
# 100k the 50-row read, ~40 % of a vector search's server CPU; at 1k the 50, 200 and 800-row ones
# and a round trip). Every PROBE_EVERY-th search starts at k again, so a namespace that stops
# being crowded is noticed. Results: a search's answer depends on the window it ends at, for
# both indexes. HNSW is approximate (at 100k the top 50 of the 200 and 800-row reads differ for
# ~15 % of queries); BM25 scores do not depend on the window, but which of several equal-score
# rows a window returns does, and stores with repeated contents tie massively (at 100k the top 50
# of the 200 and 800-row reads are different sets for 40/40 LoCoMo questions, session 9). So a
# search returns what it did without the memo exactly when it would have ended at or past the
# memo's window: every benchmark question at 1k, 10k and 100k.
MEMO_SIZE = 32
PROBE_EVERY = 32


@dataclass
class _Ends:
    windows: deque[int] = field(default_factory=lambda: deque(maxlen=MEMO_SIZE))
    searches: int = 0


class StartWindows:
    """Where the recent searches of each (statement, namespace, k) ended, per graph client."""

    _MAX_KEYS = 4096  # namespaces x statements x k; past it the memo starts afresh

    def __init__(self) -> None:
        self._ends: dict[tuple[str, str, int], _Ends] = {}

    def start(self, key: tuple[str, str, int]) -> int:
        k = key[2]
        ends = self._ends.get(key)
        if ends is None or not ends.windows:
            return k
        ends.searches += 1
        return k if ends.searches % PROBE_EVERY == 0 else min(ends.windows)

    def ended(self, key: tuple[str, str, int], window: int) -> None:
        if key not in self._ends and len(self._ends) >= self._MAX_KEYS:
            self._ends.clear()
        self._ends.setdefault(key, _Ends()).windows.append(window)


async def _widening(
    graph: GraphClient,
    key: tuple[str, str, int],
    once: Callable[[list[int]], Awaitable[Row]],
    limit: int,
    found: str = "hits",
) -> list[Row]:
    """Run a one-row search over ever wider windows while the namespace is crowded out, from
    the window the memo gives for ``key`` (statement, namespace, k). The statement reads the
    windows it is given in turn, stopping at the first that is not short, and answers ``level``
    (the index of the window it read last), ``seen``, ``hits`` and, when it is not the hits
    themselves, the count named ``found``."""
    memo = graph.memo(StartWindows)
    k = memo.start(key)
    while True:
        windows = _windows(k)
        row = await once(windows)
        k = windows[int(row["level"])]
        count = len(row["hits"]) if found == "hits" else int(row[found])
        if not _short(count, limit, int(row["seen"]), k):
            memo.ended(key, k)
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

    return await _widening(graph, ("search_memory_vector", namespace, k), once, limit)


async def search_memory_fulltext(
    graph: GraphClient, *, namespace: str, query: str, k: int, limit: int
) -> list[Row]:
    async def once(windows: list[int]) -> Row:
        rows = await graph.run(
            "search_memory_fulltext", namespace=namespace, query=query, windows=windows, limit=limit
        )
        return rows[0]

    return await _widening(graph, ("search_memory_fulltext", namespace, k), once, limit)


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

    key = ("search_episode_memories", namespace, k)
    return await _widening(graph, key, once, limit, found="episodes")
