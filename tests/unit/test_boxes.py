"""Memory boxes and the trace weaver: each seal trigger exactly at its threshold
(topic overlap 0.35, a 30-minute gap, 50 memories), no memory id lost and no box over 50, traces
that follow recurring topics, and the cheap topic extractor."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kgmem.errors import InvalidInput
from kgmem.ingest.link.boxes import (
    Box,
    BoxState,
    SealReason,
    assign_box,
    seal,
    seal_if_idle,
    topic_overlap,
    topics_of,
)
from kgmem.ingest.link.traces import Trace, thread_trace, trace_overlap, weave_trace

T0 = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)


def ids(prefix: str = "box") -> Callable[[], str]:
    counter = itertools.count(1)
    return lambda: f"{prefix}{next(counter)}"


def box_with(topics: set[str], n: int = 1, last_at: datetime = T0) -> BoxState:
    return BoxState("b0", frozenset(topics), tuple(f"m{i}" for i in range(n)), T0, last_at)


# --- opening and appending ---------------------------------------------------------------------


def test_first_memory_opens_a_box() -> None:
    box, sealed = assign_box(None, "m1", {"oslo"}, T0, new_id=ids())
    assert sealed is None
    assert box == BoxState("box1", frozenset({"oslo"}), ("m1",), T0, T0)


def test_on_topic_memory_is_appended_and_topics_grow() -> None:
    box, _ = assign_box(None, "m1", {"oslo", "move"}, T0, new_id=ids())
    later = T0 + timedelta(minutes=10)
    box, sealed = assign_box(box, "m2", {"oslo", "apartment"}, later, new_id=ids())
    assert sealed is None
    assert box.memory_ids == ("m1", "m2")
    assert box.topics == {"oslo", "move", "apartment"}
    assert (box.opened_at, box.last_at) == (T0, later)
    again, sealed = assign_box(box, "m2", {"oslo"}, later, new_id=ids())
    assert again == box and sealed is None  # the same memory is not added twice


# --- each seal trigger exactly at its threshold ------------------------------------------------


def test_topic_shift_seals_below_point_three_five_only() -> None:
    box_topics = {f"t{i}" for i in range(20)}
    at_threshold = {f"t{i}" for i in range(7)} | {f"n{i}" for i in range(13)}  # 7 / 20 = 0.35
    assert topic_overlap(frozenset(box_topics), frozenset(at_threshold)) == 0.35
    _, sealed = assign_box(box_with(box_topics), "new", at_threshold, T0, new_id=ids())
    assert sealed is None
    below = {f"t{i}" for i in range(6)} | {f"n{i}" for i in range(14)}  # 6 / 20 = 0.30
    box, sealed = assign_box(box_with(box_topics), "new", below, T0, new_id=ids())
    assert sealed is not None and sealed.reason is SealReason.TOPIC_SHIFT
    assert sealed.memory_ids == ("m0",) and box.memory_ids == ("new",)
    assert box.topics == frozenset(below)


def test_time_gap_seals_only_when_exceeding_thirty_minutes() -> None:
    state = box_with({"oslo"})
    _, sealed = assign_box(state, "new", {"oslo"}, T0 + timedelta(minutes=30), new_id=ids())
    assert sealed is None
    late = T0 + timedelta(minutes=30, microseconds=1)
    box, sealed = assign_box(state, "new", {"oslo"}, late, new_id=ids())
    assert sealed is not None and sealed.reason is SealReason.TIME_GAP
    assert sealed.sealed_at == late and sealed.last_at == T0
    assert box.opened_at == late


def test_fifty_first_memory_seals_a_full_box() -> None:
    _, sealed = assign_box(box_with({"oslo"}, n=49), "new", {"oslo"}, T0, new_id=ids())
    assert sealed is None
    full = box_with({"oslo"}, n=50)
    box, sealed = assign_box(full, "new", {"oslo"}, T0, new_id=ids())
    assert sealed is not None and sealed.reason is SealReason.MAX_MEMORIES
    assert len(sealed.memory_ids) == 50 and box.memory_ids == ("new",)


def test_a_box_reloaded_with_only_a_count_still_seals_at_fifty() -> None:
    reloaded = BoxState("b0", frozenset({"oslo"}), (), T0, T0, "s1", prior_count=49)
    box, sealed = assign_box(reloaded, "m49", {"oslo"}, T0, new_id=ids())
    assert sealed is None and box.memory_count == 50 and box.memory_ids == ("m49",)
    box, sealed = assign_box(box, "m50", {"oslo"}, T0, new_id=ids())
    assert sealed is not None and sealed.memory_count == 50
    assert sealed.reason is SealReason.MAX_MEMORIES
    assert box.session_id == "s1"  # the next box stays in the session
    with pytest.raises(InvalidInput):
        BoxState("b0", frozenset(), (), T0, T0, prior_count=-1)


def test_empty_topic_sets_are_no_evidence_of_a_shift() -> None:
    assert topic_overlap(frozenset(), frozenset({"a"})) == 1.0
    box, sealed = assign_box(box_with(set()), "new", {"oslo"}, T0, new_id=ids())
    assert sealed is None and box.topics == {"oslo"}
    _, sealed = assign_box(box_with({"oslo"}), "new", set(), T0, new_id=ids())
    assert sealed is None


def test_out_of_order_memory_never_moves_last_at_back() -> None:
    state = box_with({"oslo"}, last_at=T0 + timedelta(minutes=5))
    box, sealed = assign_box(state, "new", {"oslo"}, T0, new_id=ids())
    assert sealed is None and box.last_at == T0 + timedelta(minutes=5)


def test_bad_input_is_rejected() -> None:
    with pytest.raises(InvalidInput):
        assign_box(None, "m1", {"a"}, datetime(2025, 1, 1), new_id=ids())
    with pytest.raises(InvalidInput):
        assign_box(None, "", {"a"}, T0, new_id=ids())
    with pytest.raises(InvalidInput):
        assign_box(None, "m1", {"a"}, T0, max_memories=0, new_id=ids())
    with pytest.raises(InvalidInput):
        assign_box(None, "m1", {"a"}, T0, new_id=lambda: "")


def test_idle_box_is_sealed_by_a_tick_and_closing_seals_it() -> None:
    state = box_with({"oslo"})
    assert seal_if_idle(state, T0 + timedelta(minutes=30)) == (state, None)
    left, sealed = seal_if_idle(state, T0 + timedelta(minutes=31))
    assert left is None and sealed is not None and sealed.reason is SealReason.TIME_GAP
    assert seal_if_idle(None, T0) == (None, None)
    closed = seal(state, T0 + timedelta(minutes=1))
    assert closed.reason is SealReason.CLOSED and closed.memory_ids == state.memory_ids


_step = st.tuples(
    st.frozensets(st.sampled_from("abcdefgh"), max_size=4),
    st.integers(0, 45),  # minutes since the previous memory
)


@given(st.lists(_step, max_size=150), st.integers(1, 60))
def test_no_memory_is_lost_and_no_box_overflows(
    steps: list[tuple[frozenset[str], int]], max_memories: int
) -> None:
    state: BoxState | None = None
    sealed: list[Box] = []
    at = T0
    new_id = ids()
    for i, (topics, minutes) in enumerate(steps):
        at += timedelta(minutes=minutes)
        state, done = assign_box(
            state, f"m{i}", topics, at, max_memories=max_memories, new_id=new_id
        )
        if done is not None:
            sealed.append(done)
        assert len(state.memory_ids) <= max_memories
    boxes = [*(b.memory_ids for b in sealed), *([state.memory_ids] if state else [])]
    assert all(0 < len(b) <= max_memories for b in boxes)
    assert [m for b in boxes for m in b] == [f"m{i}" for i in range(len(steps))]
    assert len({b.id for b in sealed}) == len(sealed)


# --- trace weaver ------------------------------------------------------------------------------


def sealed_box(box_id: str, topics: set[str], at: datetime = T0) -> Box:
    return Box(box_id, frozenset(topics), ("m",), at, at, at, SealReason.TOPIC_SHIFT)


def test_first_box_starts_a_trace() -> None:
    box = sealed_box("b1", {"ann", "oslo", "move"})
    trace = thread_trace(box, [], new_id=ids("trace"))
    assert trace == Trace("trace1", box.topics, ("b1",), T0)
    assert weave_trace(box, [], new_id=ids("trace")) == "trace1"


def test_box_with_recurring_topics_joins_the_trace_and_narrows_it() -> None:
    trace = Trace("tr", frozenset({"ann", "oslo", "move", "apartment"}), ("b1",), T0)
    later = T0 + timedelta(days=3)
    box = sealed_box("b2", {"ann", "oslo", "job"}, later)  # 2 of 3 recur: 0.67
    joined = thread_trace(box, [trace], new_id=ids("trace"))
    assert joined == Trace("tr", frozenset({"ann", "oslo"}), ("b1", "b2"), later)
    assert thread_trace(box, [joined], new_id=ids("trace")) == joined  # idempotent


def test_min_overlap_threshold_and_best_match() -> None:
    trace = Trace("tr", frozenset({"a", "b", "c", "d"}), ("b1",), T0)
    half = sealed_box("b2", {"a", "b", "x", "y"})  # 2 / 4 = 0.5
    assert weave_trace(half, [trace], new_id=ids("new")) == "tr"
    less = sealed_box("b3", {"a", "x", "y", "z"})  # 1 / 4 < 0.5
    assert weave_trace(less, [trace], new_id=ids("new")) == "new1"
    better = Trace("tr2", frozenset({"a", "x", "y"}), ("b9",), T0 - timedelta(days=1))
    assert weave_trace(less, [trace, better], new_id=ids("new")) == "tr2"


def test_trace_overlap_is_the_overlap_coefficient() -> None:
    assert trace_overlap(frozenset("ab"), frozenset("abcd")) == 1.0
    assert trace_overlap(frozenset("axyz"), frozenset("abcd")) == 0.25
    assert trace_overlap(frozenset(), frozenset("a")) == 0.0


def test_topicless_box_joins_no_trace() -> None:
    trace = Trace("tr", frozenset({"a"}), ("b1",), T0)
    assert weave_trace(sealed_box("b2", set()), [trace], new_id=ids("new")) == "new1"


# --- topics ------------------------------------------------------------------------------------


def test_topics_are_entities_plus_frequent_keywords() -> None:
    topics = topics_of(
        "Caroline went to the LGBTQ support group; the support group was powerful in 2023.",
        ["Caroline", "the LGBTQ Center"],
        k=2,
    )
    # entity names normalised; "lgbtq" is inside an entity, "2023" is a number, ties by position
    assert topics == {"caroline", "lgbtq center", "support", "group"}


def test_topics_without_entities_or_content() -> None:
    assert topics_of("", []) == frozenset()
    assert topics_of("I think it was okay", []) == frozenset()
    assert len(topics_of("alpha beta gamma delta epsilon zeta eta theta", [])) == 5
