"""Gateway functions for extraction by workers: which namespaces have turns due, the extraction
lease a worker holds on a namespace while it extracts, where given episodes stand (an observe that
waits), and the figures ``/metrics`` shows (backlog, lag of recent commits, lease counts).

One function per catalog query, same name, plain dicts; each runs on its own (a lease is taken,
renewed and released outside the extraction's transactions, so a killed worker's lease simply
expires). Callers validate input before I/O.
"""

from __future__ import annotations

from datetime import datetime

from kgmem.graph.client import GraphClient, Row


async def find_due_extractions(
    graph: GraphClient, *, now: datetime, max_turns: int, max_age_s: float, limit: int
) -> list[Row]:
    return await graph.run(
        "find_due_extractions", now=now, max_turns=max_turns, max_age_s=max_age_s, limit=limit
    )


async def acquire_extraction_lease(
    graph: GraphClient, *, namespace: str, holder: str, now: datetime, expires_at: datetime
) -> Row:
    rows = await graph.run(
        "acquire_extraction_lease",
        namespace=namespace,
        holder=holder,
        now=now,
        expires_at=expires_at,
    )
    return rows[0]


async def release_extraction_lease(
    graph: GraphClient, *, namespace: str, holder: str, now: datetime
) -> int:
    rows = await graph.run("release_extraction_lease", namespace=namespace, holder=holder, now=now)
    return int(rows[0]["released"]) if rows else 0


async def get_extraction_lease(graph: GraphClient, *, namespace: str) -> Row | None:
    rows = await graph.run("get_extraction_lease", namespace=namespace)
    return rows[0] if rows else None


async def find_episode_states(graph: GraphClient, *, namespace: str, ids: list[str]) -> list[Row]:
    return await graph.run("find_episode_states", namespace=namespace, ids=ids)


async def get_extraction_backlog(graph: GraphClient) -> Row:
    return (await graph.run("get_extraction_backlog"))[0]


async def find_extraction_lags(graph: GraphClient, *, limit: int) -> list[Row]:
    return await graph.run("find_extraction_lags", limit=limit)


async def get_extraction_leases(graph: GraphClient, *, now: datetime) -> Row:
    return (await graph.run("get_extraction_leases", now=now))[0]


async def mark_episodes_due(graph: GraphClient, *, namespace: str, ids: list[str]) -> int:
    rows = await graph.run("mark_episodes_due", namespace=namespace, ids=ids)
    return int(rows[0]["marked"]) if rows else 0
