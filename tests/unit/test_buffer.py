"""The smart buffer's three kgmem triggers (HIGH now, N turns, age T) as a pure state machine,
and its one law: every pushed item is flushed exactly once, in push order."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgmem.errors import InvalidInput
from kgmem.ingest.extractors.scanner import scan
from kgmem.ingest.signals.records import SignalLevel
from kgmem.ingest.turns.buffer import (
    DEFAULT_MAX_AGE,
    DEFAULT_MAX_TURNS,
    BufferState,
    FlushReason,
    drain,
    due,
    flush_due,
    push,
)
from kgmem.records import Turn

T0 = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)


def test_seed_defaults() -> None:
    state: BufferState[Turn] = BufferState()
    assert (state.max_turns, state.max_age) == (DEFAULT_MAX_TURNS, DEFAULT_MAX_AGE)
    assert (5, timedelta(minutes=15)) == (DEFAULT_MAX_TURNS, DEFAULT_MAX_AGE)


def test_low_signal_keeps_buffering() -> None:
    state, flushed, reason = push(BufferState[str](), "a", T0)
    assert flushed is None and reason is FlushReason.KEEP
    assert state.items == ("a",) and state.oldest_at == T0


def test_high_signal_extracts_now_with_buffered_context() -> None:
    state: BufferState[Turn] = BufferState()
    filler = Turn(text="hmm, let me see", session_id="s1")
    state, _, _ = push(state, filler, T0, level=scan(filler.text).level)
    correction = Turn(text="Actually, I meant Tuesday not Monday", session_id="s1")
    level = scan(correction.text).level
    assert level is SignalLevel.HIGH
    state, flushed, reason = push(state, correction, T0 + timedelta(seconds=5), level=level)
    assert reason is FlushReason.HIGH_SIGNAL and reason.immediate
    assert flushed == (filler, correction)
    assert state.items == () and state.oldest_at is None


def test_batch_at_n_turns() -> None:
    state = BufferState[int](max_turns=3)
    outcomes = []
    for i in range(3):
        state, flushed, reason = push(state, i, T0 + timedelta(seconds=i))
        outcomes.append((flushed, reason))
    assert outcomes[:2] == [(None, FlushReason.KEEP)] * 2
    assert outcomes[2] == ((0, 1, 2), FlushReason.MAX_TURNS)
    assert len(state) == 0


def test_batch_when_oldest_is_older_than_t() -> None:
    state = BufferState[str](max_age=timedelta(minutes=15))
    state, _, _ = push(state, "old", T0)
    # Exactly T is not "older than T" (time > T).
    assert not due(state, T0 + timedelta(minutes=15))
    assert due(state, T0 + timedelta(minutes=15, seconds=1))
    state, flushed, reason = push(state, "new", T0 + timedelta(minutes=16))
    assert (flushed, reason) == (("old", "new"), FlushReason.MAX_AGE)


def test_flush_due_for_a_scheduler_tick() -> None:
    state, _, _ = push(BufferState[str](), "x", T0)
    same, flushed, reason = flush_due(state, T0 + timedelta(minutes=1))
    assert same is state and flushed is None and reason is FlushReason.KEEP
    empty, flushed, reason = flush_due(state, T0 + timedelta(hours=1))
    assert flushed == ("x",) and reason is FlushReason.MAX_AGE and len(empty) == 0


def test_age_is_measured_from_the_oldest_item_not_the_latest() -> None:
    state = BufferState[str](max_turns=100)
    for minute in range(0, 15, 5):
        state, flushed, _ = push(state, f"t{minute}", T0 + timedelta(minutes=minute))
        assert flushed is None
    assert state.oldest_at == T0
    assert state.age(T0 + timedelta(minutes=20)) == timedelta(minutes=20)


def test_empty_buffer_is_never_due_and_drains_to_nothing() -> None:
    state = BufferState[str]()
    assert not due(state, T0 + timedelta(days=365))
    assert drain(state) == (state, ())


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(InvalidInput):
        BufferState[str](max_turns=0)
    with pytest.raises(InvalidInput):
        BufferState[str](max_age=timedelta(0))
    with pytest.raises(InvalidInput):
        push(BufferState[str](), "x", datetime(2024, 1, 1))  # naive time
    with pytest.raises(InvalidInput):
        push(BufferState[str](), "x", T0, level=3)  # type: ignore[arg-type]


_steps = st.lists(
    st.tuples(
        st.sampled_from(list(SignalLevel)),
        st.integers(min_value=-60, max_value=3600),  # seconds since the previous push (skew too)
        st.booleans(),  # run a scheduler tick before this push
    ),
    max_size=60,
)


@settings(max_examples=300)
@given(
    _steps,
    st.integers(min_value=1, max_value=8),
    st.integers(min_value=1, max_value=1800),
)
def test_every_item_is_flushed_exactly_once_in_order(
    steps: list[tuple[SignalLevel, int, bool]], max_turns: int, max_age_s: int
) -> None:
    state = BufferState[int](max_turns=max_turns, max_age=timedelta(seconds=max_age_s))
    now = T0
    flushed_all: list[int] = []
    for i, (level, gap, tick) in enumerate(steps):
        now += timedelta(seconds=gap)
        if tick:
            state, batch, reason = flush_due(state, now)
            assert (batch is None) == (reason is FlushReason.KEEP)
            flushed_all.extend(batch or ())
        state, batch, reason = push(state, i, now, level=level)
        assert (batch is None) == (reason is FlushReason.KEEP)
        if level is SignalLevel.HIGH:
            assert reason is FlushReason.HIGH_SIGNAL
        if batch is not None:
            assert batch[-1] == i and len(state) == 0
            flushed_all.extend(batch)
        assert len(state) < max_turns  # the N trigger never lets the buffer reach N
    state, rest = drain(state)
    flushed_all.extend(rest)
    assert flushed_all == list(range(len(steps)))
    assert len(state) == 0 and state.oldest_at is None
