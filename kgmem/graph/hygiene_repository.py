"""Gateway functions for the entities-and-edges step of consolidation: duplicate entities (by name
and by name-embedding kNN on a GDS projection) and their merge or undo, edge-confidence decay, and
pruning of memory links over the budget.

One function per catalog query, same name, plain dicts. Reads and the projection run on their
own; writes are returned as :class:`~kgmem.graph.client.Step` objects that the step runs together
in one transaction (``GraphClient.write_batch``). Callers validate input before I/O; every data
function takes the namespace it is scoped to.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from kgmem.graph.client import GraphClient, Row, Step


async def find_entity_duplicates(graph: GraphClient, *, namespace: str, limit: int) -> list[Row]:
    return await graph.run("find_entity_duplicates", namespace=namespace, limit=limit)


async def project_entity_graph(graph: GraphClient, *, name: str, namespace: str) -> Row:
    return (await graph.run("project_entity_graph", graph=name, namespace=namespace))[0]


async def find_similar_entities(
    graph: GraphClient, *, name: str, namespace: str, top_k: int, cutoff: float, limit: int
) -> list[Row]:
    return await graph.run(
        "find_similar_entities",
        graph=name,
        namespace=namespace,
        top_k=top_k,
        cutoff=cutoff,
        limit=limit,
    )


def merge_entity_duplicates(*, namespace: str, merges: list[dict[str, Any]], now: datetime) -> Step:
    return Step("merge_entity_duplicates", {"namespace": namespace, "merges": merges, "now": now})


def undo_entity_merge(*, namespace: str, merge_id: str, now: datetime) -> Step:
    return Step("undo_entity_merge", {"namespace": namespace, "merge_id": merge_id, "now": now})


async def find_decaying_edges(
    graph: GraphClient, *, namespace: str, before: datetime, floor: float, limit: int
) -> list[Row]:
    return await graph.run(
        "find_decaying_edges", namespace=namespace, before=before, floor=floor, limit=limit
    )


def decay_edge_confidences(*, namespace: str, decays: list[dict[str, Any]], now: datetime) -> Step:
    return Step("decay_edge_confidences", {"namespace": namespace, "decays": decays, "now": now})


async def get_memory_link_count(graph: GraphClient, *, namespace: str) -> int:
    rows = await graph.run("get_memory_link_count", namespace=namespace)
    return int(rows[0]["links"])


async def find_prunable_links(
    graph: GraphClient, *, namespace: str, priorities: dict[str, int], limit: int
) -> list[Row]:
    return await graph.run(
        "find_prunable_links", namespace=namespace, priorities=priorities, limit=limit
    )


def delete_memory_links(*, namespace: str, edges: list[str]) -> Step:
    return Step("delete_memory_links", {"namespace": namespace, "edges": edges})
