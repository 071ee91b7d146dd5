"""Repository functions of framework store items: one per catalog query, typed records out.

A stored item is an ``:Episode`` that carries ``item_key``, ``item_value`` (its JSON text) and
``item_created_at`` besides the text it was remembered as (see ``kgmem.service.items``). These
functions read items by key, by page and by namespace, and delete them by key; they
validate nothing (the service checks its arguments before any I/O).
"""

from __future__ import annotations

from kgmem.graph.client import GraphClient, Row
from kgmem.records import ItemMemory, StoredItem


def _item(row: Row) -> StoredItem:
    return StoredItem(
        namespace=row["namespace"],
        key=row["key"],
        value_json=row["value"],
        episode_id=row["episode_id"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        memories=tuple(ItemMemory(m["id"], bool(m["sole"])) for m in row["memories"]),
    )


async def find_items(graph: GraphClient, *, namespace: str, keys: list[str]) -> list[StoredItem]:
    if not keys:
        return []
    return [_item(r) for r in await graph.run("find_items", namespace=namespace, keys=keys)]


async def find_item_page(
    graph: GraphClient, *, namespaces: list[str], limit: int
) -> list[StoredItem]:
    if not namespaces:
        return []
    rows = await graph.run("find_item_page", namespaces=namespaces, limit=limit)
    return [_item(r) for r in rows]


async def find_item_namespaces(graph: GraphClient, *, prefix: str, limit: int) -> list[str]:
    rows = await graph.run("find_item_namespaces", prefix=prefix, limit=limit)
    return [str(r["namespace"]) for r in rows]


async def delete_item_episodes(graph: GraphClient, *, namespace: str, keys: list[str]) -> int:
    rows = await graph.run("delete_item_episodes", namespace=namespace, keys=keys)
    return int(rows[0]["deleted"]) if rows else 0
