"""Typed records passed between stages: plain frozen dataclasses, no I/O, no driver types.

Stages in ``ingest/``, ``recall/`` and ``lifecycle/`` take and return these. The graph gateway
turns them into query parameters and back; nothing outside ``kgmem/graph`` sees a Neo4j type.
Timestamps are timezone-aware ``datetime`` in UTC.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime


@dataclass(frozen=True)
class Turn:
    """One observed conversation turn, as the caller sent it."""

    text: str
    role: str = "user"  # user | assistant | system | tool
    speaker: str | None = None  # a display name, e.g. "Caroline"
    session_id: str | None = None
    at: datetime | None = None  # when the turn happened (the caller's clock, not ours)
    turn_id: str | None = None  # caller's id for the turn (e.g. LoCoMo dia_id)


@dataclass(frozen=True)
class EntityMention:
    """An entity named in a text span."""

    name: str
    type: str  # a taxonomy.EntityType value
    start: int = -1
    end: int = -1


@dataclass(frozen=True)
class RelationMention:
    """A typed relation between two named entities (type from taxonomy.RelationType)."""

    source: str
    target: str
    type: str
    confidence: float = 0.6


@dataclass(frozen=True)
class Claim:
    """What a memory asserts, normalised: ``subject``'s attribute ``slot`` (a
    ``taxonomy.slots.slot_key``: "residence", "possession:car") has ``value`` — or, with polarity
    "ended", no longer has it (``value`` may then be empty: "broke up"). ``subject`` is a
    normalised entity name (the speaker for "I"). ``confidence`` gates whether the write path
    acts on it."""

    subject: str
    slot: str
    value: str
    polarity: str = "holds"  # a taxonomy.slots.Polarity value
    confidence: float = 0.6


@dataclass(frozen=True)
class ExtractedFact:
    """One atomic, standalone memory candidate produced by an extractor."""

    content: str
    category: str  # a taxonomy.Category value
    confidence: float
    entities: tuple[EntityMention, ...] = ()
    relations: tuple[RelationMention, ...] = ()
    valid_from: datetime | None = None
    valid_until: datetime | None = None
    valence: float = 0.0  # -1..1
    arousal: float = 0.0  # 0..1
    emotion: str = "neutral"  # Ekman category or neutral
    source_turn_ids: tuple[str, ...] = ()
    tags: tuple[str, ...] = field(default_factory=tuple)
    claim: Claim | None = None  # set by an engine that reads claims (the LLM); else the gate's


@dataclass(frozen=True)
class WriteReceipt:
    """What one write did to one memory: created / reinforced / updated / superseded / ..."""

    action: str
    memory_id: str
    reason: str = ""
    related_ids: tuple[str, ...] = ()
    entities: tuple[str, ...] = ()


@dataclass(frozen=True)
class TurnSkip:
    """Why a turn produced no memory: the observer filters' reasons ("too_short", "code_heavy",
    ...) or the extractor's (a ``taxonomy.SkipReason``: it asked and stated nothing, ...).
    The turn itself stays stored as its Episode, which carries the reasons."""

    turn_id: str
    reasons: tuple[str, ...]


@dataclass(frozen=True)
class ItemInput:
    """A framework store entry to write with an explicit memory: the caller's ``key`` (unique in
    its namespace), its ``value`` as a JSON object text (kept verbatim, returned as stored) and
    when the entry was first created (an update keeps the first write's date)."""

    key: str
    value_json: str
    created_at: datetime


@dataclass(frozen=True)
class ItemMemory:
    """A memory derived from a stored item; ``sole`` when the item is its only source."""

    memory_id: str
    sole: bool


@dataclass(frozen=True)
class StoredItem:
    """A framework store entry as kgmem keeps it: the episode that carries its key and value,
    and the memories derived from it (filled by key lookups only)."""

    namespace: str
    key: str
    value_json: str
    episode_id: str
    created_at: datetime
    updated_at: datetime
    memories: tuple[ItemMemory, ...] = ()
