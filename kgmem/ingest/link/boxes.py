"""Memory boxes (docs/write-path.md#boxes-and-traces) as pure functions over immutable records.

Contract: ``assign_box(state, memory_id, topics, at, new_id=...)`` puts one memory into the open
box and returns ``(open_box, sealed_box_or_None)``. Before appending, it seals the open box when
one of the conditions holds, checked in the seed's order: the topic overlap between the
box and the memory drops below ``shift_threshold`` (0.35), the gap since the box's last memory
exceeds ``gap`` (30 minutes), or the box would exceed ``max_memories`` (50); the memory then opens
a new box. Every memory id lands in exactly one box, and no box ever holds more than
``max_memories``. ``seal_if_idle`` seals an open box idle for longer than the gap. ``topics_of``
is the cheap, model-free topic extractor boxes and traces (``traces``) feed on: entity names plus
the most frequent content keywords. Nothing here reads a clock, makes ids by itself or does I/O:
the caller passes times and an id factory (``checked_id`` refuses a bad id) and stores the result.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from enum import StrEnum

from kgmem.core.text import content_words, normalize_name
from kgmem.core.validation import check_aware
from kgmem.errors import InvalidInput

# The defaults: boxTopicShiftThreshold, boxTimeGapMs, boxMaxMemories.
SHIFT_THRESHOLD = 0.35
BOX_GAP = timedelta(minutes=30)
MAX_MEMORIES = 50
# topics_of keeps this many keywords besides the entities: enough to tell topics apart, few
# enough that a box's topic set stays a topic and not a vocabulary.
MAX_KEYWORDS = 5
_MIN_KEYWORD_LEN = 3


class SealReason(StrEnum):
    TOPIC_SHIFT = "topic_shift"  # overlap < boxTopicShiftThreshold
    TIME_GAP = "time_gap"  # inactivity > boxTimeGapMs
    MAX_MEMORIES = "max_memories"  # count would exceed boxMaxMemories
    CLOSED = "closed"  # the caller closed it (session end, idle sweep)


@dataclass(frozen=True)
class BoxState:
    """The open box: memories on one topic in one stretch of time, still accepting more."""

    id: str
    topics: frozenset[str]
    memory_ids: tuple[str, ...]
    opened_at: datetime
    last_at: datetime
    session_id: str | None = None
    # Members not listed in memory_ids: a box reloaded from the graph may carry only its count.
    prior_count: int = 0

    def __post_init__(self) -> None:
        if isinstance(self.prior_count, bool) or not isinstance(self.prior_count, int):
            raise InvalidInput(f"prior_count must be an integer, got {self.prior_count!r}")
        if self.prior_count < 0:
            raise InvalidInput(f"prior_count must not be negative, got {self.prior_count}")

    @property
    def memory_count(self) -> int:
        return self.prior_count + len(self.memory_ids)


@dataclass(frozen=True)
class Box:
    """A sealed box: no memory is ever added to it again."""

    id: str
    topics: frozenset[str]
    memory_ids: tuple[str, ...]
    opened_at: datetime
    last_at: datetime
    sealed_at: datetime
    reason: SealReason
    session_id: str | None = None
    prior_count: int = 0

    @property
    def memory_count(self) -> int:
        return self.prior_count + len(self.memory_ids)


def checked_id(new_id: Callable[[], str], what: str) -> str:
    """An id from the caller's factory, refused unless it is a non-empty string."""
    made = new_id()
    if not isinstance(made, str) or not made:
        raise InvalidInput(f"new_id must return a non-empty string for a new {what}, got {made!r}")
    return made


def topic_overlap(box_topics: frozenset[str], memory_topics: frozenset[str]) -> float:
    """Overlap coefficient |A ∩ B| / min(|A|, |B|), and 1.0 when either set is empty.

    Not Jaccard: a box's topics are the union over up to 50 memories while one memory brings a
    handful, so Jaccard would fall below 0.35 for a memory squarely on the box's topic and seal
    every box after a few memories. The overlap coefficient asks what kgmem means: how much of
    the newcomer is already on the box's topic. An empty side is no evidence of a shift.
    """
    if not box_topics or not memory_topics:
        return 1.0
    return len(box_topics & memory_topics) / min(len(box_topics), len(memory_topics))


def seal_reason(
    state: BoxState,
    topics: frozenset[str],
    at: datetime,
    *,
    shift_threshold: float = SHIFT_THRESHOLD,
    gap: timedelta = BOX_GAP,
    max_memories: int = MAX_MEMORIES,
) -> SealReason | None:
    """Why the open box must be sealed before a memory with ``topics`` at ``at`` joins, if so."""
    if topic_overlap(state.topics, topics) < shift_threshold:
        return SealReason.TOPIC_SHIFT
    if at - state.last_at > gap:  # "exceeds": exactly 30 minutes still continues the box
        return SealReason.TIME_GAP
    if state.memory_count + 1 > max_memories:
        return SealReason.MAX_MEMORIES
    return None


