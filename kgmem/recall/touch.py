"""The touch a non-dry recall gives its hits, and the stability the scoring and the touch share.

``touch`` writes, in one statement, what recalling a memory changes: its access count
and last access, its stability after the access (FSRS retention at the moment of recall), the
Hebbian co-activation among the top hits, and the small boost to linked neighbours (capped like
every stability boost). ``after_recall`` is the pure part of that for one hit. ``stability``
is a candidate's effective stability in days, from its category, tier, source and accesses; the
ranking's decay and the touch's retention both read it, so they cannot disagree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from kgmem.core.retention import effective_stability, fsrs_retention
from kgmem.core.strength import after_access
from kgmem.graph import repository
from kgmem.graph.client import GraphClient
from kgmem.recall.candidates import Candidate
from kgmem.taxonomy import Category, Tier
from kgmem.taxonomy.parsing import parse_enum

CO_ACTIVATION_TOP = 5  # Hebbian pairs are formed among the top hits


def stability(c: Candidate, now: datetime) -> float:
    return effective_stability(
        parse_enum(Category, c.category, "category"),
        c.access_count,
        stability_multiplier=c.stability,
        tier=parse_enum(Tier, c.tier, "tier"),
        source=c.source,
    )


def after_recall(c: Candidate, now: datetime) -> Candidate:
    """The memory as a recall at ``now`` leaves it: one more access, last accessed now, its
    stability multiplier grown by the access (``after_access``: bounded, and less the more
    recently it was accessed). What this changes reaches the ranking only through the bounded
    prior modifier (recency, retention, ACT-R; ``scoring.history_bound``)."""
    s_days = stability(c, now)
    last = c.last_accessed or c.created_at
    r = fsrs_retention(max(0.0, (now - last).total_seconds() / 86400), s_days)
    return replace(
        c,
        access_count=c.access_count + 1,
        last_accessed=now,
        stability=after_access(c.stability, c.access_count, r),
    )


async def touch(graph: GraphClient, ns: str, hits: Sequence[Candidate], now: datetime) -> None:
    touches = [{"id": c.id, "stability": after_recall(c, now).stability} for c in hits]
    top = [c.id for c in hits[:CO_ACTIVATION_TOP]]
    pairs = [[a, b] for i, a in enumerate(top) for b in top[i + 1 :]]
    await repository.touch_memories(graph, namespace=ns, touches=touches, pairs=pairs, now=now)
