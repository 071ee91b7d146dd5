"""Candidate hydration and the recall filters, as pure functions over graph rows.

``to_candidate`` turns a ``get_recall_candidates`` record (``graph.rows.RecallCandidate``) plus
its channel evidence into a scoring
``Candidate``. ``apply_filters`` keeps what the request asks for and returns every other
candidate with the reason it was left out (status, validity, confidence floor, mode, category,
tier), so the X-ray can show what was dropped and why. Point-in-time (``as_of``) is bi-temporal:
a memory is returned as of T when it was valid at T (``valid_from ≤ T < valid_until``) and
kgmem already knew it at T (``recorded_at ≤ T``) — superseded memories included, since what is
superseded now may have been the belief then. A superseded candidate left out says which memory
superseded it ("superseded by <id>").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from kgmem.graph.rows import RecallCandidate
from kgmem.recall.candidates import Candidate, Embedding
from kgmem.recall.profiles import Mode
from kgmem.recall.xray import Dropped, DropReason

HISTORY_STATUSES = frozenset({"superseded", "merged"})


@dataclass(frozen=True)
class Filters:
    as_of: datetime | None = None
    include_superseded: bool = False
    # a memory whose own validity ran out (a planned party, a past deadline) still answers a
    # question about when: superseded or not is another matter (``include_superseded``)
    include_expired: bool = False
    categories: frozenset[str] | None = None
    tiers: frozenset[str] | None = None
    min_confidence: float = 0.0
    statuses: frozenset[str] = frozenset({"active"})


@dataclass
class Evidence:
    """What the channels found for one memory id (raw scores and 1-based ranks)."""

    vector: float | None = None
    bm25: float | None = None
    activation: float | None = None
    entity: float | None = None
    ranks: dict[str, tuple[int, float]] = field(default_factory=dict)
    path: tuple[Any, ...] = ()
    path_confidences: tuple[float, ...] = ()


def to_candidate(
    row: RecallCandidate,
    ev: Evidence,
    rrf_score: float,
    query_entities: frozenset[str],
    embedding: Embedding | None = None,
) -> Candidate:
    m = row.memory
    co = max((c.count for c in row.coactive), default=0)
    emb = embedding if embedding is not None else m.embedding
    return Candidate(
        id=m.id,
        content=m.content,
        created_at=m.created_at,
        category=m.category or "fact",
        memory_type=m.type,
        status=m.status or "active",
        tier=m.tier or "episodic",
        lifecycle_state=m.lifecycle_state,
        verification_state=m.verification_state,
        source=m.source or "unknown",
        importance=float(m.importance or 0.5),
        utility=float(m.utility or 0.5),
        confidence=float(m.confidence or 0.5),
        source_trust=float(m.source_trust or 0.5),
        access_count=int(m.access_count or 0),
        last_accessed=m.last_accessed,
        stability=float(m.stability or 1.0),
        valid_from=m.valid_from,
        valid_until=m.valid_until,
        session_id=m.session_id,
        entities=row.entities,
        valence=float(m.valence or 0.0),
        embedding=emb if emb is not None and len(emb) else None,
        vector_score=ev.vector,
        bm25_score=ev.bm25,
        activation_score=ev.activation,
        rrf_score=rrf_score,
        co_activation=co,
        matched_entities=tuple(sorted(query_entities & set(row.entities))),
        holds_asked_slot="claim" in ev.ranks,
    )


def _drop(c: Candidate, reason: DropReason, detail: str) -> Dropped:
    return Dropped(c.id, c.content, reason, detail)


def verdict(
    c: Candidate,
    f: Filters,
    mode: Mode,
    now: datetime,
    recorded_at: datetime | None,
    successors: Sequence[str] = (),
) -> Dropped | None:
    """None when the candidate passes, else why it does not; a superseded candidate's reason
    names the memories that superseded it (``successors``), when the graph records them."""
    if f.as_of is not None:
        if recorded_at is not None and recorded_at > f.as_of:
            return _drop(c, DropReason.VALIDITY, f"recorded {recorded_at:%Y-%m-%d} after as_of")
        if c.valid_from is not None and c.valid_from > f.as_of:
            return _drop(c, DropReason.VALIDITY, f"valid from {c.valid_from:%Y-%m-%d}")
        if c.valid_until is not None and c.valid_until <= f.as_of:
            return _drop(c, DropReason.VALIDITY, f"valid until {c.valid_until:%Y-%m-%d}")
        if c.status not in f.statuses | HISTORY_STATUSES:
            return _drop(c, DropReason.STATUS, f"status {c.status}")
    else:
        if c.status in HISTORY_STATUSES and not f.include_superseded:
            return _drop(c, DropReason.SUPERSEDED, _replaced(c.status, successors))
        if c.status not in f.statuses | (HISTORY_STATUSES if f.include_superseded else set()):
            return _drop(c, DropReason.STATUS, f"status {c.status}")
        lapsed_ok = f.include_superseded or f.include_expired
        if c.valid_until is not None and c.valid_until <= now and not lapsed_ok:
            return _drop(c, DropReason.VALIDITY, f"expired {c.valid_until:%Y-%m-%d}")
    if f.categories is not None and c.category not in f.categories:
        return _drop(c, DropReason.STATUS, f"category {c.category} not requested")
    if f.tiers is not None and c.tier not in f.tiers:
        return _drop(c, DropReason.STATUS, f"tier {c.tier} not requested")
    if not mode.includes(c.memory_type, None if c.memory_type else c.category):
        return _drop(
            c, DropReason.STATUS, f"{c.memory_type or c.category} outside mode {mode.name}"
        )
    if c.confidence < f.min_confidence:
        return _drop(
            c,
            DropReason.CONFIDENCE_FLOOR,
            f"confidence {c.confidence:.2f} < {f.min_confidence:.2f}",
        )
    return None


def _replaced(status: str, successors: Sequence[str]) -> str:
    if status == "superseded" and successors:
        return "superseded by " + ", ".join(successors)
    return f"status {status}"


def apply_filters(
    cands: Sequence[Candidate],
    f: Filters,
    mode: Mode,
    now: datetime,
    recorded: dict[str, datetime | None],
    successors: Mapping[str, Sequence[str]] | None = None,
) -> tuple[list[Candidate], list[Dropped]]:
    kept: list[Candidate] = []
    dropped: list[Dropped] = []
    after = successors or {}
    for c in cands:
        why = verdict(c, f, mode, now, recorded.get(c.id), after.get(c.id, ()))
        if why is None:
            kept.append(c)
        else:
            dropped.append(why)
    return kept, dropped