def seal(state: BoxState, at: datetime, reason: SealReason = SealReason.CLOSED) -> Box:
    """The sealed form of ``state`` (for session end or an idle sweep, or after a trigger)."""
    check_aware(at, what="at")
    return Box(
        state.id,
        state.topics,
        state.memory_ids,
        state.opened_at,
        state.last_at,
        max(at, state.last_at),
        reason,
        state.session_id,
        state.prior_count,
    )


def _open(
    memory_id: str, topics: frozenset[str], at: datetime, box_id: str, session_id: str | None
) -> BoxState:
    return BoxState(box_id, topics, (memory_id,), at, at, session_id)


def assign_box(
    state: BoxState | None,
    memory_id: str,
    topics: Iterable[str],
    at: datetime,
    *,
    shift_threshold: float = SHIFT_THRESHOLD,
    gap: timedelta = BOX_GAP,
    max_memories: int = MAX_MEMORIES,
    new_id: Callable[[], str],
    session_id: str | None = None,
) -> tuple[BoxState, Box | None]:
    """Append ``memory_id`` to the open box, sealing it first if a condition holds.

    A memory already in the open box is not added twice. A memory dated before the box's last
    one (out-of-order delivery) is judged on topic and size only; it never moves ``last_at``
    back. A newly opened box takes ``session_id``, or else the session of the box it follows.
    """
    if not isinstance(memory_id, str) or not memory_id:
        raise InvalidInput(f"memory_id must be a non-empty string, got {memory_id!r}")
    check_aware(at, what="at")
    if not 0.0 <= shift_threshold <= 1.0:
        raise InvalidInput(f"shift_threshold must be in [0, 1], got {shift_threshold!r}")
    if not isinstance(gap, timedelta) or gap <= timedelta(0):
        raise InvalidInput(f"gap must be a positive timedelta, got {gap!r}")
    if isinstance(max_memories, bool) or not isinstance(max_memories, int) or max_memories < 1:
        raise InvalidInput(f"max_memories must be a positive integer, got {max_memories!r}")
    topic_set = frozenset(topics)
    if state is None:
        return _open(memory_id, topic_set, at, checked_id(new_id, "box"), session_id), None
    check_aware(state.last_at, what="state.last_at")
    if memory_id in state.memory_ids:
        return state, None
    reason = seal_reason(
        state,
        topic_set,
        at,
        shift_threshold=shift_threshold,
        gap=gap,
        max_memories=max_memories,
    )
    if reason is not None:
        sealed = seal(state, at, reason)
        session = session_id if session_id is not None else state.session_id
        return _open(memory_id, topic_set, at, checked_id(new_id, "box"), session), sealed
    grown = replace(
        state,
        topics=state.topics | topic_set,
        memory_ids=(*state.memory_ids, memory_id),
        last_at=max(state.last_at, at),
    )
    return grown, None


def seal_if_idle(
    state: BoxState | None, now: datetime, gap: timedelta = BOX_GAP
) -> tuple[BoxState | None, Box | None]:
    """For a scheduler tick: seal the open box once its inactivity exceeds ``gap``."""
    check_aware(now, what="now")
    if state is None or now - state.last_at <= gap:
        return state, None
    return None, seal(state, now, SealReason.TIME_GAP)


# --- Topics ------------------------------------------------------------------------------------


def topics_of(
    content: str, entities: Iterable[str] = (), *, k: int = MAX_KEYWORDS
) -> frozenset[str]:
    """Topic terms of one memory: its entities (normalised names) plus up to ``k`` keywords.

    Keywords are content words (``kgmem.core.text.content_words``: no stop words) of at least three
    letters, not numbers and not already part of an entity name, ranked by frequency and then by
    first appearance. No tagger and no model: this runs on every write.
    """
    if isinstance(k, bool) or not isinstance(k, int) or k < 0:
        raise InvalidInput(f"k must be a non-negative integer, got {k!r}")
    names = frozenset(key for key in (normalize_name(e) for e in entities) if key)
    in_names = {word for name in names for word in name.split()}
    words = [
        w
        for w in content_words(content)
        if len(w) >= _MIN_KEYWORD_LEN and not w.isdigit() and w not in in_names
    ]
    counts = Counter(words)
    first = {w: i for i, w in reversed(list(enumerate(words)))}
    keywords = sorted(counts, key=lambda w: (-counts[w], first[w]))[:k]
    return names | frozenset(keywords)
