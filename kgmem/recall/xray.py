"""The recall X-ray (docs/recall.md) as typed, frozen records: why each hit came back, and why
each dropped candidate did not.

Contract: plain data, no I/O. For every hit, :class:`HitExplain` carries each channel's rank and
raw score (:class:`ChannelEvidence`), every factor's contribution to the final score (they add up
to ``final_score``; :func:`check_additive` verifies it), the graph path with edge confidences that
brought it (:class:`PathStep`), its validity window, status and source episodes. Every candidate
left out is a :class:`Dropped` with one of the :class:`DropReason` values. :class:`Xray` bundles
the query understanding (intent, sub-queries, HyDE variants, queries actually run), hits, drops
and stage timings in milliseconds. ``to_dict`` gives a JSON-ready view (datetimes as ISO text).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, is_dataclass
from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the SDK decodes X-rays without numpy: the scorer's record is a type here
    from kgmem.recall.candidates import Scored

ADDITIVE_TOLERANCE = 1e-9  # relative; the scorer itself is exact, this absorbs transport rounding


class DropReason(StrEnum):
    """Why a candidate is not among the hits."""

    NAMESPACE = "namespace"  # another tenant's memory (never shown with content)
    STATUS = "status"  # not active (challenged, invalidated, merged, archived, ...)
    VALIDITY = "validity"  # outside its valid_from/valid_until window at as_of
    CONFIDENCE_FLOOR = "confidence_floor"  # below the caller's minimum confidence or score
    MMR = "mmr"  # redundant with a better hit (the MMR)
    LIMIT = "limit"  # ranked below the requested number of hits
    SUPERSEDED = "superseded"  # replaced by a newer memory


@dataclass(frozen=True)
class ChannelEvidence:
    """One channel's view of a hit: its 1-based rank there and the channel's raw score."""

    channel: str  # vector | fulltext | entity | activation | hot_tier | ...
    rank: int
    raw_score: float


@dataclass(frozen=True)
class PathStep:
    """One node on the graph path that led to a hit, and the edge that was followed into it."""

    node_id: str
    label: str  # Memory | Entity | Episode | ...
    name: str  # entity name or a short memory text
    edge_type: str | None = None  # None for the path's first node
    edge_confidence: float | None = None


@dataclass(frozen=True)
class HitExplain:
    """Everything the X-ray shows for one hit."""

    memory_id: str
    content: str
    final_score: float
    contributions: Mapping[str, float]
    channels: tuple[ChannelEvidence, ...] = ()
    path: tuple[PathStep, ...] = ()
    valid_from: datetime | None = None
    valid_until: datetime | None = None
    status: str = "active"
    episodes: tuple[str, ...] = ()  # ids of the turns the memory was extracted from
    factors: Mapping[str, float] = field(default_factory=dict)
    injection: str | None = None  # full | abbreviated | skipped (the gate)
    kind: str = "memory"  # or "episode": a turn no memory stands for (memory_id = episode id)

    @classmethod
    def from_scored(cls, scored: Scored, content: str, **details: Any) -> HitExplain:
        """A hit's explanation from its composite; ``details`` fills the other fields."""
        return cls(
            memory_id=scored.memory_id,
            content=content,
            final_score=scored.final,
            contributions=dict(scored.contributions),
            factors=dict(scored.factors),
            **details,
        )


@dataclass(frozen=True)
class Dropped:
    """A candidate left out, why, and how well it scored (None if it was never scored)."""

    memory_id: str
    content: str
    reason: DropReason
    detail: str = ""
    best_score: float | None = None


@dataclass(frozen=True)
class Xray:
    """One recall, explained: query understanding, hits, drops and stage timings (ms)."""

    query: str
    intent: str
    sub_queries: tuple[str, ...] = ()
    hyde: tuple[str, ...] = ()
    hits: tuple[HitExplain, ...] = ()
    dropped: tuple[Dropped, ...] = ()
    timings: Mapping[str, float] = field(default_factory=dict)
    queries_run: tuple[str, ...] = ()
    channels: tuple[str, ...] = ()  # the searches run: the request's, or its intent's

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: nested records as dicts, datetimes as ISO 8601, enums as values."""
        out: dict[str, Any] = _jsonable(self)
        return out


def _jsonable(value: Any) -> Any:
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _jsonable(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return value


def check_additive(hit: HitExplain | Scored) -> bool:
    """Whether the contributions add up to the final score (the X-ray's core promise)."""
    final = hit.final_score if isinstance(hit, HitExplain) else hit.final
    total = math.fsum(hit.contributions.values())
    return math.isclose(total, final, rel_tol=ADDITIVE_TOLERANCE, abs_tol=1e-12)
