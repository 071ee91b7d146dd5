"""Gateway functions for export and import: one per transfer query, each named after its file.

Reads page through a namespace (or every namespace) in element-id order so an export of any size
streams in bounded pages; writes take one batch each and run it in one transaction, with an
optional in-transaction ``check`` of the returned rows so a bad batch rolls back whole. Shaping
records and validating the file belong to :mod:`kgmem.transfer`; this module only runs queries.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kgmem.graph.client import GraphClient, Row, Step

RowsCheck = Callable[[list[Row]], None]


async def get_export_counts(graph: GraphClient, *, namespace: str | None) -> Row:
    rows = await graph.run("get_export_counts", namespace=namespace)
    return rows[0]


async def find_export_nodes(
    graph: GraphClient, *, namespace: str | None, after: str, limit: int
) -> list[Row]:
    return await graph.run("find_export_nodes", namespace=namespace, after=after, limit=limit)


async def find_export_edges(
    graph: GraphClient, *, namespace: str | None, after: str, limit: int
) -> list[Row]:
    return await graph.run("find_export_edges", namespace=namespace, after=after, limit=limit)


async def import_nodes(
    graph: GraphClient, *, nodes: list[dict[str, Any]], check: RowsCheck | None = None
) -> list[Row]:
    """Upsert one batch of nodes; ``check`` raising rolls the whole batch back."""
    (rows,) = await graph.write_batch([Step("import_nodes", {"nodes": nodes}, check)])
    return rows


async def import_edges(
    graph: GraphClient,
    *,
    edges: list[dict[str, Any]],
    namespaces: list[str],
    check: RowsCheck | None = None,
) -> list[Row]:
    """Create one batch of relationships' missing copies, each between two nodes of one of
    ``namespaces``; ``check`` raising rolls it back."""
    step = Step("import_edges", {"edges": edges, "namespaces": namespaces}, check)
    (rows,) = await graph.write_batch([step])
    return rows
