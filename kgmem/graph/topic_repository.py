"""Gateway functions for topics and centrality: the GDS projection of a namespace's memory graph,
its communities (Louvain members, Leiden groups), the topic nodes written from them and read back,
and the PageRank centrality computed on the same projection.

One function per catalog query, same name, plain dicts. Reads and the projection run on their
own; writes are returned as :class:`~kgmem.graph.client.Step` objects that the step runs together
in one transaction (``GraphClient.write_batch``). Callers validate input before I/O; every data
function takes the namespace (or namespaces) it is scoped to.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from kgmem.core.browse_records import TopicRecord
from kgmem.graph.client import GraphClient, Row, Step


async def project_topic_graph(graph: GraphClient, *, name: str, namespace: str) -> Row:
    return (await graph.run("project_topic_graph", graph=name, namespace=namespace))[0]


async def find_topic_communities(
    graph: GraphClient, *, name: str, namespace: str, min_members: int
) -> list[Row]:
    return await graph.run(
        "find_topic_communities", graph=name, namespace=namespace, min_members=min_members
    )


async def find_memory_contents(
    graph: GraphClient, *, namespace: str, ids: list[str]
) -> dict[str, str]:
    rows = await graph.run("find_memory_contents", namespace=namespace, ids=ids)
    return {str(r["id"]): str(r["content"]) for r in rows}


async def find_topic_groups(
    graph: GraphClient, *, name: str, namespace: str, resolution: float
) -> dict[str, int]:
    """Memory id → coarse (Leiden) community."""
    rows = await graph.run(
        "find_topic_groups", graph=name, namespace=namespace, resolution=resolution
    )
    if not rows:
        return {}
    return {str(m): int(c) for m, c in zip(rows[0]["ids"], rows[0]["communities"], strict=True)}


async def find_topics(
    graph: GraphClient, *, namespaces: list[str], limit: int
) -> list[TopicRecord]:
    rows = await graph.run("find_topics", namespaces=namespaces, limit=limit)
    return [TopicRecord.of(r) for r in rows]


async def find_topic_members(
    graph: GraphClient, *, namespace: str, topic_id: str, limit: int
) -> list[dict[str, Any]]:
    rows = await graph.run("find_topic_members", namespace=namespace, id=topic_id, limit=limit)
    return [r["memory"] for r in rows]


def write_topics(
    *,
    namespace: str,
    remove: list[str],
    create: list[dict[str, Any]],
    rename: list[dict[str, Any]],
    now: datetime,
) -> Step:
    return Step(
        "write_topics",
        {"namespace": namespace, "remove": remove, "create": create, "rename": rename, "now": now},
    )


async def get_centrality_changes(
    graph: GraphClient, *, name: str, namespace: str, digits: int, tolerance: float
) -> int:
    rows = await graph.run(
        "get_centrality_changes",
        graph=name,
        namespace=namespace,
        digits=digits,
        tolerance=tolerance,
    )
    return int(rows[0]["updated"]) if rows else 0


def set_memory_centrality(*, name: str, namespace: str, digits: int, tolerance: float) -> Step:
    return Step(
        "set_memory_centrality",
        {"graph": name, "namespace": namespace, "digits": digits, "tolerance": tolerance},
    )
