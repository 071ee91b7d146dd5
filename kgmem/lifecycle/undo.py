"""Undoing consolidation merges: every merge the job makes can be taken back exactly.

Contract: ``undo_merge(graph, namespace, key, now)`` reverses one redundancy merge named by its
merge id (from the report), by a merged memory's id or by the theme memory's id: every merged
memory gets back the status, tier, freeze time, modification time and lifecycle state recorded
on its MERGED_INTO edge (an audit record notes the undo), the edges go, and a theme memory the
merge created is deleted. ``undo_entity_merge`` reverses one entity merge named by its merge id
or the merged entity's id: the mentions and relations it copied onto the canonical entity are
deleted, the names it added are taken back and the merged entity is an ``:Entity`` again —
and the two are remembered as distinct (``distinct_from``), so a later run does not redo the
merge the caller took back. A key
that names no merge raises ``NotFound``; each undo is one transaction.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from typing import Any

from kgmem.errors import InvalidInput, NotFound
from kgmem.graph import hygiene_repository, redundancy_repository, repository
from kgmem.graph.client import GraphClient, Row
from kgmem.lifecycle.records import ACTOR


def _must_restore(what: str, key: str) -> Callable[[list[Row]], None]:
    def check(rows: list[Row]) -> None:
        if not rows or not int(rows[0]["restored"]):
            # raised inside the transaction: nothing of the undo is written
            raise NotFound(
                f"{what} {key!r} cannot be undone: its records changed since (a merged memory "
                "was changed again, or the canonical entity was merged again — undo that first)"
            )

    return check


async def _merge_id(graph: GraphClient, namespace: str, key: str, kind: str) -> str:
    rows = await redundancy_repository.find_merge_records(graph, namespace=namespace, key=key)
    ids = sorted({str(r["merge_id"]) for r in rows if r["kind"] == kind})
    what = "memory merge" if kind == "memory" else "entity merge"
    if not ids:
        raise NotFound(f"no {what} {key!r} in namespace {namespace!r}")
    if len(ids) > 1:
        raise InvalidInput(f"{key!r} names {len(ids)} {what}s; undo one by its merge id")
    return ids[0]


async def undo_merge(graph: GraphClient, namespace: str, key: str, now: datetime) -> dict[str, Any]:
    merge_id = await _merge_id(graph, namespace, key, "memory")
    undo = redundancy_repository.undo_memory_merge(
        namespace=namespace, merge_id=merge_id, now=now, actor=ACTOR
    )
    out = await graph.write_batch(
        [
            replace(undo, check=_must_restore("memory merge", merge_id)),
            repository.bump_namespace(namespace=namespace, now=now),
        ]
    )
    row = out[0][0]
    return {"merge_id": merge_id, "restored": int(row["restored"]), "themes": int(row["themes"])}


async def undo_entity_merge(
    graph: GraphClient, namespace: str, key: str, now: datetime
) -> dict[str, Any]:
    merge_id = await _merge_id(graph, namespace, key, "entity")
    undo = hygiene_repository.undo_entity_merge(namespace=namespace, merge_id=merge_id, now=now)
    out = await graph.write_batch(
        [
            replace(undo, check=_must_restore("entity merge", merge_id)),
            repository.bump_namespace(namespace=namespace, now=now),
        ]
    )
    row = out[0][0]
    return {
        "merge_id": merge_id,
        "restored": int(row["restored"]),
        "mentions": int(row["mentions"]),
        "relations": int(row["relations"]),
    }
