"""The API load benchmark's clients: the GraphQL documents of ``recall`` and ``observe``, ``send``
(one request, timed, read into an ``Outcome``) and ``drive`` (a list of requests through C
concurrent workers sharing one httpx client; outcomes and wall seconds).
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


async def send(client: httpx.AsyncClient, op: Op) -> Outcome:
    query = RECALL if op.kind == "recall" else OBSERVE
    t0 = time.perf_counter()
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


async def drive(
    client: httpx.AsyncClient, ops: list[Op], clients: int, progress: bool = False
) -> tuple[list[Outcome], float]:
    """Run ``ops`` with ``clients`` concurrent workers; (outcomes, wall seconds)."""
    queue: asyncio.Queue[Op] = asyncio.Queue()
    for op in ops:
        queue.put_nowait(op)
    outcomes: list[Outcome] = []
    step = max(1, len(ops) // 10)
    t0 = time.perf_counter()

    async def worker() -> None:
        while True:
            try:
                op = queue.get_nowait()
            except asyncio.QueueEmpty:
                return
            outcomes.append(await send(client, op))
            if progress and len(outcomes) % step == 0:
                errs = sum(1 for o in outcomes if o.error)
                print(
                    f"  {len(outcomes)}/{len(ops)} requests, {errs} errors, "
                    f"{time.perf_counter() - t0:.0f}s",
                    flush=True,
                )

    await asyncio.gather(*(worker() for _ in range(clients)))
    return outcomes, time.perf_counter() - t0
