"""The fulltext channel's BM25 share: of the list's best, or of a floor when the best is weak."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from kgmem.graph.rows import ScoredId
from kgmem.recall.channels import BM25_FLOOR, collect
from kgmem.recall.filters import Evidence


def _shares(scores: list[float]) -> dict[str, float]:
    ev: dict[str, Evidence] = {}
    rankings: list[tuple[str, list[str]]] = []
    rows = [ScoredId(f"m{i}", s) for i, s in enumerate(scores)]
    collect(ev, rankings, "fulltext", rows, "fulltext")
    return {k: e.bm25 or 0.0 for k, e in ev.items()}


def test_a_strong_best_match_counts_fully() -> None:
    shares = _shares([2 * BM25_FLOOR, BM25_FLOOR])
    assert shares == {"m0": 1.0, "m1": 0.5}


def test_a_list_matched_on_a_name_alone_is_no_full_match() -> None:
    # "Where does Maya work?" over memories that only share the name "Maya"
    shares = _shares([1.2, 1.1, 1.0])
    assert shares["m0"] == 1.2 / BM25_FLOOR < 0.5
    assert shares["m0"] > shares["m1"] > shares["m2"]


@given(st.lists(st.floats(0.01, 50.0), min_size=1, max_size=20))
def test_shares_keep_the_lists_order_and_stay_in_the_unit_range(scores: list[float]) -> None:
    shares = _shares(scores)
    for i, a in enumerate(scores):
        assert 0.0 < shares[f"m{i}"] <= 1.0
        for j, b in enumerate(scores):
            if a > b:
                assert shares[f"m{i}"] > shares[f"m{j}"]
    assert (max(shares.values()) == 1.0) == (max(scores) >= BM25_FLOOR)
