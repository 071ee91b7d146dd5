"""RRF (k = 60): known values, order invariance, no duplicates, more lists never hurt;
weighted RRF (per-channel weights): unit weights are plain RRF, order invariance of the pairs,
scale invariance of the order, a heavier list never lowers its ids."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kgmem.errors import InvalidInput
from kgmem.recall.fusion import RRF_K, channel_of, fuse, rrf

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


weights = st.lists(st.floats(0.0, 5.0, allow_nan=False), min_size=5, max_size=5)


def test_weighted_rrf_known_values_and_unit_weights_are_plain_rrf() -> None:
    lists = [["a", "b"], ["b", "c"]]
    fused = dict(rrf(lists, weights=[2.0, 0.5]))
    assert fused["a"] == pytest.approx(2 / 61)
    assert fused["b"] == pytest.approx(2 / 62 + 0.5 / 61)
    assert fused["c"] == pytest.approx(0.5 / 62)
    assert rrf(lists, weights=[1.0, 1.0]) == rrf(lists)
    assert dict(rrf(lists, weights=[1.0, 0.0]))["c"] == 0.0  # a zero-weight list adds nothing


@pytest.mark.parametrize("bad", [[1.0], [1.0, -0.5], [1.0, float("nan")], [1.0, float("inf")]])
def test_weighted_rrf_rejects_bad_weights(bad: list[float]) -> None:
    with pytest.raises(InvalidInput):
        rrf([["a"], ["b"]], weights=bad)


@given(rankings, weights, st.randoms())
def test_weighted_rrf_ignores_the_order_of_the_pairs(
    lists: list[list[str]], ws: list[float], rnd: object
) -> None:
    pairs = list(zip(lists, ws[: len(lists)], strict=False))
    shuffled = list(pairs)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    a = rrf([r for r, _ in pairs], weights=[w for _, w in pairs])
    b = rrf([r for r, _ in shuffled], weights=[w for _, w in shuffled])
    assert a == b


@given(rankings, weights, st.floats(0.1, 10.0))
def test_scaling_every_weight_keeps_the_order(
    lists: list[list[str]], ws: list[float], c: float
) -> None:
    ws = ws[: len(lists)]
    before = dict(rrf(lists, weights=ws))
    position = {x: i for i, (x, _) in enumerate(rrf(lists, weights=[w * c for w in ws]))}
    assert set(position) == set(before)
    for x, sx in before.items():
        for y, sy in before.items():
            if sx > sy * (1 + 1e-9) + 1e-15:  # clearly ahead (not a tie up to rounding)
                assert position[x] < position[y]


@given(rankings, weights, st.integers(0, 4), st.floats(0.0, 5.0))
def test_raising_a_lists_weight_never_lowers_its_ids(
    lists: list[list[str]], ws: list[float], which: int, extra: float
) -> None:
    ws = ws[: len(lists)]
    if not lists:
        return
    i = which % len(lists)
    before = dict(rrf(lists, weights=ws))
    after = dict(rrf(lists, weights=[w + extra if j == i else w for j, w in enumerate(ws)]))
    assert all(after[x] >= before[x] for x in lists[i])


def test_fuse_weighs_each_list_by_its_channel() -> None:
    named = [("episode", ["a", "b"]), ("episode#1", ["c"]), ("entity", ["d"])]
    fused = dict(fuse(named, {"episode": 2.0, "entity": 0.25}))
    assert channel_of("episode#1") == "episode" and channel_of("vector_hyde") == "vector_hyde"
    assert fused["a"] == pytest.approx(2 / 61)
    assert fused["c"] == pytest.approx(2 / 61)  # a sub-query's list weighs as its channel
    assert fused["d"] == pytest.approx(0.25 / 61)
    assert fuse(named, {}) == rrf([r for _, r in named])  # no weights: the plain RRF
