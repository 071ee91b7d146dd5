"""Episode hits: a turn nothing was extracted from, returned as itself so it is never lost.

Contract. The episode channel searches the turns as said and answers the memories derived from
the matching turns; a matching turn that no memory was derived from (a pure question, a request,
a turn the extractor found nothing in) would otherwise be unreachable. The channel's statement
hands those turns back tagged ``kind: "episode"`` with their rank among the matching turns;
:func:`unclaimed_turns` reads them as :class:`TurnMatch` records, and :func:`place` decides
where they enter the ranked memory hits. Pure: no I/O.

Placement fills in, it does not compete: a turn qualifies only when it is among the
``MAX_TURN_RANK`` best matching turns of the query (BM25 over the raw turns), at most
``max_turn_hits(limit)`` of them are added, and they enter only after the first
``kept_memories(limit)`` memory hits, so the memories that answer best are never displaced;
an added turn pushes the lowest memory hits past the limit instead. A turn whose id one of the
memory hits already cites is never added (the memory stands for it), nor one said or stored
after the request's ``as_of`` (bi-temporal, as the memory filters).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

EPISODE_KIND = "episode"
MAX_TURN_RANK = 3  # among the query's three best-matching turns
MIN_KEPT_MEMORIES = 5  # the memory hits a turn never displaces, at any limit
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class TurnMatch:
    """A turn the episode channel matched that no memory was derived from."""

    episode_id: str
    turn_id: str | None
    text: str
    speaker: str | None
    session_id: str | None
    at: datetime | None
    rank: int  # 1-based, among the query's matching turns
    score: float  # the turn's raw BM25 score
    recorded_at: datetime | None = None  # when kgmem stored the turn

    @property
    def content(self) -> str:
        """The turn as said, with who said it."""
        return f"{self.speaker}: {self.text}" if self.speaker else self.text


def max_turn_hits(limit: int) -> int:
    return max(1, limit // 5)


def kept_memories(limit: int) -> int:
    return max(MIN_KEPT_MEMORIES, limit // 2)


def is_turn_row(row: Mapping[str, Any]) -> bool:
    return row.get("kind") == EPISODE_KIND


def unclaimed_turns(rows: Iterable[Mapping[str, Any]]) -> list[TurnMatch]:
    """The tagged turn rows of an episode search, as records, best match first."""
    turns = [
        TurnMatch(
            episode_id=str(r["id"]),
            turn_id=None if r.get("turn_id") is None else str(r["turn_id"]),
            text=str(r.get("text") or ""),
            speaker=r.get("speaker"),
            session_id=r.get("session_id"),
            at=_micros(r.get("at")),
            rank=int(r["rank"]),
            score=float(r["score"]),
            recorded_at=_micros(r.get("recorded_at")),
        )
        for r in rows
        if is_turn_row(r)
    ]
    return sorted(turns, key=lambda t: (t.rank, t.episode_id))


def _micros(value: Any) -> datetime | None:
    return None if value is None else _EPOCH + timedelta(microseconds=int(value))


def _known_by(t: TurnMatch, as_of: datetime | None) -> bool:
    """Bi-temporal like the memory filters: said by ``as_of`` and stored by then."""
    if as_of is None:
        return True
    return all(when is None or when <= as_of for when in (t.at, t.recorded_at))


def eligible(
    turns: Sequence[TurnMatch], cited: frozenset[str], as_of: datetime | None
) -> list[TurnMatch]:
    """The turns that may become hits: well ranked, cited by no memory hit, said by ``as_of``."""
    return [
        t
        for t in turns
        if t.rank <= MAX_TURN_RANK
        and t.episode_id not in cited
        and (t.turn_id is None or t.turn_id not in cited)
        and _known_by(t, as_of)
    ]


def place(
    memory_ids: Sequence[str], turns: Sequence[TurnMatch], limit: int
) -> list[str | TurnMatch]:
    """The hits in order: memory ids (given best first, already cut to ``limit``) with up to
    ``max_turn_hits(limit)`` turns after the first ``kept_memories(limit)`` of them; the result
    holds at most ``limit`` entries, the memories pushed past it dropped."""
    added = list(turns[: max_turn_hits(limit)])
    if not added:
        return [*memory_ids[:limit]]
    keep = min(kept_memories(limit), len(memory_ids))
    order: list[str | TurnMatch] = [*memory_ids[:keep], *added, *memory_ids[keep:]]
    return order[:limit]
