"""GraphQL types for groupings of the graph: entity relations, topics, boxes, traces, counts.

Built from service rows like the types in ``kgmem.api.types``; a box's memories load through the
request's memory DataLoader, one statement for every box of a response.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import strawberry

from kgmem.api.context import Info, resolver
from kgmem.api.types import Memory, as_float, as_int, as_str, as_strs, as_time
from kgmem.graph.client import Row


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
    def of(cls, row: Row) -> Relation:
        return cls(
            source=str(row["source"]),
            type=str(row["type"]),
            target=str(row["target"]),
            count=row.get("count"),
            confidence=as_float(row, "confidence"),
            inferred=row.get("inferred"),
            last_reinforced_at=as_time(row, "last_reinforced_at"),
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
    def of(cls, row: Row) -> Topic:
        parent = row.get("parent")
        return cls(
            id=strawberry.ID(str(row["id"])),
            name=str(row.get("name") or ""),
            terms=as_strs(row, "terms"),
            member_count=as_int(row, "members"),
            level=as_int(row, "level"),
            parent_id=strawberry.ID(str(parent)) if parent is not None else None,
            name_method=str(row.get("name_method") or "local"),
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
    def of(cls, row: Row, namespace: str) -> Box:
        box = row["box"]
        return cls(
            ns=namespace,
            id=strawberry.ID(str(box["id"])),
            session_id=as_str(box, "session_id"),
            status=as_str(box, "status"),
            topics=as_strs(box, "topics"),
            memory_count=as_int(box, "memory_count"),
            opened_at=as_time(box, "opened_at"),
            last_at=as_time(box, "last_at"),
            sealed_at=as_time(box, "sealed_at"),
            seal_reason=as_str(box, "seal_reason"),
            memory_ids=[strawberry.ID(i) for i in as_strs(box, "memory_ids")],
            trace_ids=[strawberry.ID(i) for i in as_strs(row, "trace_ids")],
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
    def of(cls, row: Row) -> Trace:
        return cls(
            id=strawberry.ID(str(row["id"])),
            topics=as_strs(row, "topics"),
            box_count=as_int(row, "box_count"),
            created_at=as_time(row, "created_at"),
            last_at=as_time(row, "last_at"),
            box_ids=[strawberry.ID(i) for i in as_strs(row, "box_ids")],
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
