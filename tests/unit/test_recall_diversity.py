"""After scoring: the MMR (λ = 0.7) with its dropped ids, the confidence-gated injection
thresholds, the hot tier's selection rules, and the cosine/centroid helpers."""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kgmem.core.tunables import HOT_MAX_ITEMS
from kgmem.errors import InvalidInput
from kgmem.recall.candidates import Candidate
from kgmem.recall.diversity import (
    MMR_LAMBDA,
    centroid,
    cosine,
    cosines,
    embedding_rows,
    gate_confidence,
    hit_confidence,
    hot_tier,
    mmr,
)
from kgmem.recall.profiles import PROFILES
from kgmem.recall.scoring import score

NOW = datetime(2025, 6, 1, tzinfo=UTC)

vectors = st.lists(st.floats(-1.0, 1.0, allow_nan=False), min_size=3, max_size=3)
items_strategy = st.lists(
    st.tuples(
        st.sampled_from("abcdefghij"),
        st.floats(-1.0, 2.0, allow_nan=False),
        st.none() | vectors,
    ),
    max_size=12,
)


# --- MMR ---------------------------------------------------------------------------------------


def test_mmr_skips_a_near_duplicate() -> None:
    items = [
        ("a", 0.90, (1.0, 0.0, 0.0)),
        ("a2", 0.88, (0.99, 0.05, 0.0)),  # nearly the same memory as "a"
        ("b", 0.70, (0.0, 1.0, 0.0)),
    ]
    result = mmr(items, k=2)
    assert result.selected == ["a", "b"]
    assert result.dropped == ["a2"]  # would have made the top 2 on relevance alone
    assert MMR_LAMBDA == 0.7


def test_mmr_reports_only_mmr_drops_not_the_limit_cut() -> None:
    items = [(c, 1.0 - i / 10, (float(i), 1.0, 0.0)) for i, c in enumerate("abcde")]
    result = mmr(items, k=5)
    assert sorted(result.selected) == list("abcde") and result.dropped == []
    assert mmr(items, k=0) == ([], [])


@given(items_strategy, st.integers(0, 12), st.floats(0.0, 1.0))
def test_mmr_ignores_input_order_and_never_repeats(
    items: list[tuple[str, float, list[float] | None]], k: int, lam: float
) -> None:
    forward = mmr(items, k, lam)
    backward = mmr(list(reversed(items)), k, lam)
    assert forward == backward
    assert (
        len(forward.selected) == len(set(forward.selected)) == min(k, len({i for i, *_ in items}))
    )
    assert not set(forward.selected) & set(forward.dropped)


@given(items_strategy, st.integers(0, 12))
def test_mmr_with_lambda_one_is_pure_relevance_order(
    items: list[tuple[str, float, list[float] | None]], k: int
) -> None:
    best: dict[str, float] = {}
    for item_id, relevance, _ in items:
        best[item_id] = max(relevance, best.get(item_id, -math.inf))
    expected = sorted(best, key=lambda i: (-best[i], i))[:k]
    assert mmr(items, k, lam=1.0) == (expected, [])


def test_mmr_refuses_bad_arguments() -> None:
    with pytest.raises(InvalidInput):
        mmr([], k=-1)
    with pytest.raises(InvalidInput):
        mmr([], k=3, lam=1.5)
    with pytest.raises(InvalidInput):
        mmr([("a", math.nan, None)], k=1)


def _scalar_cos(a: Sequence[float] | None, b: Sequence[float] | None) -> float:
    """The pairwise cosine in plain Python: the oracle for the matrix forms."""
    if a is None or b is None or len(a) != len(b):
        return 0.0
    na, nb = math.sqrt(math.fsum(x * x for x in a)), math.sqrt(math.fsum(x * x for x in b))
    if na == 0.0 or nb == 0.0:
        return 0.0
    return max(-1.0, min(1.0, math.fsum(x * y for x, y in zip(a, b, strict=True)) / (na * nb)))


