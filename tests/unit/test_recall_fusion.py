"""RRF (k = 60, seed 004): known values, order invariance, no duplicates, more lists never hurt."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kgmem.recall.fusion import RRF_K, rrf

rankings = st.lists(st.lists(st.sampled_from("abcdefgh"), max_size=8), max_size=5)


def test_rrf_known_values() -> None:
    fused = dict(rrf([["a", "b"], ["b", "c"]]))
    assert RRF_K == 60
    assert fused["b"] == pytest.approx(1 / 62 + 1 / 61)
    assert fused["a"] == pytest.approx(1 / 61)
    assert fused["c"] == pytest.approx(1 / 62)
    assert [i for i, _ in rrf([["a", "b"], ["b", "c"]])] == ["b", "a", "c"]


@given(rankings, st.randoms())
def test_rrf_ignores_the_order_of_the_lists(lists: list[list[str]], rnd: object) -> None:
    shuffled = list(lists)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    assert rrf(shuffled) == rrf(lists)


@given(rankings)
def test_rrf_has_no_duplicates_and_covers_every_id(lists: list[list[str]]) -> None:
    ids = [i for i, _ in rrf(lists)]
    assert len(ids) == len(set(ids)) == len({i for ranking in lists for i in ranking})


@given(rankings, st.lists(st.sampled_from("abcdefgh"), min_size=1, max_size=8))
def test_appearing_in_another_list_never_lowers_a_score(
    lists: list[list[str]], extra: list[str]
) -> None:
    before, after = dict(rrf(lists)), dict(rrf([*lists, extra]))
    assert all(after[i] >= s for i, s in before.items())
