"""Typed rows: the frozen records gateway functions return instead of the driver's dicts.

Contract. One record per query shape, its fields named exactly as the query's ``RETURN`` names
its columns (for a query that returns one collected list of maps, as that map's keys; a nested
map gets a record of its own). The records the interfaces read live in
``kgmem.core.browse_records``, since interfaces may not import the gateway; recall's live here.
``SHAPES`` declares, per query, the record of its rows (and for a collected or single-map answer
the column that holds it, and the records of nested maps); ``tests/cypher`` parses every
declared query's ``RETURN`` and checks it against the fields, so a query and its record cannot
drift apart. The conversion from the driver's row happens once, in the gateway function that
runs the query; stages read attributes. Recall hydrates 150 candidates a query, so its two wide
records are filled in one step (see ``CandidateMemory``), not field by field.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from kgmem.core.browse_records import (
    BoxFields,
    BoxRecord,
    ChangeFields,
    EpisodeFields,
    MemoryEpisode,
    RelationRecord,
    StatusChangeRecord,
    TopicRecord,
    TraceRecord,
)


@dataclass(frozen=True)
class CandidateMemory:
    """The fields of a memory recall scores (``get_recall_candidates``'s ``memory`` map).

    Not slotted, so ``of`` can fill it from the driver's map in one step: a frozen dataclass's
    ``__init__`` sets each of these 23 fields through ``object.__setattr__`` (2.8 us a record,
    most of the gateway's time for a recall's 150 candidates)."""

    id: str
    content: str
    category: str | None
    type: str | None
    status: str | None
    tier: str | None
    lifecycle_state: str | None
    verification_state: str | None
    source: str | None
    importance: float | None
    utility: float | None
    confidence: float | None
    source_trust: float | None
    access_count: int | None
    stability: float | None
    session_id: str | None
    valence: float | None
    embedding: list[float] | None
    created_at: datetime
    last_accessed: datetime | None
    valid_from: datetime | None
    valid_until: datetime | None
    recorded_at: datetime | None

    @classmethod
    def of(cls, fields: dict[str, Any]) -> CandidateMemory:
        """The record of a ``memory`` map whose keys are exactly the fields (the shape test
        checks the query against them); still frozen: only assignment is refused."""
        record = object.__new__(cls)
        record.__dict__.update(fields)
        return record


@dataclass(frozen=True, slots=True)
class CandidateTurn:
    """A source turn of a candidate; ``text`` only when the memory has several (to order them)."""

    turn: str
    text: str | None = None


@dataclass(frozen=True, slots=True)
class CoActivation:
    """Another candidate this one was recalled with, and how often."""

    id: str
    count: int


@dataclass(frozen=True)
class RecallCandidate:
    """One candidate of ``get_recall_candidates``: the memory, the normalised names of the
    entities (and people) it mentions, its turns in provenance order, its co-activations with
    the other candidates and the ids of the memories superseding it. Not slotted, so
    ``recall_candidate`` fills it in one step, as ``CandidateMemory.of`` does."""

    memory: CandidateMemory
    entities: tuple[str, ...] = ()
    people: tuple[str, ...] = ()
    turns: tuple[CandidateTurn, ...] = ()
    coactive: tuple[CoActivation, ...] = ()
    superseded_by: tuple[str, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class ScoredId:
    """A search hit: a memory id and the channel's raw score (vector, text, claim, PageRank)."""

    id: str
    score: float


@dataclass(frozen=True, slots=True)
class PathHit(ScoredId):
    """A graph activation hit with the path that reached it and its edges' confidences."""

    path: tuple[str, ...]
    confidences: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class EntityHit(PathHit):
    """An entity channel hit: ``hops`` 0 for a memory that names a query entity, else the
    relation hops from one (the path names the entities)."""

    hops: int


@dataclass(frozen=True, slots=True)
class TurnRow:
    """A matching turn no memory was derived from (the episode search's ``kind: 'episode'``
    rows, among its best ``turn_limit`` turns); ``rank`` is its place among the turns."""

    kind: str
    id: str
    score: float
    rank: int
    turn_id: str | None
    text: str | None
    speaker: str | None
    session_id: str | None
    at: datetime | None
    recorded_at: datetime | None


def scored(rows: list[dict[str, Any]]) -> list[ScoredId]:
    return [ScoredId(str(r["id"]), float(r["score"])) for r in rows]


def path_hits(rows: list[dict[str, Any]]) -> list[PathHit]:
    return [
        PathHit(
            str(r["id"]),
            float(r["score"]),
            tuple(str(p) for p in r["path"] or ()),
            tuple(float(c) for c in r["confidences"] or ()),
        )
        for r in rows
    ]


def entity_hits(rows: list[dict[str, Any]]) -> list[EntityHit]:
    return [
        EntityHit(
            str(r["id"]),
            float(r["score"]),
            tuple(str(p) for p in r["path"] or ()),
            tuple(float(c) for c in r["confidences"] or ()),
            int(r["hops"]),
        )
        for r in rows
    ]


def episode_search_hits(rows: list[dict[str, Any]]) -> list[ScoredId | TurnRow]:
    """The episode search's rows: memories derived from matching turns, then the tagged turns
    no memory was derived from (their times sent as epoch microseconds)."""
    return [
        ScoredId(str(r["id"]), float(r["score"]))
        if r.get("kind") is None
        else TurnRow(
            kind=str(r["kind"]),
            id=str(r["id"]),
            score=float(r["score"]),
            rank=int(r["rank"]),
            turn_id=_opt_str(r["turn_id"]),
            text=_opt_str(r["text"]),
            speaker=_opt_str(r["speaker"]),
            session_id=_opt_str(r["session_id"]),
            at=_micros(r["at"]),
            recorded_at=_micros(r["recorded_at"]),
        )
        for r in rows
    ]


def _opt_str(value: Any) -> str | None:
    return None if value is None else str(value)


def _micros(value: Any) -> datetime | None:
    return None if value is None else _EPOCH + timedelta(microseconds=int(value))


@dataclass(frozen=True)
class Shape:
    """What a query answers: rows of ``record``, one field a column; with ``collected``, one row
    whose column of that name holds the list of maps ``record`` stands for; with ``column``,
    rows of one column whose map projection ``record`` stands for. ``nested``: the records of
    map fields (a map projection or a list of maps), by field name."""

    record: type
    collected: str | None = None
    column: str | None = None
    nested: dict[str, type] = field(default_factory=dict)


SHAPES: dict[str, Shape] = {
    "get_recall_candidates": Shape(
        RecallCandidate,
        collected="rows",
        nested={"memory": CandidateMemory, "turns": CandidateTurn, "coactive": CoActivation},
    ),
    "search_claim_holders": Shape(ScoredId),
    "search_period_memories": Shape(ScoredId),
    "find_pagerank_memories": Shape(ScoredId),
    "search_memory_activation": Shape(PathHit, collected="rows"),
    "search_entity_memories": Shape(EntityHit, collected="rows"),
    "find_entity_relations": Shape(RelationRecord),
    "find_topics": Shape(TopicRecord),
    "find_boxes": Shape(BoxRecord, nested={"box": BoxFields}),
    "find_traces": Shape(TraceRecord, column="trace"),
    "find_memory_episodes": Shape(MemoryEpisode, nested={"episode": EpisodeFields}),
    "find_status_changes": Shape(StatusChangeRecord, nested={"change": ChangeFields}),
}


# get_recall_candidates sends these as UTC epoch microseconds (see its header)
_RECALL_TIMES = ("created_at", "last_accessed", "valid_from", "valid_until", "recorded_at")
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def recall_candidate(row: dict[str, Any]) -> RecallCandidate:
    """A ``get_recall_candidates`` map as its record: times exact from epoch microseconds (the
    driver would also truncate nanoseconds), the empty co-activation the OPTIONAL MATCH collects
    when there is none left out. Recall hydrates 150 of these per query: each step is the
    cheapest form (list comprehensions, the records filled in one step)."""
    memory = row["memory"]
    for key in _RECALL_TIMES:
        if memory[key] is not None:
            memory[key] = _EPOCH + timedelta(microseconds=memory[key])
    record = object.__new__(RecallCandidate)
    record.__dict__.update(
        memory=CandidateMemory.of(memory),
        entities=tuple(row["entities"]),
        people=tuple(row["people"]),
        turns=tuple([CandidateTurn(t["turn"], t.get("text")) for t in row["turns"]]),
        coactive=tuple(
            [CoActivation(c["id"], c["count"] or 0) for c in row["coactive"] if c["id"]]
        ),
        superseded_by=tuple(row["superseded_by"]),
    )
    return record