def _best_items(
    items: list[tuple[str, float, Sequence[float] | None]],
) -> dict[str, tuple[float, Sequence[float] | None]]:
    """A repeated id keeps its highest relevance (ties: the larger embedding), as ``mmr`` says."""
    best: dict[str, tuple[float, tuple[float, ...], Sequence[float] | None]] = {}
    for item_id, relevance, embedding in items:
        key = tuple(embedding) if embedding is not None else ()
        held = best.get(item_id)
        if held is None or (relevance, key) > held[:2]:
            best[item_id] = (relevance, key, embedding)
    return {i: (r, e) for i, (r, _, e) in best.items()}


# Relevances on a grid and small integer vectors; exact ties (same gain) still occur, and there
# the matrix's rounding (a cosine of -1e-17 for an exact 0) may pick another of the tied items
# than a pairwise oracle would, so the law is stated with a tolerance: every pick is an argmax
# of the MMR gain up to 1e-9, and the picks stop at k or when nothing is left.
grid_items = st.lists(
    st.tuples(
        st.sampled_from("abcdefghij"),
        st.integers(-4, 8).map(lambda x: x / 4),
        st.none() | st.lists(st.integers(-3, 3).map(float), min_size=2, max_size=3),
    ),
    max_size=12,
)


@given(grid_items, st.integers(0, 12), st.sampled_from([0.0, 0.3, 0.5, 0.7, 1.0]))
def test_vectorised_mmr_picks_an_argmax_of_the_pairwise_gain(
    items: list[tuple[str, float, list[float] | None]], k: int, lam: float
) -> None:
    best = _best_items(items)
    got = mmr(items, k, lam)
    assert len(got.selected) == min(k, len(best))
    assert len(set(got.selected)) == len(got.selected)
    for n, pick in enumerate(got.selected):
        done = got.selected[:n]

        def gain(i: str, done: list[str] = done) -> float:
            sim = max((_scalar_cos(best[i][1], best[j][1]) for j in done), default=0.0)
            return lam * best[i][0] - (1 - lam) * sim

        assert gain(pick) >= max(gain(i) for i in best if i not in done) - 1e-9
    by_relevance = sorted(best, key=lambda i: (-best[i][0], i))
    assert got.dropped == [i for i in by_relevance[:k] if i not in got.selected]


# --- vectors -----------------------------------------------------------------------------------


def test_cosine_and_centroid() -> None:
    assert cosine((1.0, 0.0), (0.0, 2.0)) == 0.0
    assert cosine((1.0, 1.0), (2.0, 2.0)) == pytest.approx(1.0)
    assert cosine((0.0, 0.0), (1.0, 0.0)) == 0.0  # a zero vector says nothing
    assert cosine((1.0, 0.0), (1.0, 0.0, 0.0)) == 0.0
    assert centroid([(2.0, 0.0), (0.0, 5.0)]) == pytest.approx([0.5, 0.5])
    with pytest.raises(InvalidInput):
        centroid([(0.0, 0.0)])


# Components of embedding size: zero or between 1e-6 and 1e3 in magnitude. (Around 1e-160 the
# oracle's sums of squares underflow to 0 while numpy's norm scales first and still says 1.)
component = st.just(0.0) | st.floats(1e-6, 1e3) | st.floats(-1e3, -1e-6)


@given(
    st.none() | st.lists(component, min_size=1, max_size=5),
    st.lists(st.none() | st.lists(component, min_size=1, max_size=5), max_size=8),
)
def test_cosines_equal_the_pairwise_cosine(
    query: list[float] | None, vectors: list[list[float] | None]
) -> None:
    got = cosines(query, vectors)
    assert len(got) == len(vectors)
    for v, c in zip(vectors, got, strict=True):
        assert c == pytest.approx(_scalar_cos(query, v), abs=1e-9)
        if query is not None and v is not None:
            # the matrix product sums in another order than the pairwise loop: equal up to rounding
            assert c == pytest.approx(cosine(query, v), rel=1e-12, abs=1e-12)


