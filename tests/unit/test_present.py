"""Recall answers the present (``recall/present.py``): for a question about now, an older state is
placed below its newer restatement; nothing else moves."""

from __future__ import annotations

import math
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgmem.recall.candidates import Candidate, Scored
from kgmem.recall.present import asks_present, present_first
from kgmem.taxonomy import Category

T0 = datetime(2025, 3, 1, tzinfo=UTC)


@pytest.mark.parametrize(
    ("query", "present"),
    [
        ("What is Zainab's favourite band?", True),
        ("Where does Ethan live?", True),
        ("How old is Ravi?", True),
        ("How many sources have I collected so far?", True),
        ("Where did Yuki do their undergraduate degree?", False),
        ("What was Maya's first car?", False),
        ("Where did Ethan live before the move?", False),
        ("What happened to Melanie's son on their road trip?", False),
    ],
)
def test_present_questions(query: str, present: bool) -> None:
    assert asks_present(query) is present


def _cand(mid: str, days: int, vec: list[float], category: str = Category.FACT) -> Candidate:
    when = T0 + timedelta(days=days)
    return Candidate(
        mid, f"memory {mid}", when, category=category, valid_from=when, entities=("zainab",),
        embedding=vec,
    )  # fmt: skip


def _scored(mid: str, final: float) -> Scored:
    return Scored(final, {"relevance": final}, {}, mid)


OLD = [1.0, 0.0, 0.0]
NEW = [0.8, 0.6, 0.0]  # cosine 0.8 with OLD: the same state
OTHER = [0.0, 0.0, 1.0]  # cosine 0 with both


def test_the_newer_restatement_comes_first_and_the_xray_adds_up() -> None:
    by_id = {"old": _cand("old", 0, OLD), "new": _cand("new", 40, NEW)}
    out = present_first([_scored("old", 0.9), _scored("new", 0.7)], by_id)
    assert [s.memory_id for s in out] == ["new", "old"]
    moved = out[1]
    assert moved.factors["outdated"] == 1.0
    assert moved.final == math.fsum(moved.contributions.values())
    assert moved.final < out[0].final


def test_an_unrelated_far_weaker_or_dated_newer_memory_moves_nothing() -> None:
    base = [_scored("old", 0.9), _scored("new", 0.7)]
    cases = [
        {"old": _cand("old", 0, OLD), "new": _cand("new", 40, OTHER)},  # another state
        {"old": _cand("old", 0, OLD), "new": _cand("new", -5, NEW)},  # older, not newer
        {"old": _cand("old", 0, OLD, Category.EVENT), "new": _cand("new", 40, NEW)},  # a happening
    ]
    for by_id in cases:
        assert [s.memory_id for s in present_first(base, by_id)] == ["old", "new"]
    weak = [_scored("old", 0.9), _scored("new", 0.3)]  # below MIN_SHARE of the older
    by_id = {"old": _cand("old", 0, OLD), "new": _cand("new", 40, NEW)}
    assert [s.memory_id for s in present_first(weak, by_id)] == ["old", "new"]


def test_a_chain_settles_newest_first() -> None:
    mid = [0.9, 0.43589, 0.0]
    by_id = {"a": _cand("a", 0, OLD), "b": _cand("b", 20, mid), "c": _cand("c", 40, NEW)}
    out = present_first([_scored("a", 0.9), _scored("b", 0.8), _scored("c", 0.7)], by_id)
    assert [s.memory_id for s in out] == ["c", "b", "a"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.floats(0.01, 1.0), st.integers(0, 100)), min_size=1, max_size=8))
def test_it_only_reorders_and_never_raises_a_score(rows: list[tuple[float, int]]) -> None:
    by_id = {f"m{i}": _cand(f"m{i}", d, OLD if i % 2 else NEW) for i, (_, d) in enumerate(rows)}
    scored = [_scored(f"m{i}", f) for i, (f, _) in enumerate(rows)]
    out = present_first(scored, by_id)
    assert sorted(s.memory_id for s in out) == sorted(by_id)
    before = {s.memory_id: s.final for s in scored}
    assert all(s.final <= before[s.memory_id] for s in out)
    assert all(s.final == math.fsum(s.contributions.values()) for s in out)


def test_a_relatives_state_an_addition_or_another_attribute_is_no_restatement() -> None:
    old = _cand("old", 0, OLD)
    for text in (
        "Zainab's sister loves Fleetwood Mac.",  # a relative's
        "Zainab also likes Fleetwood Mac.",  # an addition
        "Zainab might get into Fleetwood Mac.",  # a hypothetical
    ):
        new = replace(_cand("new", 40, NEW), content=text)
        out = present_first([_scored("old", 0.9), _scored("new", 0.7)], {"old": old, "new": new})
        assert [s.memory_id for s in out] == ["old", "new"], text
    film = replace(old, claim_subject="zainab", claim_slot="favourite:film", claim_confidence=0.8)
    book = replace(
        _cand("new", 40, NEW), claim_subject="zainab", claim_slot="favourite:book",
        claim_confidence=0.8,
    )  # fmt: skip
    out = present_first([_scored("old", 0.9), _scored("new", 0.7)], {"old": film, "new": book})
    assert [s.memory_id for s in out] == ["old", "new"]
    band = replace(book, claim_slot="favourite:film")  # the same attribute: the newer first
    out = present_first([_scored("old", 0.9), _scored("new", 0.7)], {"old": film, "new": band})
    assert [s.memory_id for s in out] == ["new", "old"]
