"""The widening windows a namespace-scoped index search reads in one statement."""

import itertools

from hypothesis import given
from hypothesis import strategies as st

from kgmem.graph.index_search import OVERFETCH_CAP, WIDEN, WINDOWS_PER_STATEMENT, _windows


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
