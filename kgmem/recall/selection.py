"""The CPU-bound middle of a recall: filter, score, diversify and place the hydrated candidates.

Contract. :func:`select` is pure over its inputs (the hydrated pool, the request, the profile,
the filters, the moment, the query embedding and the matching turns): it applies the filters,
ranks what is kept (``scoring.rank``), picks the hits by MMR, gives each its shown score, and
places episode hits among them, recording every candidate it drops with the reason. It reads
no graph and touches no event loop, so the engine runs it in a worker thread: scoring a pool of
150 candidates with 384-dimensional embeddings is milliseconds of CPU that would otherwise hold
up every other request the process is serving. ``tick`` marks its stages (``score``, ``mmr``)
on the recall's stage clock.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from kgmem.recall.candidates import Candidate, Scored
from kgmem.recall.diversity import mmr, shown_scores
from kgmem.recall.episode_hits import TurnMatch, eligible, place, topic_words
from kgmem.recall.filters import Filters, apply_filters
from kgmem.recall.hydration import Hydrated
from kgmem.recall.profiles import Profile, get_mode
from kgmem.recall.request import RecallRequest
from kgmem.recall.scoring import diversified, rank
from kgmem.recall.touch import stability
from kgmem.recall.xray import Dropped, DropReason


@dataclass(frozen=True)
class Selection:
    order: list[str | TurnMatch]  # the hits in order: memory ids and episode hits
    score_of: dict[str, Scored]  # every ranked memory's score (a hit's as shown)
    by_id: dict[str, Candidate]  # the candidates the filters kept
    dropped: list[Dropped]  # every candidate left out, with why


def select(
    pool: Hydrated,
    req: RecallRequest,
    profile: Profile,
    filters: Filters,
    when: datetime,
    qvec: Sequence[float],
    matches: Sequence[TurnMatch],
    tick: Callable[[str], None],
) -> Selection:
    kept, dropped = apply_filters(
        pool.cands, filters, get_mode(req.mode), when, pool.recorded, pool.successors
    )
    scored = rank(
        kept,
        profile,
        when,
        stability=stability,
        session_id=req.session_id,
        query_embedding=list(qvec),
    )
    tick("score")
    by_id = {c.id: c for c in kept}
    top = max((s.final for s in scored), default=1.0) or 1.0
    chosen = mmr(
        [(s.memory_id, s.final / top, by_id[s.memory_id].embedding) for s in scored], k=req.limit
    )
    score_of = {s.memory_id: s for s in scored}
    dropped += [
        Dropped(
            d, by_id[d].content, DropReason.MMR, "too similar to a higher hit", score_of[d].final
        )
        for d in chosen.dropped
    ]
    picked = set(chosen.selected) | set(chosen.dropped)
    dropped += [
        Dropped(
            s.memory_id,
            by_id[s.memory_id].content,
            DropReason.LIMIT,
            f"ranked below the limit of {req.limit}",
            s.final,
        )
        for s in scored
        if s.memory_id not in picked
    ][:20]
    # hits show the score MMR picked them at, so their order and their scores agree
    shown = shown_scores([(score_of[m].final, by_id[m].embedding) for m in chosen.selected], top)
    for mid, (value, redundancy) in zip(chosen.selected, shown, strict=True):
        score_of[mid] = diversified(score_of[mid], value, redundancy)
    cited = frozenset(t for mid in chosen.selected for t in pool.turns.get(mid, ()))
    turn_hits = eligible(matches, cited, req.as_of, topic_words(req.query))
    order = place(chosen.selected, turn_hits, req.limit)
    dropped += [
        Dropped(
            mid,
            by_id[mid].content,
            DropReason.LIMIT,
            f"ranked below the limit of {req.limit} after an episode hit",
            score_of[mid].final,
        )
        for mid in chosen.selected
        if mid not in order
    ]
    tick("mmr")
    return Selection(order, score_of, by_id, dropped)
