"""The widening windows a namespace-scoped index search reads in one statement, alone or sharing
the statement with another search."""

import asyncio
import itertools
from collections.abc import Callable
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from kgmem.graph.index_search import (
    MEMO_SIZE,
    OVERFETCH_CAP,
    PROBE_EVERY,
    WIDEN,
    WINDOWS_PER_STATEMENT,
    StartWindows,
    _Search,
    _widening,
    _windows,
)


def test_windows_widen_fourfold_up_to_the_cap() -> None:
    assert _windows(50) == [50, 200, 800]
    assert _windows(3200) == [3200, OVERFETCH_CAP]
    assert _windows(OVERFETCH_CAP) == [OVERFETCH_CAP]


@given(st.integers(min_value=1, max_value=OVERFETCH_CAP))
def test_windows_are_the_sequential_widening_steps(k: int) -> None:
    windows = _windows(k)
    assert windows[0] == k
    assert 1 <= len(windows) <= WINDOWS_PER_STATEMENT
    for a, b in itertools.pairwise(windows):
        assert a < OVERFETCH_CAP and b == min(a * WIDEN, OVERFETCH_CAP)
    # a statement stops early only at the cap or at the per-statement bound
    assert windows[-1] == OVERFETCH_CAP or len(windows) == WINDOWS_PER_STATEMENT


def test_a_search_starts_where_the_recent_ones_ended() -> None:
    memo = StartWindows()
    key = ("search_memory_vector", "ns", 50)
    assert memo.start(key) == 50  # nothing known: from k
    memo.ended(key, 200)
    assert memo.start(key) == 200
    memo.ended(key, 800)
    assert memo.start(key) == 200  # the narrowest recent end
    assert memo.start(("search_memory_vector", "other", 50)) == 50  # per namespace
    assert memo.start(("search_memory_fulltext", "ns", 50)) == 50  # per statement
    assert memo.start(("search_memory_vector", "ns", 10)) == 10  # per k


def test_every_probe_th_search_starts_at_k_again() -> None:
    memo = StartWindows()
    key = ("search_memory_fulltext", "ns", 50)
    memo.ended(key, 200)
    starts = [memo.start(key) for _ in range(2 * PROBE_EVERY)]
    assert starts.count(50) == 2
    assert all(s in (50, 200) for s in starts)


@given(st.lists(st.integers(min_value=0, max_value=5), min_size=1, max_size=3 * MEMO_SIZE))
def test_the_start_is_k_or_a_recent_end_on_ks_ladder(levels: list[int]) -> None:
    k = 50
    ladder = [k]
    while ladder[-1] < OVERFETCH_CAP:
        ladder.append(min(ladder[-1] * WIDEN, OVERFETCH_CAP))
    memo = StartWindows()
    key = ("search_memory_vector", "ns", k)
    ends: list[int] = []
    for level in levels:
        start = memo.start(key)
        assert start == k or start == min(ends[-MEMO_SIZE:])
        assert start in ladder
        end = ladder[max(ladder.index(start), min(level, len(ladder) - 1))]
        memo.ended(key, end)
        ends.append(end)


class _Memos:
    """What ``_widening`` needs of a graph client: its memos."""

    def __init__(self) -> None:
        self.held = StartWindows()

    def memo(self, kind: type) -> StartWindows:
        return self.held


def _index(need: int, limit: int) -> Callable[[list[int]], dict[str, Any]]:
    """A shared index in which the namespace has ``limit`` rows within the first ``need``: the
    statement reads its windows in turn and stops at the first that is not short."""

    def answer(windows: list[int]) -> dict[str, Any]:
        for level, w in enumerate(windows):
            own = limit if w >= need else limit - 1
            if own >= limit or level == len(windows) - 1:
                return {"level": level, "seen": w, "hits": [{"id": i} for i in range(own)]}
        raise AssertionError("unreachable")

    return answer


def _run(
    graph: _Memos, needs: list[int], limit: int, k: int, log: list[list[list[int]]]
) -> list[list[Any]]:
    searches = [_Search((f"s{i}", "ns", k), limit, "hits") for i in range(len(needs))]
    answers = [_index(n, limit) for n in needs]

    async def once(windows: list[list[int]]) -> list[Any]:
        for i, w in enumerate(windows):
            if w:
                log[i].append(w)
        return [a(w) if w else None for a, w in zip(answers, windows, strict=True)]

    return asyncio.run(_widening(graph, searches, once))  # type: ignore[arg-type]


@given(
    st.lists(
        st.tuples(st.integers(1, 2 * OVERFETCH_CAP), st.integers(1, 2 * OVERFETCH_CAP)),
        min_size=1,
        max_size=2 * PROBE_EVERY + 2,
    )
)
def test_searches_sharing_a_statement_read_the_windows_they_read_alone(
    needs: list[tuple[int, int]],
) -> None:
    # Two searches in one statement (e.g. search_text_memories' halves), query after query, each
    # widening as its own index needs, against each run alone with a memo of its own.
    k, limit = 50, 5
    together, alone = _Memos(), [_Memos(), _Memos()]
    for pair in needs:
        log: list[list[list[int]]] = [[], []]
        hits = _run(together, list(pair), limit, k, log)
        for i, need in enumerate(pair):
            own_log: list[list[list[int]]] = [[]]
            (own,) = _run(alone[i], [need], limit, k, own_log)
            assert log[i] == own_log[0]  # the same windows, statement by statement
            assert hits[i] == own
