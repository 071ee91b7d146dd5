"""GraphQL types for groupings of the graph: entity relations, topics, boxes, traces, counts.

Built from the service's typed records (``kgmem.core.browse_records``); a box's memories load
through the request's memory DataLoader, one statement for every box of a response.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import strawberry

from kgmem.api.context import Info, resolver
from kgmem.api.types import Memory
from kgmem.core.browse_records import BoxRecord, RelationRecord, TopicRecord, TraceRecord


@strawberry.type(description="A typed relation between two entities of a namespace.")
class Relation:
    source: str
    type: str
    target: str
    count: int | None
    confidence: float | None
    inferred: bool | None
    last_reinforced_at: datetime | None

    @classmethod
    def of(cls, row: RelationRecord) -> Relation:
        return cls(
            source=row.source,
            type=row.type,
            target=row.target,
            count=row.count,
            confidence=row.confidence,
            inferred=row.inferred,
            last_reinforced_at=row.last_reinforced_at,
        )


@strawberry.type(
    description="A named cluster of memories (built by the consolidation job). Topics form a "
    "tree: leaves (level 0) are fine-grained communities, parents (level 1) group them."
)
class Topic:
    id: strawberry.ID
    name: str
    terms: list[str]
    member_count: int
    level: int = strawberry.field(description="0 for a leaf topic, 1 for a parent topic.")
    parent_id: strawberry.ID | None = strawberry.field(
        description="The parent topic of a leaf, if it has one."
    )
    name_method: str = strawberry.field(
        description="How the name was given: 'local' (top terms) or 'llm'."
    )

    @classmethod
    def of(cls, row: TopicRecord) -> Topic:
        return cls(
            id=strawberry.ID(row.id),
            name=row.name or "",
            terms=list(row.terms),
            member_count=row.members,
            level=row.level,
            parent_id=strawberry.ID(row.parent) if row.parent is not None else None,
            name_method=row.name_method,
        )


@strawberry.type(description="Memories on one topic within one stretch of a session.")
class Box:
    ns: strawberry.Private[str]
    id: strawberry.ID
    session_id: str | None
    status: str | None
    topics: list[str]
    memory_count: int
    opened_at: datetime | None
    last_at: datetime | None
    sealed_at: datetime | None
    seal_reason: str | None
    memory_ids: list[strawberry.ID]
    trace_ids: list[strawberry.ID]

    @classmethod
    def of(cls, row: BoxRecord, namespace: str) -> Box:
        box = row.box
        return cls(
            ns=namespace,
            id=strawberry.ID(box.id),
            session_id=box.session_id,
            status=box.status,
            topics=list(box.topics),
            memory_count=box.memory_count,
            opened_at=box.opened_at,
            last_at=box.last_at,
            sealed_at=box.sealed_at,
            seal_reason=box.seal_reason,
            memory_ids=[strawberry.ID(i) for i in box.memory_ids],
            trace_ids=[strawberry.ID(i) for i in row.trace_ids],
        )

    @resolver(description="The memories in this box.")
    async def memories(self, info: Info, first: int = 20) -> list[Memory]:
        first = info.context.page(first)
        keys = [(self.ns, i) for i in self.memory_ids[:first]]
        rows = await info.context.loaders.memory.load_many(keys)
        return [Memory.of(r, self.ns) for r in rows if r is not None]


@strawberry.type(description="A thread of boxes that share recurring topics over time.")
class Trace:
    id: strawberry.ID
    topics: list[str]
    box_count: int
    created_at: datetime | None
    last_at: datetime | None
    box_ids: list[strawberry.ID]

    @classmethod
    def of(cls, row: TraceRecord) -> Trace:
        return cls(
            id=strawberry.ID(row.id),
            topics=list(row.topics),
            box_count=row.box_count,
            created_at=row.created_at,
            last_at=row.last_at,
            box_ids=[strawberry.ID(i) for i in row.box_ids],
        )


@strawberry.type
class Count:
    key: str
    count: int


@strawberry.type(description="Counts of one namespace's nodes, memory statuses and edges.")
class Stats:
    namespace: str
    nodes: int
    labels: list[Count]
    statuses: list[Count]
    relationships: list[Count]

    @classmethod
    def of(cls, stats: dict[str, Any], namespace: str) -> Stats:
        def counts(values: dict[str, Any]) -> list[Count]:
            return [Count(key=str(k), count=int(v)) for k, v in sorted(values.items(), key=str)]

        return cls(
            namespace=namespace,
            nodes=int(stats["nodes"]),
            labels=counts(stats["labels"]),
            statuses=counts(stats["statuses"]),
            relationships=counts(stats["relationships"]),
        )
