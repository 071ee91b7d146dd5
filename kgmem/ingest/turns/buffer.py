"""Smart buffer (docs/write-path.md#the-smart-buffer) as a pure state machine over immutable state.

``push(state, item, now, level=...)`` appends one item and applies the triggers in order:
a HIGH signal flushes now (``high_signal``); a buffer holding ``max_turns`` items (N, default 5)
flushes as a batch (``max_turns``); a buffer whose oldest item was pushed more than ``max_age``
ago (T, default 15 minutes) flushes as a batch (``max_age``); otherwise it keeps buffering. A
flush always takes every buffered item, in push order, and leaves the buffer empty, so an item is
flushed exactly once. ``due(state, now)`` tells a scheduler that the age trigger has fired with no
new turn arriving; ``flush_due`` and ``drain`` empty the buffer for it and at shutdown. Times are
the caller's timezone-aware datetimes; nothing here reads a clock, does I/O or mutates state.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Generic, TypeVar

from kgmem.errors import InvalidInput
from kgmem.ingest.signals.records import SignalLevel

T = TypeVar("T")

# The reference engine ships bufferMaxTurns = 5 and bufferMaxMinutes = 15.
DEFAULT_MAX_TURNS = 5
DEFAULT_MAX_AGE = timedelta(minutes=15)


class FlushReason(StrEnum):
    HIGH_SIGNAL = "high_signal"  # HIGH signal → extract NOW
    MAX_TURNS = "max_turns"  # buffer ≥ N → extract BATCH
    MAX_AGE = "max_age"  # time > T → extract BATCH
    DRAIN = "drain"  # caller emptied the buffer (session end, shutdown)
    KEEP = "keep_buffering"  # no trigger fired; nothing flushed

    @property
    def immediate(self) -> bool:
        return self is FlushReason.HIGH_SIGNAL


@dataclass(frozen=True)
class BufferState(Generic[T]):
    """Buffered items (oldest first), when the oldest was pushed, and the N/T thresholds."""

    items: tuple[T, ...] = ()
    oldest_at: datetime | None = None
    max_turns: int = DEFAULT_MAX_TURNS
    max_age: timedelta = DEFAULT_MAX_AGE

    def __post_init__(self) -> None:
        if isinstance(self.max_turns, bool) or not isinstance(self.max_turns, int):
            raise InvalidInput(f"max_turns must be an integer, got {self.max_turns!r}")
        if self.max_turns < 1:
            raise InvalidInput(f"max_turns must be at least 1, got {self.max_turns}")
        if not isinstance(self.max_age, timedelta) or self.max_age <= timedelta(0):
            raise InvalidInput(f"max_age must be a positive timedelta, got {self.max_age!r}")
        if self.oldest_at is not None:
            _check_now(self.oldest_at)
        if self.items and self.oldest_at is None:
            raise InvalidInput("a non-empty buffer needs oldest_at, the time of its oldest item")

    def __len__(self) -> int:
        return len(self.items)

    def age(self, now: datetime) -> timedelta:
        """How long the oldest buffered item has waited (zero when empty)."""
        _check_now(now)
        if self.oldest_at is None or not self.items:
            return timedelta(0)
        return now - self.oldest_at


def _check_now(now: object) -> datetime:
    # Naive and aware datetimes cannot be compared; records.py promises aware UTC everywhere.
    if not isinstance(now, datetime) or now.tzinfo is None or now.utcoffset() is None:
        raise InvalidInput(f"times must be timezone-aware datetimes, got {now!r}")
    return now


def _empty(state: BufferState[T]) -> BufferState[T]:
    return replace(state, items=(), oldest_at=None)


def _too_old(state: BufferState[T], now: datetime) -> bool:
    # kgmem says "time > T": strictly older. A clock that went backwards never fires it.
    return (
        bool(state.items) and state.oldest_at is not None and now - state.oldest_at > state.max_age
    )


def push(
    state: BufferState[T],
    item: T,
    now: datetime,
    *,
    level: SignalLevel = SignalLevel.NONE,
) -> tuple[BufferState[T], tuple[T, ...] | None, FlushReason]:
    """Buffer one item; returns (new state, the flushed batch or None, why).

    The batch includes the new item and everything buffered before it, so a HIGH turn is
    extracted together with the context that led up to it.
    """
    _check_now(now)
    if not isinstance(level, SignalLevel):
        raise InvalidInput(f"level must be a SignalLevel, got {level!r}")
    oldest_at = state.oldest_at if state.items and state.oldest_at is not None else now
    grown = replace(state, items=(*state.items, item), oldest_at=oldest_at)
    if level is SignalLevel.HIGH:
        reason = FlushReason.HIGH_SIGNAL
    elif len(grown.items) >= grown.max_turns:
        reason = FlushReason.MAX_TURNS
    elif _too_old(grown, now):
        reason = FlushReason.MAX_AGE
    else:
        return grown, None, FlushReason.KEEP
    return _empty(grown), grown.items, reason


def due(state: BufferState[T], now: datetime) -> bool:
    """True when the buffer should be flushed although no new item arrived (age trigger)."""
    _check_now(now)
    return _too_old(state, now) or len(state.items) >= state.max_turns


def flush_due(
    state: BufferState[T], now: datetime
) -> tuple[BufferState[T], tuple[T, ...] | None, FlushReason]:
    """For a scheduler tick: flush if ``due``, otherwise leave the state as it is."""
    if not due(state, now):
        return state, None, FlushReason.KEEP
    reason = FlushReason.MAX_TURNS if len(state.items) >= state.max_turns else FlushReason.MAX_AGE
    return _empty(state), state.items, reason


def drain(state: BufferState[T]) -> tuple[BufferState[T], tuple[T, ...]]:
    """Flush whatever is buffered, regardless of triggers (session end, shutdown)."""
    return _empty(state), state.items
