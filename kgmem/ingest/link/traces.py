"""The trace weaver: sealed boxes threaded over time by the topics that recur.

Contract: ``thread_trace(sealed, traces, new_id=...)`` returns the trace a sealed box joins,
updated to include it — the best-scoring existing trace whose overlap with the box's topics is
at least ``min_overlap`` (0.5), its topics narrowed to those the two share — or a new trace
holding only the box; a box already on a trace returns that trace unchanged (idempotent).
``weave_trace`` is the same, returning only the trace id, and ``trace_overlap`` the overlap
coefficient that scores a box against a trace (0 when either side has no topics). Pure: no clock,
no I/O; new ids come from the caller's factory.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from kgmem.errors import InvalidInput
from kgmem.ingest.link.boxes import Box, checked_id

# A trace follows a box when at least half of the topics the two share room for recur in it.
TRACE_MIN_OVERLAP = 0.5


@dataclass(frozen=True)
class Trace:
    """A thread of boxes over time; ``topics`` are the ones every box on it shared so far."""

    id: str
    topics: frozenset[str]
    box_ids: tuple[str, ...]
    last_at: datetime


def trace_overlap(box_topics: frozenset[str], trace_topics: frozenset[str]) -> float:
    """Overlap coefficient of a box's and a trace's topics (the IN_TRACE edge's confidence);
    unlike ``topic_overlap`` an empty side scores 0: a topicless box joins no thread."""
    if not box_topics or not trace_topics:
        return 0.0
    return len(box_topics & trace_topics) / min(len(box_topics), len(trace_topics))


def thread_trace(
    sealed: Box,
    traces: Sequence[Trace],
    *,
    min_overlap: float = TRACE_MIN_OVERLAP,
    new_id: Callable[[], str],
) -> Trace:
    """The trace ``sealed`` joins, updated to include it, or a new trace holding only it.

    The best-scoring trace with overlap ≥ ``min_overlap`` wins (ties: more shared topics, then
    the most recent, then the smaller id). Joining narrows the trace's topics to those it shares
    with the box, so a trace stands for the topics that keep recurring and cannot swell into a
    catch-all. A box already on a trace returns that trace unchanged (idempotent).
    """
    if not 0.0 < min_overlap <= 1.0:
        raise InvalidInput(f"min_overlap must be in (0, 1], got {min_overlap!r}")
    for trace in traces:
        if sealed.id in trace.box_ids:
            return trace
    scored = [(trace_overlap(sealed.topics, t.topics), t) for t in traces]
    matches = [(score, t) for score, t in scored if score >= min_overlap]
    if not matches:
        return Trace(checked_id(new_id, "trace"), sealed.topics, (sealed.id,), sealed.last_at)
    _, best = min(
        matches,
        key=lambda m: (
            -m[0],
            -len(sealed.topics & m[1].topics),
            -m[1].last_at.timestamp(),
            m[1].id,
        ),
    )
    return Trace(
        best.id,
        best.topics & sealed.topics,
        (*best.box_ids, sealed.id),
        max(best.last_at, sealed.last_at),
    )


def weave_trace(
    sealed: Box,
    traces: Sequence[Trace],
    *,
    min_overlap: float = TRACE_MIN_OVERLAP,
    new_id: Callable[[], str],
) -> str:
    """The id of the trace ``sealed`` belongs on: an existing one with recurring topics, or new."""
    return thread_trace(sealed, traces, min_overlap=min_overlap, new_id=new_id).id
