"""Gateway functions for the consolidation lease: whether a namespace has anything to consolidate,
and the lease that lets one consolidation run per namespace at a time.

One function per catalog query, same name, plain dicts; each runs on its own (the lease is taken,
renewed and released outside any step's transaction, so a crashed run's lease simply expires).
Callers validate input before I/O; every function takes the namespace it is scoped to.
"""

from __future__ import annotations

from datetime import datetime

from kgmem.graph.client import GraphClient, Row


async def get_namespace_presence(graph: GraphClient, *, namespace: str) -> Row:
    return (await graph.run("get_namespace_presence", namespace=namespace))[0]


async def acquire_consolidation_lease(
    graph: GraphClient,
    *,
    namespace: str,
    holder: str,
    now: datetime,
    expires_at: datetime,
    new_run: bool,
) -> Row:
    rows = await graph.run(
        "acquire_consolidation_lease",
        namespace=namespace,
        holder=holder,
        now=now,
        expires_at=expires_at,
        new_run=new_run,
    )
    return rows[0]


async def release_consolidation_lease(
    graph: GraphClient, *, namespace: str, holder: str, now: datetime
) -> int:
    rows = await graph.run(
        "release_consolidation_lease", namespace=namespace, holder=holder, now=now
    )
    return int(rows[0]["released"]) if rows else 0


async def get_consolidation_lease(graph: GraphClient, *, namespace: str) -> Row:
    return (await graph.run("get_consolidation_lease", namespace=namespace))[0]
