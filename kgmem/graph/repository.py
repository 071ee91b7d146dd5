"""Repository functions: one per catalog query, with the query's name, typed parameters in and
plain dicts out.

This is the only way the rest of kgmem reaches the graph. Each function validates nothing itself
(callers validate user input before I/O); it names its query, passes every parameter the query
declares, and shapes the rows. Namespace is a required argument of every data function.
"""

from __future__ import annotations

from typing import Any

from kgmem.graph.client import GraphClient, Row


async def create_memory(
    graph: GraphClient, *, namespace: str, memory: dict[str, Any], entities: list[dict[str, Any]]
) -> Row:
    rows = await graph.run("create_memory", namespace=namespace, memory=memory, entities=entities)
    return rows[0]


async def get_memory(graph: GraphClient, *, namespace: str, memory_id: str) -> Row | None:
    rows = await graph.run("get_memory", namespace=namespace, id=memory_id)
    return rows[0] if rows else None


async def search_memory_vector(
    graph: GraphClient, *, namespace: str, embedding: list[float], k: int, limit: int
) -> list[Row]:
    return await graph.run(
        "search_memory_vector", namespace=namespace, embedding=embedding, k=k, limit=limit
    )


async def search_memory_fulltext(
    graph: GraphClient, *, namespace: str, query: str, k: int, limit: int
) -> list[Row]:
    return await graph.run(
        "search_memory_fulltext", namespace=namespace, query=query, k=k, limit=limit
    )


async def get_server_info(graph: GraphClient) -> Row:
    rows = await graph.run("get_server_info")
    return rows[0]


async def delete_namespace(graph: GraphClient, *, namespace: str) -> int:
    rows = await graph.run("delete_namespace", namespace=namespace)
    return int(rows[0]["deleted"]) if rows else 0


async def project_namespace_graph(graph: GraphClient, *, name: str, namespace: str) -> Row:
    rows = await graph.run("project_namespace_graph", graph=name, namespace=namespace)
    return rows[0]


async def find_personalized_pagerank(
    graph: GraphClient, *, name: str, namespace: str, seeds: list[str], limit: int
) -> list[Row]:
    return await graph.run(
        "find_personalized_pagerank", graph=name, namespace=namespace, seeds=seeds, limit=limit
    )


async def drop_graph(graph: GraphClient, *, name: str) -> None:
    await graph.run("drop_graph", graph=name)


async def get_schema_state(graph: GraphClient) -> list[Row]:
    return await graph.run("get_schema_state")
