"""The records the service's browsing reads return for groupings of the graph: entity
relations, topics, boxes and traces.

Contract. Frozen records, one per query shape, their fields named as the query's ``RETURN``
names its columns (``kgmem.graph.rows.SHAPES`` declares which query each answers; a catalog test
checks the two against each other). They live in the core, below the gateway, because the
interfaces (the API's GraphQL types, the MCP tools) read them and may not import the gateway;
the gateway builds them from the driver's rows (``of``), once. Lists are tuples, times are
tz-aware datetimes or None, counts are ints (0 when the graph has none).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any


def _time(value: Any) -> datetime | None:
    return value if isinstance(value, datetime) else None


def _strs(value: Any) -> tuple[str, ...]:
    return tuple(str(v) for v in value or ())


def _opt_str(value: Any) -> str | None:
    return None if value is None else str(value)


@dataclass(frozen=True, slots=True)
class RelationRecord:
    """A typed relation between two entities (``find_entity_relations``)."""

    source: str
    type: str
    target: str
    count: int | None
    confidence: float | None
    inferred: bool | None
    last_reinforced_at: datetime | None

    @classmethod
    def of(cls, row: dict[str, Any]) -> RelationRecord:
        confidence = row["confidence"]
        return cls(
            source=str(row["source"]),
            type=str(row["type"]),
            target=str(row["target"]),
            count=row["count"],
            confidence=None if confidence is None else float(confidence),
            inferred=row["inferred"],
            last_reinforced_at=_time(row["last_reinforced_at"]),
        )


@dataclass(frozen=True, slots=True)
class TopicRecord:
    """A topic of a namespace (``find_topics``): a leaf (level 0) or a parent (level 1)."""

    id: str
    namespace: str
    name: str | None
    terms: tuple[str, ...]
    members: int
    level: int
    parent: str | None
    name_method: str

    @classmethod
    def of(cls, row: dict[str, Any]) -> TopicRecord:
        return cls(
            id=str(row["id"]),
            namespace=str(row["namespace"]),
            name=_opt_str(row["name"]),
            terms=_strs(row["terms"]),
            members=int(row["members"] or 0),
            level=int(row["level"] or 0),
            parent=_opt_str(row["parent"]),
            name_method=str(row["name_method"] or "local"),
        )


@dataclass(frozen=True, slots=True)
class BoxFields:
    """A box's own fields and the ids of its memories (``find_boxes``' ``box`` map)."""

    id: str
    session_id: str | None
    status: str | None
    topics: tuple[str, ...]
    memory_count: int
    opened_at: datetime | None
    last_at: datetime | None
    sealed_at: datetime | None
    seal_reason: str | None
    memory_ids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BoxRecord:
    """A box and the traces it belongs to (``find_boxes``)."""

    box: BoxFields
    trace_ids: tuple[str, ...]

    @classmethod
    def of(cls, row: dict[str, Any]) -> BoxRecord:
        b = row["box"]
        box = BoxFields(
            id=str(b["id"]),
            session_id=_opt_str(b["session_id"]),
            status=_opt_str(b["status"]),
            topics=_strs(b["topics"]),
            memory_count=int(b["memory_count"] or 0),
            opened_at=_time(b["opened_at"]),
            last_at=_time(b["last_at"]),
            sealed_at=_time(b["sealed_at"]),
            seal_reason=_opt_str(b["seal_reason"]),
            memory_ids=_strs(b["memory_ids"]),
        )
        return cls(box=box, trace_ids=_strs(row["trace_ids"]))


@dataclass(frozen=True, slots=True)
class TraceRecord:
    """A thread of boxes sharing recurring topics (``find_traces``' ``trace`` map)."""

    id: str
    topics: tuple[str, ...]
    box_count: int
    created_at: datetime | None
    last_at: datetime | None
    box_ids: tuple[str, ...]

    @classmethod
    def of(cls, trace: dict[str, Any]) -> TraceRecord:
        return cls(
            id=str(trace["id"]),
            topics=_strs(trace["topics"]),
            box_count=int(trace["box_count"] or 0),
            created_at=_time(trace["created_at"]),
            last_at=_time(trace["last_at"]),
            box_ids=_strs(trace["box_ids"]),
        )


@dataclass(frozen=True, slots=True)
class EpisodeFields:
    """An observed turn a memory was extracted from (``find_memory_episodes``' ``episode``)."""

    id: str
    session_id: str | None
    role: str | None
    speaker: str | None
    text: str
    at: datetime | None
    turn_id: str | None
    extracted: bool | None
    recorded_at: datetime | None


@dataclass(frozen=True, slots=True)
class MemoryEpisode:
    """One source turn of a memory, in provenance order (``find_memory_episodes``)."""

    memory_id: str
    episode: EpisodeFields

    @classmethod
    def of(cls, row: dict[str, Any]) -> MemoryEpisode:
        e = row["episode"]
        episode = EpisodeFields(
            id=str(e["id"]),
            session_id=_opt_str(e["session_id"]),
            role=_opt_str(e["role"]),
            speaker=_opt_str(e["speaker"]),
            text=str(e["text"] or ""),
            at=_time(e["at"]),
            turn_id=_opt_str(e["turn_id"]),
            extracted=e["extracted"],
            recorded_at=_time(e["recorded_at"]),
        )
        return cls(memory_id=str(row["memory_id"]), episode=episode)


@dataclass(frozen=True, slots=True)
class ChangeFields:
    """One audited status transition of a memory (``find_status_changes``' ``change``)."""

    old: str | None
    new: str
    reason: str | None
    actor: str | None
    at: datetime | None
    related_id: str | None


@dataclass(frozen=True, slots=True)
class StatusChangeRecord:
    """A status change and the memory it happened to (``find_status_changes``)."""

    memory_id: str
    change: ChangeFields

    @classmethod
    def of(cls, row: dict[str, Any]) -> StatusChangeRecord:
        c = row["change"]
        change = ChangeFields(
            old=_opt_str(c["old"]),
            new=str(c["new"]),
            reason=_opt_str(c["reason"]),
            actor=_opt_str(c["actor"]),
            at=_time(c["at"]),
            related_id=_opt_str(c["related_id"]),
        )
        return cls(memory_id=str(row["memory_id"]), change=change)
