"""The API load benchmark's clients: the GraphQL documents of ``recall`` and ``observe``, ``send``
(one request, timed, read into an ``Outcome``), ``drive`` (a closed loop: a list of requests
through C concurrent workers sharing one httpx client; outcomes and wall seconds) and
``drive_open`` (an open loop: requests sent at a fixed rate whatever the answers, each timed from
the moment it was due, so a slow server's queue counts in its latency).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx

from benchmarks.perf.api_load.plan import Op, Outcome, classify

RECALL = """query Recall($q: String!, $ns: String, $limit: Int!, $dry: Boolean!) {
  recall(query: $q, namespace: $ns, limit: $limit, dry: $dry) {
    __typename
    ... on RecallOk { skipped hits { memoryId score content } }
    ... on Rejected { reason code }
  }
}"""
OBSERVE = """mutation Observe($turns: [TurnInput!]!, $ns: String) {
  observe(turns: $turns, namespace: $ns) {
    __typename
    ... on ObserveOk { episodeIds newEpisodes trigger extractedEpisodes conflicts deferred
                       receipts { action } }
    ... on Rejected { reason code }
  }
}"""


async def send(client: httpx.AsyncClient, op: Op, due: float | None = None) -> Outcome:
    """One request; timed from ``due`` (a ``perf_counter`` instant) when given, else from now."""
    query = RECALL if op.kind == "recall" else OBSERVE
    t0 = time.perf_counter() if due is None else due
    try:
        r = await client.post("/graphql", json={"query": query, "variables": op.variables})
        ms = (time.perf_counter() - t0) * 1000
        try:
            body: Any = r.json()
        except ValueError:
            body = None
        error, result = classify(op, r.status_code, body)
    except httpx.TimeoutException:
        return Outcome(op, (time.perf_counter() - t0) * 1000, "timeout")
    except httpx.HTTPError as exc:
        return Outcome(op, (time.perf_counter() - t0) * 1000, f"client:{type(exc).__name__}")
    if op.kind == "recall":
        return Outcome(op, ms, error, hits=len(result.get("hits") or []))
    return Outcome(
        op,
        ms,
        error,
        episode_ids=tuple(result.get("episodeIds") or ()),
        new_episodes=int(result.get("newEpisodes") or 0),
        trigger=result.get("trigger"),
        extracted=int(result.get("extractedEpisodes") or 0),
        conflicts=int(result.get("conflicts") or 0),
        deferred=bool(result.get("deferred")),
    )


def _report(outcomes: list[Outcome], total: int, t0: float) -> None:
    """A progress line at every tenth of the requests answered."""
    if len(outcomes) % max(1, total // 10) == 0:
        errs = sum(1 for o in outcomes if o.error)
        print(
            f"  {len(outcomes)}/{total} requests, {errs} errors, {time.perf_counter() - t0:.0f}s",
            flush=True,
        )


async def drive(
    client: httpx.AsyncClient, ops: list[Op], clients: int, progress: bool = False
) -> tuple[list[Outcome], float]:
    """Run ``ops`` with ``clients`` concurrent workers; (outcomes, wall seconds)."""
    queue: asyncio.Queue[Op] = asyncio.Queue()
    for op in ops:
        queue.put_nowait(op)
    outcomes: list[Outcome] = []
    t0 = time.perf_counter()

    async def worker() -> None:
        while True:
            try:
                op = queue.get_nowait()
            except asyncio.QueueEmpty:
                return
            outcomes.append(await send(client, op))
            if progress:
                _report(outcomes, len(ops), t0)

    await asyncio.gather(*(worker() for _ in range(clients)))
    return outcomes, time.perf_counter() - t0


async def drive_open(
    client: httpx.AsyncClient, ops: list[Op], rate: float, progress: bool = False
) -> tuple[list[Outcome], float]:
    """Send ``ops`` at ``rate`` requests/s, evenly spaced, without waiting for answers (the
    client's connection pool bounds what is on the wire; a request waiting for a connection is
    late, and its latency says so); (outcomes, wall seconds until the last answer)."""
    t0 = time.perf_counter()
    outcomes: list[Outcome] = []

    async def one(i: int, op: Op) -> None:
        due = t0 + i / rate
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        outcomes.append(await send(client, op, due))
        if progress:
            _report(outcomes, len(ops), t0)

    async with asyncio.TaskGroup() as tg:
        for i, op in enumerate(ops):
            tg.create_task(one(i, op))
    return outcomes, time.perf_counter() - t0