# --- confidence-gated injection ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("confidence", "style"),
    [
        (1.0, "full"),
        (0.7, "full"),
        (0.6999, "abbreviated"),
        (0.4, "abbreviated"),
        (0.3999, "skipped"),
        (0.0, "skipped"),
        (math.nan, "skipped"),
    ],
)
def test_gate_confidence_follows_seed_004(confidence: float, style: str) -> None:
    assert gate_confidence(confidence) == style


def test_hit_confidence_is_the_query_memory_cosine() -> None:
    c = Candidate(id="m", content="x", created_at=NOW, vector_score=0.9)  # cos 0.8
    s = score(c, PROFILES["balanced"], NOW)
    assert hit_confidence(s) == pytest.approx(0.8)
    assert gate_confidence(hit_confidence(s)) == "full"


# --- hot tier ----------------------------------------------------------------------------------


def hot(id: str, **fields: object) -> Candidate:
    values: dict[str, object] = {
        "utility": 0.9,
        "access_count": 12,
        "created_at": NOW - timedelta(days=5),
        "tier": "semantic",
    }
    values.update(fields)
    return Candidate(id=id, content=id, **values)  # type: ignore[arg-type]


def test_hot_tier_applies_seed_004_filters() -> None:
    picked = hot_tier(
        [
            hot("in"),
            hot("low_utility", utility=0.79),
            hot("few_accesses", access_count=9),
            hot("too_old", created_at=NOW - timedelta(days=30)),
            hot("superseded", status="superseded"),
            hot("stale", lifecycle_state="stale"),
            hot("dormant", tier="dormant"),
            hot("edge", utility=0.8, access_count=10, created_at=NOW - timedelta(days=29)),
        ],
        NOW,
    )
    assert [c.id for c in picked] == ["in", "edge"]


def test_hot_tier_is_utility_ordered_and_capped() -> None:
    many = [hot(f"m{i:02d}", utility=0.8 + i / 200) for i in range(20)]
    picked = hot_tier(many, NOW)
    assert len(picked) == HOT_MAX_ITEMS == 15
    assert [c.utility for c in picked] == sorted((c.utility for c in many), reverse=True)[:15]
    assert hot_tier(many + many, NOW) == picked  # a repeated memory appears once


ragged = st.lists(
    st.none() | st.lists(st.floats(-1e3, 1e3, allow_nan=False), max_size=4), max_size=10
)


@given(ragged)
def test_embedding_rows_are_the_lists_as_one_read_only_matrix_per_size(
    values: list[list[float] | None],
) -> None:
    rows = embedding_rows(values)
    assert len(rows) == len(values)
    for v, row in zip(values, rows, strict=True):
        if not v:
            assert row is None
            continue
        assert row is not None and row.dtype == np.float64 and not row.flags.writeable
        assert row.tolist() == [float(x) for x in v]  # exact: a float64 holds a Python float
    bases = {len(r): r.base for r in rows if r is not None}
    assert all(r.base is bases[len(r)] for r in rows if r is not None)  # one matrix per size


@given(
    st.lists(
        st.none() | st.lists(st.floats(-1.0, 1.0, allow_nan=False), min_size=3, max_size=3),
        max_size=10,
    ),
    vectors,
)
def test_rows_give_bit_identical_cosines_and_mmr(
    values: list[list[float] | None], query: list[float]
) -> None:
    rows = embedding_rows(values)
    as_tuples = [tuple(v) if v else None for v in values]
    assert cosines(query, rows) == cosines(query, as_tuples)
    ids = [f"m{i % 4}" for i in range(len(values))]  # repeated ids: the larger pair is kept
    rel = [0.5] * len(values)
    assert mmr(zip(ids, rel, rows, strict=True), k=3) == mmr(
        zip(ids, rel, as_tuples, strict=True), k=3
    )
