"""Gateway functions for the tiers step of consolidation: promotion/demotion candidates, the
entities many memories share (the co-occurrence rule), hot-set candidates, and the tier,
hot-flag and gate-rejection writes.

One function per catalog query, same name, plain dicts. Reads run on their own; writes are
returned as :class:`~kgmem.graph.client.Step` objects that the step runs together in one
transaction (``GraphClient.write_batch``). Callers validate input before I/O; every function takes
the namespace it is scoped to.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from kgmem.graph.client import GraphClient, Step


async def find_shared_entities(
    graph: GraphClient,
    *,
    namespace: str,
    statuses: list[str],
    working_before: datetime,
    working_accesses: int,
    min_memories: int,
) -> list[str]:
    rows = await graph.run(
        "find_shared_entities",
        namespace=namespace,
        statuses=statuses,
        working_before=working_before,
        working_accesses=working_accesses,
        min_memories=min_memories,
    )
    return [str(r["id"]) for r in rows]


async def find_tier_candidates(
    graph: GraphClient,
    *,
    namespace: str,
    statuses: list[str],
    after: str,
    limit: int,
    shared: list[str],
    promote_accesses: int,
    promote_utility: float,
    dormant_utility: float,
    gate_importance: float,
) -> list[dict[str, Any]]:
    rows = await graph.run(
        "find_tier_candidates",
        namespace=namespace,
        statuses=statuses,
        after=after,
        limit=limit,
        shared=shared,
        promote_accesses=promote_accesses,
        promote_utility=promote_utility,
        dormant_utility=dormant_utility,
        gate_importance=gate_importance,
    )
    return [r["memory"] for r in rows]


async def find_hot_candidates(
    graph: GraphClient,
    *,
    namespace: str,
    statuses: list[str],
    min_utility: float,
    min_access: int,
    created_after: datetime,
) -> list[dict[str, Any]]:
    rows = await graph.run(
        "find_hot_candidates",
        namespace=namespace,
        statuses=statuses,
        min_utility=min_utility,
        min_access=min_access,
        created_after=created_after,
    )
    return [r["memory"] for r in rows]


def set_memory_tiers(*, namespace: str, changes: list[dict[str, Any]]) -> Step:
    return Step("set_memory_tiers", {"namespace": namespace, "changes": changes})


def set_gate_rejections(
    *, namespace: str, rejections: list[dict[str, Any]], epoch: int, now: datetime
) -> Step:
    return Step(
        "set_gate_rejections",
        {"namespace": namespace, "rejections": rejections, "epoch": epoch, "now": now},
    )


def set_memory_hot(*, namespace: str, hot: list[str], cold: list[str]) -> Step:
    return Step("set_memory_hot", {"namespace": namespace, "hot": hot, "cold": cold})
