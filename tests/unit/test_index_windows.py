"""The widening windows a namespace-scoped index search reads in one statement."""

import itertools

from hypothesis import given
from hypothesis import strategies as st

from kgmem.graph.index_search import (
    MEMO_SIZE,
    OVERFETCH_CAP,
    PROBE_EVERY,
    WIDEN,
    WINDOWS_PER_STATEMENT,
    StartWindows,
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
