"""Synaptic tagging and capture for the write path, as pure functions over records.

Contract: ``tag_and_capture(new, open_tags, ttl)`` applies the rule for one newly stored
memory and returns the tags after it and the ids it captured. Weak memories (importance < 0.5)
with a session get a 4-hour ``SynapticTag``; a strong memory (importance ≥ 0.7) captures the
live, uncaptured tags of its session (the caller multiplies those memories' stability by
``CAPTURE_STABILITY_BOOST``, 1.3); expired tags are dropped. A memory without a session neither
tags nor captures. Reads no clock and does no I/O; a non-string id, an importance outside [0, 1],
a naive datetime or a non-positive TTL raises ``InvalidInput``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import NamedTuple

from kgmem.core.validation import check_aware, check_unit
from kgmem.errors import InvalidInput

TAG_BELOW = 0.5  # importance < 0.5 is "weak": it gets a tag
CAPTURE_FROM = 0.7  # importance ≥ 0.7 is "strong": it captures live tags in its session
TAG_TTL = timedelta(hours=4)
CAPTURE_STABILITY_BOOST = 1.3


class TagCandidate(NamedTuple):
    """The memory just stored, as tagging sees it; a plain 4-tuple works as well."""

    memory_id: str
    importance: float
    session_id: str | None
    at: datetime


@dataclass(frozen=True)
class SynapticTag:
    """The tag on a weak memory: capturable by a strong one in its session until expiry."""

    memory_id: str
    session_id: str
    tagged_at: datetime
    ttl: timedelta = TAG_TTL
    captured: bool = False  # true once stabilised by a strong event; never captured twice

    @property
    def expires_at(self) -> datetime:
        return self.tagged_at + self.ttl

    def live_at(self, at: datetime) -> bool:
        """Within the TTL: tagged at or before ``at`` and expiring strictly after it."""
        return self.tagged_at <= at < self.expires_at


def tag_and_capture(
    new: tuple[str, float, str | None, datetime],
    open_tags: Sequence[SynapticTag],
    ttl: timedelta = TAG_TTL,
) -> tuple[tuple[SynapticTag, ...], tuple[str, ...]]:
    """Apply the tagging and capture for one newly stored memory.

    Returns ``(tags_after, captured_ids)``. Tags that have expired at ``new.at`` are dropped. If
    the new memory is strong (importance ≥ 0.7) and has a session, every live, uncaptured tag of
    that session is captured: its memory id is returned (the caller multiplies that memory's
    stability by ``CAPTURE_STABILITY_BOOST``) and the tag stays, marked captured, until it expires.
    If the new memory is weak (< 0.5) and has a session, it gets a fresh tag (replacing any older
    tag on the same memory). A memory without a session neither tags nor captures: "the same
    session" cannot hold for it. Tags dated after ``new.at`` (out-of-order writes) are kept but
    not captured, since the strong event did not come after them.
    """
    memory_id, strength, session_id, at = new
    if not isinstance(memory_id, str) or not memory_id:
        raise InvalidInput(f"memory_id must be a non-empty string, got {memory_id!r}")
    strength = check_unit(strength, what="importance")
    check_aware(at, what="at")
    if not isinstance(ttl, timedelta) or ttl <= timedelta(0):
        raise InvalidInput(f"ttl must be a positive timedelta, got {ttl!r}")
    kept = [tag for tag in open_tags if at < check_aware(tag.tagged_at, what="tagged_at") + tag.ttl]
    captured: list[str] = []
    if session_id is not None and strength >= CAPTURE_FROM:
        for i, tag in enumerate(kept):
            if not tag.captured and tag.session_id == session_id and tag.live_at(at):
                kept[i] = replace(tag, captured=True)
                captured.append(tag.memory_id)
    if session_id is not None and strength < TAG_BELOW:
        kept = [tag for tag in kept if tag.memory_id != memory_id]
        kept.append(SynapticTag(memory_id, session_id, at, ttl))
    return tuple(kept), tuple(dict.fromkeys(captured))
