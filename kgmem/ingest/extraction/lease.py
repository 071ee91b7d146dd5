"""The extraction lease: at most one worker extracts a namespace at a time, and a dead worker's
namespace passes to another once its lease expires.

Contract: the lease is a ``:Lease {id: 'extraction:<namespace>', holder, expires_at}`` node per
namespace (the ``lease_id`` uniqueness constraint makes the MERGE race-free), taken in one
transaction when it is free, expired or already the caller's (``take``: the same call acquires
and renews). It is per namespace rather than per episode because a namespace's turns must be
extracted in order, one batch after another (each batch's gate reads what the previous one
wrote): two workers on one namespace would only race for the same oldest batch, and the loser's
work would be rolled back. Workers spread over namespaces instead. The lease is not what stops
double extraction: the claim check in each batch's own transaction is (a worker whose lease
expired while it still committed loses that claim and rolls back). ``release`` gives it back;
all times are the caller's ``now``, so tests control expiry.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from kgmem.core.time import as_utc
from kgmem.graph import extraction_repository
from kgmem.graph.client import GraphClient


@dataclass(frozen=True)
class ExtractionLease:
    namespace: str
    holder: str  # who holds it after the call (the caller when granted)
    granted: bool
    expires_at: datetime
    taken_over_from: str | None = None  # the holder whose expired lease this grant took over


async def take(
    graph: GraphClient, namespace: str, holder: str, now: datetime, ttl: timedelta
) -> ExtractionLease:
    """Acquire or renew the namespace's lease; ``granted`` is False while another holds it."""
    row = await extraction_repository.acquire_extraction_lease(
        graph, namespace=namespace, holder=holder, now=now, expires_at=now + ttl
    )
    return ExtractionLease(
        namespace,
        str(row["holder"]),
        bool(row["acquired"]),
        as_utc(row["expires_at"]),
        row.get("taken_over_from"),
    )


async def release(graph: GraphClient, namespace: str, holder: str, now: datetime) -> bool:
    """Give the lease back if this holder still has it (False: it had passed to another)."""
    released = await extraction_repository.release_extraction_lease(
        graph, namespace=namespace, holder=holder, now=now
    )
    return released > 0
