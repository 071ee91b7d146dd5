"""GraphQL input types, the memories connection and cursors.

Cursors are opaque to clients: base64url of ``[created_at ISO-8601, id]`` of the last memory
on a page, matching the ``(created_at DESC, id)`` order of ``memories``; a cursor that does not
decode is an ``invalid_input`` error.
"""

from __future__ import annotations

import base64
import binascii
import json
from datetime import datetime

import strawberry

from kgmem.api.types import Memory
from kgmem.errors import InvalidInput
from kgmem.graph.client import Row


@strawberry.input(description="Which memories a recall may return.")
class RecallFilters:
    categories: list[str] | None = None
    tiers: list[str] | None = None
    min_confidence: float = 0.0
    include_superseded: bool = False


@strawberry.input(description="Which memories a listing returns (active ones by default).")
class MemoryFilters:
    categories: list[str] | None = None
    tiers: list[str] | None = None
    statuses: list[str] | None = None
    min_confidence: float = 0.0
    include_superseded: bool = False


@strawberry.input(description="One conversation turn to observe.")
class TurnInput:
    text: str
    role: str = "user"
    speaker: str | None = None
    session_id: str | None = None
    at: datetime | None = strawberry.field(
        default=None, description="When it was said (the caller's clock)."
    )
    turn_id: str | None = strawberry.field(default=None, description="The caller's turn id.")


@strawberry.input(description="An explicit memory to store as said.")
class RememberInput:
    text: str
    category: str = "fact"
    source: str = "human"
    strategy: str | None = strawberry.field(
        default=None,
        description="On contradiction: temporal (default), use_new, keep_existing, merge, ask.",
    )
    namespace: str | None = None


@strawberry.type
class MemoryEdge:
    cursor: str
    node: Memory


@strawberry.type
class PageInfo:
    has_next_page: bool
    end_cursor: str | None


@strawberry.type(description="A page of memories, newest first.")
class MemoryConnection:
    edges: list[MemoryEdge]
    page_info: PageInfo

    @strawberry.field
    def nodes(self) -> list[Memory]:
        return [e.node for e in self.edges]

    @classmethod
    def of(cls, rows: list[Row], first: int, namespace: str) -> MemoryConnection:
        edges = [MemoryEdge(cursor=encode_cursor(r), node=Memory.of(r, namespace)) for r in rows]
        page = edges[:first]
        return cls(
            edges=page,
            page_info=PageInfo(
                has_next_page=len(edges) > first,
                end_cursor=page[-1].cursor if page else None,
            ),
        )


def encode_cursor(row: Row) -> str:
    created = row.get("created_at")
    stamp = created.isoformat() if isinstance(created, datetime) else ""
    raw = json.dumps([stamp, str(row["id"])]).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[datetime, str]:
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        stamp, ident = json.loads(base64.urlsafe_b64decode(padded.encode()))
        return datetime.fromisoformat(stamp), str(ident)
    except (ValueError, TypeError, binascii.Error):
        raise InvalidInput("after is not a cursor this API handed out") from None
