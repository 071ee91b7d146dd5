"""Gateway functions for the redundancy step of consolidation: contradictions and their invalidated
dependents, near-duplicate memories (kNN over unchecked ones), theme merges, and the records that
let a memory merge be undone.

One function per catalog query, same name, plain dicts. Reads run on their own; writes are
returned as :class:`~kgmem.graph.client.Step` objects that the step runs together in one
transaction (``GraphClient.write_batch``), so a merge lands whole or not at all. Callers validate
input before I/O; every function takes the namespace it is scoped to.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from kgmem.graph.client import GraphClient, Row, Step


async def find_contradictions(graph: GraphClient, *, namespace: str, limit: int) -> list[Row]:
    return await graph.run("find_contradictions", namespace=namespace, limit=limit)


def resolve_contradictions(
    *, namespace: str, resolutions: list[dict[str, Any]], now: datetime
) -> Step:
    return Step(
        "resolve_contradictions",
        {"namespace": namespace, "resolutions": resolutions, "now": now},
    )


async def find_invalidated_dependents(
    graph: GraphClient, *, namespace: str, statuses: list[str], depth: int, limit: int
) -> list[Row]:
    return await graph.run(
        "find_invalidated_dependents",
        namespace=namespace,
        statuses=statuses,
        depth=depth,
        limit=limit,
    )


async def find_unchecked_memories(graph: GraphClient, *, namespace: str, limit: int) -> list[str]:
    rows = await graph.run("find_unchecked_memories", namespace=namespace, limit=limit)
    return [str(r["id"]) for r in rows]


def set_dedup_checked(*, namespace: str, ids: list[str], now: datetime) -> Step:
    return Step("set_dedup_checked", {"namespace": namespace, "ids": ids, "now": now})


async def find_similar_memories(
    graph: GraphClient,
    *,
    namespace: str,
    ids: list[str],
    top_k: int,
    cutoff: float,
    candidates: int,
    limit: int,
) -> list[Row]:
    return await graph.run(
        "find_similar_memories",
        namespace=namespace,
        ids=ids,
        top_k=top_k,
        cutoff=cutoff,
        candidates=candidates,
        limit=limit,
    )


async def find_merge_members(
    graph: GraphClient, *, namespace: str, ids: list[str]
) -> list[dict[str, Any]]:
    rows = await graph.run("find_merge_members", namespace=namespace, ids=ids)
    return [r["memory"] for r in rows]


def create_theme_memories(*, namespace: str, themes: list[dict[str, Any]]) -> Step:
    return Step("create_theme_memories", {"namespace": namespace, "themes": themes})


def merge_memories(*, namespace: str, merges: list[dict[str, Any]]) -> Step:
    return Step("merge_memories", {"namespace": namespace, "merges": merges})


async def find_merge_records(graph: GraphClient, *, namespace: str, key: str) -> list[Row]:
    return await graph.run("find_merge_records", namespace=namespace, key=key)


def undo_memory_merge(*, namespace: str, merge_id: str, now: datetime, actor: str) -> Step:
    return Step(
        "undo_memory_merge",
        {"namespace": namespace, "merge_id": merge_id, "now": now, "actor": actor},
    )
