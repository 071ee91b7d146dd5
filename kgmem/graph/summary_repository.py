"""Gateway functions for what consolidation condenses: entity profiles, category summaries, session
snapshots distilled from session notes, and the resume context that reads them back.

One function per catalog query, same name, plain dicts. Reads run on their own; writes are
returned as :class:`~kgmem.graph.client.Step` objects that the step runs together in one
transaction (``GraphClient.write_batch``). Callers validate input before I/O; every function takes
the namespace (or namespaces) it is scoped to.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from kgmem.graph.client import GraphClient, Row, Step


async def find_profile_sources(
    graph: GraphClient, *, namespace: str, after: str, limit: int
) -> list[Row]:
    return await graph.run("find_profile_sources", namespace=namespace, after=after, limit=limit)


async def find_profile_memories(
    graph: GraphClient, *, namespace: str, ids: list[str], per_entity: int
) -> list[Row]:
    return await graph.run(
        "find_profile_memories", namespace=namespace, ids=ids, per_entity=per_entity
    )


async def find_category_sources(graph: GraphClient, *, namespace: str) -> list[Row]:
    return await graph.run("find_category_sources", namespace=namespace)


async def find_category_memories(
    graph: GraphClient, *, namespace: str, categories: list[str], per_category: int
) -> list[Row]:
    return await graph.run(
        "find_category_memories",
        namespace=namespace,
        categories=categories,
        per_category=per_category,
    )


def set_entity_profiles(*, namespace: str, profiles: list[dict[str, Any]], now: datetime) -> Step:
    return Step("set_entity_profiles", {"namespace": namespace, "profiles": profiles, "now": now})


def write_category_summaries(
    *, namespace: str, create: list[dict[str, Any]], update: list[dict[str, Any]], now: datetime
) -> Step:
    return Step(
        "write_category_summaries",
        {"namespace": namespace, "create": create, "update": update, "now": now},
    )


async def find_session_notes(
    graph: GraphClient, *, namespace: str, limit: int
) -> list[dict[str, Any]]:
    rows = await graph.run("find_session_notes", namespace=namespace, limit=limit)
    return [r["memory"] for r in rows]


def create_session_snapshots(
    *, namespace: str, snapshots: list[dict[str, Any]], now: datetime
) -> Step:
    return Step(
        "create_session_snapshots", {"namespace": namespace, "snapshots": snapshots, "now": now}
    )


async def get_resume_context(
    graph: GraphClient, *, namespaces: list[str], since: datetime, limit: int
) -> Row:
    rows = await graph.run("get_resume_context", namespaces=namespaces, since=since, limit=limit)
    return rows[0]
