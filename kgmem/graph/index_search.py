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
reads episodes and returns the memories derived from them (and the matching turns none was derived
from, tagged as such); the memory and episode text searches
of one query share one statement (``search_text_memories``), each half with its own windows,
memo and widening, so each answers exactly what it would alone.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from kgmem.core.tunables import READ_CONFIDENCE
from kgmem.graph.client import GraphClient, Row
from kgmem.graph.rows import ScoredId, TurnRow, episode_search_hits, scored

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
# of the 200 and 800-row reads are different sets for 40/40 LoCoMo questions). So a
# search returns what it did without the memo exactly when it would have ended at or past the
# memo's window: every benchmark question at 1k, 10k and 100k.
MEMO_SIZE = 32
PROBE_EVERY = 32

# The share of a matching turn's score its live memories get when the turn also gave a fact
# retired through a value read from its words: the words that matched may be the retired ones.
# BEAM dev knowledge-update MRR 0.596 -> 0.633; LoCoMo dev R@10 0.686 -> 0.688, MRR 0.523 -> 0.520
# (the same ingest). Counting retirements through a guessed slot too cost LoCoMo 0.005 R@10.
RETIRED_TURN_SHARE = 0.5


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


@dataclass
class _Search:
    """One search's place in its widening: the window it starts at (from the memo for ``key``,
    statement part, namespace and k) and, once a window was not short, its rows."""

    key: tuple[str, str, int]
    limit: int
    found: str  # the count that says the window held enough: "hits", or e.g. "episodes"
    k: int = 0
    hits: list[Row] | None = None

    def windows(self) -> list[int]:
        return [] if self.hits is not None else _windows(self.k)

    def take(self, memo: StartWindows, windows: list[int], row: Row) -> None:
        """Read the answer over ``windows``: done if its last window was not short, else the
        next statement starts at the window after it."""
        k = windows[int(row["level"])]
        count = len(row["hits"]) if self.found == "hits" else int(row[self.found])
        if _short(count, self.limit, int(row["seen"]), k):
            self.k = _wider(k)
        else:
            memo.ended(self.key, k)
            self.hits = list(row["hits"])


async def _widening(
    graph: GraphClient,
    searches: list[_Search],
    once: Callable[[list[list[int]]], Awaitable[list[Row]]],
) -> list[list[Row]]:
    """Run one-row searches over ever wider windows while the namespace is crowded out, each
    from the window the memo gives for its key. ``once`` gets each search's windows (empty for
    a search already done, which the statement skips) and answers a row per search: ``level``
    (the index of the window it read last), ``seen``, ``hits`` and, when it is not the hits
    themselves, the count the search names ``found``. Searches that share a statement widen
    independently, so each reads exactly the windows it would alone."""
    memo = graph.memo(StartWindows)
    for s in searches:
        s.k = memo.start(s.key)
    while any(s.hits is None for s in searches):
        windows = [s.windows() for s in searches]
        rows = await once(windows)
        for s, w, row in zip(searches, windows, rows, strict=True):
            if w:
                s.take(memo, w, row)
    return [s.hits or [] for s in searches]


async def search_memory_vector(
    graph: GraphClient, *, namespace: str, embedding: list[float], k: int, limit: int
) -> list[ScoredId]:
    async def once(windows: list[list[int]]) -> list[Row]:
        rows = await graph.run(
            "search_memory_vector",
            namespace=namespace,
            embedding=embedding,
            windows=windows[0],
            limit=limit,
        )
        return [rows[0]]

    search = _Search(("search_memory_vector", namespace, k), limit, "hits")
    return scored((await _widening(graph, [search], once))[0])


async def search_memory_neighbours(
    graph: GraphClient, *, namespace: str, items: list[dict[str, Any]], k: int
) -> list[Row]:
    """Per item: its content-hash twins (similarity 1.0) and its ``k`` nearest memories of the
    namespace, as one list of neighbours."""
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
        {"key": r["key"], "neighbours": _with_twins(r["twins"], r["neighbours"][:k])}
        for r in (result[it["key"]] for it in items if it["key"] in result)
    ]


def _with_twins(twins: list[Row], nearest: list[Row]) -> list[Row]:
    """The content-hash twins first (a twin outside the vector window is still the same memory),
    then the nearest memories that are not twins."""
    ids = {t["id"] for t in twins}
    return [*twins, *(n for n in nearest if n["id"] not in ids)]


async def find_claim_holders(
    graph: GraphClient, *, namespace: str, items: list[dict[str, Any]], limit: int
) -> dict[int, list[Row]]:
    """Per item (``key``, ``subject``, ``families``, ``embedding``): the live memories asserting
    one of that subject's slot families, newest first, with their cosine to the item."""
    if not items:
        return {}
    rows = await graph.run("find_claim_holders", namespace=namespace, items=items, limit=limit)
    return {int(r["key"]): list(r["holders"]) for r in rows}


# The count that says a text search's window held enough: the memory half's own rows, the
# episode half's own episodes (several episodes may feed one memory).
FOUND = {"memory": "hits", "episode": "episodes"}


async def search_text_memories(
    graph: GraphClient,
    *,
    namespace: str,
    query: str,
    k: int,
    limit: int,
    memory: bool = True,
    episode: bool = True,
    turn_limit: int = 0,
    retired_turn_share: float = RETIRED_TURN_SHARE,
) -> tuple[list[ScoredId] | None, list[ScoredId | TurnRow] | None]:
    """Both BM25 searches of ``query`` in one statement: the memories whose content matches,
    and the memories derived from the episodes that match (None for a search not asked for).
    Each keeps its own memo and widening, so each reads the windows, and answers the rows, it
    would in a statement of its own; a search that must widen further runs again alone. The
    episode rows end with the unclaimed turns (``kind: "episode"``) among the best
    ``turn_limit`` matching turns: those no memory was derived from. A turn that also gave a
    memory superseded through a value read from its words (claim confidence ``READ_CONFIDENCE``
    or more) scores its live memories at ``retired_turn_share`` of its score."""
    halves = [half for half, on in (("memory", memory), ("episode", episode)) if on]
    searches = [
        _Search((f"search_text_memories.{h}", namespace, k), limit, FOUND[h]) for h in halves
    ]

    async def once(windows: list[list[int]]) -> list[Row]:
        given = dict(zip(halves, windows, strict=True))
        rows = await graph.run(
            "search_text_memories",
            namespace=namespace,
            query=query,
            memory_windows=given.get("memory", []),
            episode_windows=given.get("episode", []),
            limit=limit,
            turn_limit=turn_limit,
            retired_turn_share=retired_turn_share,
            read_confidence=READ_CONFIDENCE,
        )
        return [rows[0][h] for h in halves]

    hits = dict(zip(halves, await _widening(graph, searches, once), strict=True))
    memory_rows, episode_rows = hits.get("memory"), hits.get("episode")
    return (
        None if memory_rows is None else scored(memory_rows),
        None if episode_rows is None else episode_search_hits(episode_rows),
    )
