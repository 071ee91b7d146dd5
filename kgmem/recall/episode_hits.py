"""Episode hits: a turn nothing was extracted from, returned as itself so it is never lost.

Contract. The episode channel searches the turns as said and answers the memories derived from
the matching turns; a matching turn that no memory was derived from (a pure question, a request,
a turn the extractor found nothing in) would otherwise be unreachable. The channel's statement
hands those turns back tagged ``kind: "episode"`` with their rank among the matching turns;
:func:`unclaimed_turns` reads them as :class:`TurnMatch` records, and :func:`place` decides
where they enter the ranked memory hits. Pure: no I/O.

Placement fills in, it does not compete: a turn qualifies only when it is the query's best
matching turn (rank ``MAX_TURN_RANK`` = 1, BM25 over the turns as said), at most
``MAX_TURN_HITS`` is added, and it takes the last place of the hits: after every memory hit when
there are fewer than the limit, else in place of the lowest one, so the memories that answer
best are never displaced. Measured on LoCoMo dev (recall limit 20), where 98.6 % of the evidence
turns have a memory: turns among the best three placed after the first half of the hits brought
5 evidence turns and 251 others into the ranked top ten and cost 0.005 R@10; the best turn in
the last place leaves the top ten of 997 questions unchanged under ``balanced`` and of all but
one under ``precise`` (R@10 unchanged). A turn whose id a memory hit already
cites is never added (the memory stands for it), nor one said or stored after the request's
``as_of`` (bi-temporal, as the memory filters), nor one that shares no topic word with the
query (:func:`topic_words`: the query's content words that are not names) — in a conversation
every turn names its speakers, so "What does Maya do for a living?" would otherwise bring back
"Welcome back, Maya" for the name alone. :func:`wanted` says whether a request takes episode hits
at all.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from kgmem.core.text import content_words
from kgmem.graph.rows import TurnRow
from kgmem.recall.options import ModeName

if TYPE_CHECKING:
    from kgmem.recall.request import RecallRequest

EPISODE_KIND = "episode"
MAX_TURN_RANK = 1  # the query's best-matching turn only
MAX_TURN_HITS = 1
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
# letters that make two words one topic word: "plans" and "planning" are, "living" and "lives" not
_STEM = 5


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


def kept_memories(limit: int) -> int:
    """The memory hits an episode hit never displaces: all but the last place (the first one
    always)."""
    return max(1, limit - MAX_TURN_HITS)


def wanted(req: RecallRequest) -> bool:
    """Episode hits answer a plain recall: a turn has no category, tier, memory type or
    confidence, so a request that filters on any of them gets memories only."""
    return (
        req.episode_hits
        and req.categories is None
        and req.tiers is None
        and req.min_confidence == 0.0
        and req.mode is ModeName.FULL_CONTEXT
    )


def unclaimed_turns(rows: Iterable[TurnRow]) -> list[TurnMatch]:
    """The episode search's unclaimed turns, as records, best match first."""
    turns = [
        TurnMatch(
            episode_id=r.id,
            turn_id=r.turn_id,
            text=r.text or "",
            speaker=r.speaker,
            session_id=r.session_id,
            at=r.at,
            rank=r.rank,
            score=r.score,
            recorded_at=r.recorded_at,
        )
        for r in rows
    ]
    return sorted(turns, key=lambda t: (t.rank, t.episode_id))


def _known_by(t: TurnMatch, as_of: datetime | None) -> bool:
    """Bi-temporal like the memory filters: said by ``as_of`` and stored by then."""
    if as_of is None:
        return True
    return all(when is None or when <= as_of for when in (t.at, t.recorded_at))


def topic_words(query: str) -> frozenset[str]:
    """The stems of the query's content words that are not names (a word capitalised after the
    query's first word): what a turn must share with the query to come back as itself."""
    names = {
        w.lower().removesuffix("'s")
        for i, w in enumerate(query.replace("\u2019", "'").split())
        if i > 0 and w[:1].isupper()
    }
    return frozenset(w[:_STEM] for w in content_words(query) if w.strip("?.!,") not in names)


def eligible(
    turns: Sequence[TurnMatch],
    cited: frozenset[str],
    as_of: datetime | None,
    topic: frozenset[str] | None = None,
) -> list[TurnMatch]:
    """The turns that may become hits: well ranked, cited by no memory hit, said by ``as_of``,
    and (given the query's ``topic`` words) sharing one of them."""
    return [
        t
        for t in turns
        if t.rank <= MAX_TURN_RANK
        and (topic is None or bool(topic & {w[:_STEM] for w in content_words(t.text)}))
        and t.episode_id not in cited
        and (t.turn_id is None or t.turn_id not in cited)
        and _known_by(t, as_of)
    ]


def place(
    memory_ids: Sequence[str], turns: Sequence[TurnMatch], limit: int
) -> list[str | TurnMatch]:
    """The hits in order: memory ids (given best first, already cut to ``limit``) with up to
    ``MAX_TURN_HITS`` turns after the first ``kept_memories(limit)`` of them; the result holds
    at most ``limit`` entries, the memories pushed past it dropped."""
    added = list(turns[:MAX_TURN_HITS])
    if not added:
        return [*memory_ids[:limit]]
    keep = min(kept_memories(limit), len(memory_ids))
    order: list[str | TurnMatch] = [*memory_ids[:keep], *added, *memory_ids[keep:]]
    return order[:limit]
