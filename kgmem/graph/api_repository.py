"""Gateway functions for the API's reads and writes: one per catalog query, named like it.

These serve the GraphQL service (browsing, paging, per-request batch loads, pin, feedback,
conflict resolution; hard forget has ``erasure_repository``) through ``kgmem.service.Kgmem``.
Like ``repository``, each function names its query, passes exactly the parameters the query
declares, and returns plain dicts; the namespace is a required argument of every one. Batch
loaders take a list of ids and return rows keyed by the id they belong to, so a nested GraphQL
request costs one query per field, not one per parent.
"""

from __future__ import annotations

from datetime import datetime

from kgmem.core.browse_records import BoxRecord, MemoryEpisode, StatusChangeRecord, TraceRecord
from kgmem.graph.client import GraphClient, Row


def _by(rows: list[Row], key: str) -> dict[str, list[Row]]:
    """Rows grouped by the id of the parent they belong to, in query order."""
    out: dict[str, list[Row]] = {}
    for row in rows:
        out.setdefault(row[key], []).append(row)
    return out


async def find_memory_page(
    graph: GraphClient,
    *,
    namespace: str,
    statuses: list[str],
    categories: list[str] | None,
    tiers: list[str] | None,
    min_confidence: float,
    after_at: datetime | None,
    after_id: str | None,
    limit: int,
) -> list[Row]:
    rows = await graph.run(
        "find_memory_page",
        namespace=namespace,
        statuses=statuses,
        categories=categories,
        tiers=tiers,
        min_confidence=min_confidence,
        after_at=after_at,
        after_id=after_id,
        limit=limit,
    )
    return [r["memory"] for r in rows]


async def find_memories_by_id(graph: GraphClient, *, namespace: str, ids: list[str]) -> list[Row]:
    if not ids:
        return []
    rows = await graph.run("find_memories_by_id", namespace=namespace, ids=ids)
    return [r["memory"] for r in rows]


async def find_memory_entities(
    graph: GraphClient, *, namespace: str, ids: list[str]
) -> dict[str, list[Row]]:
    if not ids:
        return {}
    return _by(await graph.run("find_memory_entities", namespace=namespace, ids=ids), "memory_id")


async def find_memory_episodes(
    graph: GraphClient, *, namespace: str, ids: list[str]
) -> dict[str, list[MemoryEpisode]]:
    if not ids:
        return {}
    rows = await graph.run("find_memory_episodes", namespace=namespace, ids=ids)
    out: dict[str, list[MemoryEpisode]] = {}
    for row in rows:  # grouped by memory, in query order
        record = MemoryEpisode.of(row)
        out.setdefault(record.memory_id, []).append(record)
    return out


async def find_status_changes(
    graph: GraphClient, *, namespace: str, ids: list[str]
) -> dict[str, list[StatusChangeRecord]]:
    if not ids:
        return {}
    rows = await graph.run("find_status_changes", namespace=namespace, ids=ids)
    out: dict[str, list[StatusChangeRecord]] = {}
    for row in rows:  # grouped by memory, in query order
        record = StatusChangeRecord.of(row)
        out.setdefault(record.memory_id, []).append(record)
    return out


async def find_memory_links(
    graph: GraphClient, *, namespace: str, ids: list[str]
) -> dict[str, list[Row]]:
    if not ids:
        return {}
    return _by(await graph.run("find_memory_links", namespace=namespace, ids=ids), "memory_id")


async def find_entity_memories(
    graph: GraphClient, *, namespace: str, ids: list[str], limit: int
) -> dict[str, list[Row]]:
    if not ids:
        return {}
    rows = await graph.run("find_entity_memories", namespace=namespace, ids=ids, limit=limit)
    return _by(rows, "entity_id")


async def find_entity_links(
    graph: GraphClient, *, namespace: str, ids: list[str]
) -> dict[str, list[Row]]:
    if not ids:
        return {}
    return _by(await graph.run("find_entity_links", namespace=namespace, ids=ids), "entity_id")


async def get_entity(
    graph: GraphClient, *, namespace: str, id: str | None, normalized: str | None
) -> Row | None:
    rows = await graph.run("get_entity", namespace=namespace, id=id, normalized=normalized)
    return rows[0]["entity"] if rows else None


async def find_memory_timeline(
    graph: GraphClient, *, namespace: str, entity: str | None, topic: str | None, limit: int
) -> list[Row]:
    return await graph.run(
        "find_memory_timeline", namespace=namespace, entity=entity, topic=topic, limit=limit
    )


async def find_boxes(
    graph: GraphClient, *, namespace: str, status: str | None, limit: int
) -> list[BoxRecord]:
    rows = await graph.run("find_boxes", namespace=namespace, status=status, limit=limit)
    return [BoxRecord.of(r) for r in rows]


async def find_traces(graph: GraphClient, *, namespace: str, limit: int) -> list[TraceRecord]:
    rows = await graph.run("find_traces", namespace=namespace, limit=limit)
    return [TraceRecord.of(r["trace"]) for r in rows]


async def set_memory_pinned(
    graph: GraphClient, *, namespace: str, memory_id: str, pinned: bool, now: datetime
) -> Row | None:
    rows = await graph.run(
        "set_memory_pinned", namespace=namespace, id=memory_id, pinned=pinned, now=now
    )
    return rows[0]["memory"] if rows else None


async def set_memory_utility(
    graph: GraphClient,
    *,
    namespace: str,
    memory_id: str,
    previous: float,
    utility: float,
    now: datetime,
) -> bool:
    """Whether the compare-and-set landed (False: someone changed the utility meanwhile)."""
    rows = await graph.run(
        "set_memory_utility",
        namespace=namespace,
        id=memory_id,
        previous=previous,
        utility=utility,
        now=now,
    )
    return bool(rows)


async def supersede_memory(
    graph: GraphClient,
    *,
    namespace: str,
    winner_id: str,
    loser_id: str,
    reason: str,
    actor: str,
    now: datetime,
    change_id: str,
) -> Row | None:
    rows = await graph.run(
        "supersede_memory",
        namespace=namespace,
        winner_id=winner_id,
        loser_id=loser_id,
        reason=reason,
        actor=actor,
        now=now,
        change_id=change_id,
    )
    return rows[0] if rows else None


async def find_entity_facts(
    graph: GraphClient, *, namespace: str, entity: str, slot: str | None, limit: int
) -> Row:
    """The entity (or None) and the claims whose subject it is, live and superseded."""
    rows = await graph.run(
        "find_entity_facts", namespace=namespace, entity=entity, slot=slot, limit=limit
    )
    return rows[0] if rows else {"entity": None, "claims": []}
