"""Gateway functions for the memories step of consolidation: retention decay and status transitions,
rehearsal and utility drift, co-activation, and the capacity trim.

One function per catalog query, same name, plain dicts. Reads (``get_``/``find_``, paged by id
with ``after``/``limit``) run on their own; writes are returned as
:class:`~kgmem.graph.client.Step` objects so the step that plans them runs them together in one
transaction (``GraphClient.write_batch``): a step lands whole or not at all. Callers validate
input before I/O; every function takes the namespace it is scoped to.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any

from kgmem.graph.client import GraphClient, Row, Step


@dataclass(frozen=True)
class StabilityFilter:
    """The t/S bound both candidate queries test, with the effective-stability tables:
    one record, built in one place (``kgmem.lifecycle.upkeep.steps``), sent as the same eight
    query parameters to ``find_rehearsal_candidates`` and ``find_transition_candidates``."""

    now_ms: int
    min_ratio: float
    base_stability: dict[str, float]
    tier_decay: dict[str, float]
    pinned_decay: float
    human_sources: list[str]
    auto_decay: float
    access_weight: float

    def params(self) -> dict[str, Any]:
        """The query parameters, named as the fields (shallow: the tables are sent as they are)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


async def find_lifecycle_memories(
    graph: GraphClient, *, namespace: str, statuses: list[str], after: str, limit: int
) -> list[dict[str, Any]]:
    rows = await graph.run(
        "find_lifecycle_memories", namespace=namespace, statuses=statuses, after=after, limit=limit
    )
    return [r["memory"] for r in rows]


async def find_rehearsal_candidates(
    graph: GraphClient,
    *,
    namespace: str,
    statuses: list[str],
    after: str,
    limit: int,
    utility_prior: float,
    drift_before: datetime,
    stability: StabilityFilter,
) -> list[dict[str, Any]]:
    rows = await graph.run(
        "find_rehearsal_candidates",
        namespace=namespace,
        statuses=statuses,
        after=after,
        limit=limit,
        utility_prior=utility_prior,
        drift_before=drift_before,
        **stability.params(),
    )
    return [r["memory"] for r in rows]


async def find_transition_candidates(
    graph: GraphClient,
    *,
    namespace: str,
    statuses: list[str],
    after: str,
    limit: int,
    speculative_below: float,
    archival_before: datetime,
    archival_max_importance: float,
    archival_max_access: int,
    stability: StabilityFilter,
) -> list[dict[str, Any]]:
    rows = await graph.run(
        "find_transition_candidates",
        namespace=namespace,
        statuses=statuses,
        after=after,
        limit=limit,
        speculative_below=speculative_below,
        archival_before=archival_before,
        archival_max_importance=archival_max_importance,
        archival_max_access=archival_max_access,
        **stability.params(),
    )
    return [r["memory"] for r in rows]


def set_memory_statuses(*, namespace: str, changes: list[dict[str, Any]]) -> Step:
    return Step("set_memory_statuses", {"namespace": namespace, "changes": changes})


def purge_memories(*, namespace: str, changes: list[dict[str, Any]]) -> Step:
    return Step("purge_memories", {"namespace": namespace, "changes": changes})


def rehearse_memories(
    *, namespace: str, updates: list[dict[str, Any]], pairs: list[dict[str, Any]], now: datetime
) -> Step:
    return Step(
        "rehearse_memories",
        {"namespace": namespace, "updates": updates, "pairs": pairs, "now": now},
    )


def drift_memory_utilities(*, namespace: str, drifts: list[dict[str, Any]]) -> Step:
    return Step("drift_memory_utilities", {"namespace": namespace, "drifts": drifts})


async def find_co_activations(
    graph: GraphClient, *, namespace: str, min_count: int, limit: int
) -> list[Row]:
    return await graph.run(
        "find_co_activations", namespace=namespace, min_count=min_count, limit=limit
    )


async def get_capacity_count(graph: GraphClient, *, namespace: str) -> int:
    rows = await graph.run("get_capacity_count", namespace=namespace)
    return int(rows[0]["live"])


async def find_trim_candidates(graph: GraphClient, *, namespace: str, limit: int) -> list[Row]:
    return await graph.run("find_trim_candidates", namespace=namespace, limit=limit)
