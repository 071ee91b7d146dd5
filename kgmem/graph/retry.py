"""Retries of a read that failed for a passing reason, as the driver's managed transactions do.

Contract: ``retrying(attempt, budget_s)`` awaits ``attempt()`` and returns what it returns. A
driver error that says it is retryable (``is_retryable()``: the server unavailable, a dropped
connection, a transient server error such as a deadlock or leader switch) is retried after
1 s, 2 s, 4 s ... (±20 % jitter: the driver's defaults); once ``budget_s`` has passed since the
first failure the last error is raised. Anything else (a syntax error, bad credentials, a bug in
``attempt``) is raised at once. Only idempotent work may be retried: ``GraphClient`` uses this for
its auto-commit reads, whose one round trip replaced ``execute_query``'s managed transaction and
with it the driver's own retry loop (``max_transaction_retry_time``), which this one copies.

Why not ``tenacity``: a read that succeeds at once (nearly every read) costs 0.2-0.3 us in this
loop and 28-30 us in ``tenacity.AsyncRetrying`` (measured on the development machine, 20,000
reads), and a recall sends five or more reads: ~0.15 ms of client CPU a recall, where removing
~0.4 ms a statement was the point of replacing the managed transaction. The LLM client, whose
calls take hundreds of milliseconds, does use ``tenacity`` (``kgmem.ml.llm``).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from neo4j import exceptions as nx

T = TypeVar("T")

INITIAL_DELAY_S = 1.0  # the driver's initial_retry_delay
MULTIPLIER = 2.0  # its retry_delay_multiplier
JITTER = 0.2  # its retry_delay_jitter_factor


async def retrying(attempt: Callable[[], Awaitable[T]], budget_s: float) -> T:
    """``attempt()``, retried on retryable driver errors until ``budget_s`` after the first."""
    delay = INITIAL_DELAY_S
    first_failure: float | None = None
    while True:
        try:
            return await attempt()
        except (nx.DriverError, nx.Neo4jError) as exc:
            if not exc.is_retryable():
                raise
            now = time.monotonic()
            first_failure = now if first_failure is None else first_failure
            if now - first_failure > budget_s:
                raise
        await asyncio.sleep(delay * random.uniform(1.0 - JITTER, 1.0 + JITTER))
        delay *= MULTIPLIER
