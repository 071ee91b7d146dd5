"""Plain records the consolidation steps decide over, and the decisions they return.

Contract: :meth:`MemoryRecord.from_row` turns one ``find_lifecycle_memories`` row into a frozen
record with typed fields; a memory written before a field existed gets the write path's default
for it (``ingest/plan/records.memory_row``). A row whose category, status or tier is outside kgmem's
vocabulary raises ``InvalidInput`` and the step runner skips that memory (fail-open per memory),
so one bad row never stops a step. ``StatusChange`` and ``TierChange`` are what the pure step
functions decide; the runner turns them into write parameters. No I/O, no clock.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from kgmem.core.retention import RetentionInput, known_since
from kgmem.core.time import as_utc
from kgmem.errors import InvalidInput
from kgmem.taxonomy import Category, Status, Tier
from kgmem.taxonomy.parsing import parse_enum

ACTOR = "consolidation"  # the actor recorded on every audit record this job writes


def _dt(value: Any) -> datetime | None:
    return None if value is None else as_utc(value)


def _float(value: Any, default: float) -> float:
    return default if value is None else float(value)


def _int(value: Any, default: int) -> int:
    return default if value is None else int(value)


@dataclass(frozen=True)
class MemoryRecord:
    """What the lifecycle rules read from one stored memory.

    ``created_at`` is when kgmem came to know the memory (``retention.known_since``: its
    transaction time), which every age and decay rule counts from; the event time the memory
    describes is recall's business (as-of, ordering, the recency prior), not the lifecycle's.
    """

    id: str
    category: Category
    status: Status
    tier: Tier
    created_at: datetime
    last_accessed: datetime | None = None
    modified_at: datetime | None = None
    access_count: int = 0
    repetition_count: int = 1
    stability: float = 1.0
    source: str = "human"
    pinned: bool = False
    immutable: bool = False
    flashbulb: bool = False
    confidence: float = 0.5
    importance: float = 0.5
    utility: float = 0.5
    verification_state: str = "unverified"
    valid_until: datetime | None = None
    frozen_at: datetime | None = None
    stale_since: datetime | None = None
    deleted_at: datetime | None = None
    resolved_at: datetime | None = None
    last_reinforced_at: datetime | None = None
    utility_drifted_at: datetime | None = None
    rehearsed_at: datetime | None = None
    tags: tuple[str, ...] = ()
    session_id: str | None = None
    content: str = ""
    gate_rejections: int = 0
    gate_rejected_epoch: int | None = None
    hot: bool = False
    entities: tuple[str, ...] = ()

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> MemoryRecord:
        event_at, recorded_at = _dt(row.get("created_at")), _dt(row.get("recorded_at"))
        if event_at is None and recorded_at is None:
            raise InvalidInput(f"memory {row.get('id')!r} has no created_at")
        # Ages count from when kgmem stored the memory, not from the event it describes.
        created = known_since(event_at, recorded_at)
        return cls(
            id=str(row["id"]),
            category=parse_enum(Category, row.get("category") or "fact", "category"),
            status=parse_enum(Status, row.get("status") or "active", "status"),
            tier=parse_enum(Tier, row.get("tier") or "episodic", "tier"),
            created_at=created,
            last_accessed=_dt(row.get("last_accessed")),
            modified_at=_dt(row.get("modified_at")),
            access_count=_int(row.get("access_count"), 0),
            repetition_count=_int(row.get("repetition_count"), 1),
            stability=_float(row.get("stability"), 1.0),
            source=str(row.get("source") or "human"),
            pinned=bool(row.get("pinned")),
            immutable=bool(row.get("immutable")),
            flashbulb=bool(row.get("flashbulb")),
            confidence=_float(row.get("confidence"), 0.5),
            importance=_float(row.get("importance"), 0.5),
            utility=_float(row.get("utility"), 0.5),
            verification_state=str(row.get("verification_state") or "unverified"),
            valid_until=_dt(row.get("valid_until")),
            frozen_at=_dt(row.get("frozen_at")),
            stale_since=_dt(row.get("stale_since")),
            deleted_at=_dt(row.get("deleted_at")),
            resolved_at=_dt(row.get("resolved_at")),
            last_reinforced_at=_dt(row.get("last_reinforced_at")),
            utility_drifted_at=_dt(row.get("utility_drifted_at")),
            rehearsed_at=_dt(row.get("rehearsed_at")),
            tags=tuple(str(t) for t in row.get("tags") or ()),
            session_id=row.get("session_id"),
            content=str(row.get("content") or ""),
            gate_rejections=_int(row.get("gate_rejections"), 0),
            gate_rejected_epoch=row.get("gate_rejected_epoch"),
            hot=bool(row.get("hot")),
            entities=tuple(str(e) for e in row.get("entities") or ()),
        )

    @property
    def last_used(self) -> datetime:
        """The later of creation and last access: when the memory was last touched."""
        if self.last_accessed is None:
            return self.created_at
        return max(self.created_at, self.last_accessed)

    @property
    def tag_set(self) -> frozenset[str]:
        return frozenset(t.strip().lower() for t in self.tags)

    def retention_input(self) -> RetentionInput:
        return RetentionInput(
            category=self.category,
            created_at=self.created_at,
            last_accessed=self.last_accessed,
            access_count=max(0, self.access_count),
            stability=self.stability if self.stability > 0 else 1.0,
            tier=self.tier,
            source=self.source,
            pinned=self.pinned,
            frozen_at=self.frozen_at,
        )


@dataclass(frozen=True)
class StatusChange:
    """Move memory ``id`` from ``old`` to ``new`` (``new`` None = purge the soft-deleted node)."""

    id: str
    old: Status
    new: Status | None
    rule: str  # which rule fired, e.g. "decay", "speculative_expiry"
    reason: str  # a sentence for the audit record
    related_id: str | None = None


@dataclass(frozen=True)
class TierChange:
    """Move memory ``id`` from tier ``old`` to ``new``."""

    id: str
    old: Tier
    new: Tier
    rule: str
    reason: str


def derived_memory_props(
    *,
    memory_id: str,
    content: str,
    content_hash: str,
    category: str,
    memory_type: str,
    importance: float,
    confidence: float,
    source: str,
    source_trust: float,
    tags: list[str],
    embedding: list[float] | None,
    now: datetime,
    valid_from: datetime | None = None,
    utility: float = 0.5,
    stability: float = 1.0,
    access_count: int = 0,
    repetition_count: int = 1,
    **extra: Any,
) -> dict[str, Any]:
    """The stored properties of a memory consolidation writes from others (a theme memory, a
    session snapshot, a category summary): a durable, system-inferred semantic note, active and
    fresh, with ``extra`` naming what it was derived from."""
    return {
        "id": memory_id,
        "content": content,
        "content_hash": content_hash,
        "category": category,
        "kind": "note",
        "type": memory_type,
        "tier": Tier.SEMANTIC.value,
        "status": Status.ACTIVE.value,
        "lifecycle_state": "active",
        "verification_state": "system_inferred",
        "policy_class": "durable",
        "importance": importance,
        "priority": "high",
        "confidence": confidence,
        "source": source,
        "source_trust": source_trust,
        "utility": utility,
        "surprise": 0.0,
        "stability": stability,
        "difficulty": 5.0,
        "storage_strength": 1.0,
        "access_count": access_count,
        "repetition_count": repetition_count,
        "created_at": now,
        "last_accessed": now,
        "modified_at": now,
        "recorded_at": now,
        "valid_from": valid_from or now,
        "pinned": False,
        "immutable": False,
        "flashbulb": False,
        "valence": 0.0,
        "arousal": 0.0,
        "emotion": "neutral",
        "tags": tags,
        "embedding": embedding,
        **extra,
    }
