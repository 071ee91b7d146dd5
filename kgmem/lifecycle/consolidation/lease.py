"""The consolidation lease: at most one worker consolidates a namespace at a time.

Contract: the lease is a ``:Lease {namespace, holder, expires_at, epoch}`` node, one per namespace
(a uniqueness constraint on its id makes the MERGE race-free). ``acquire`` takes it in one
transaction — a conditional MERGE/SET that succeeds only when the lease is free, expired or
already held by the caller — and raises :class:`LeaseHeld` naming the live holder otherwise; an
expired lease (its worker died or hung) is taken over and the takeover is reported. A new run
also advances the namespace's consolidation epoch, the clock the epoch-based cooldowns
count in. ``renew`` extends a lease the caller still holds (the runner heartbeats between
steps) and raises :class:`LeaseLost` when someone took it over; ``release`` gives it back. All
times are the caller's ``now``, so tests control expiry.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from kgmem.core.time import as_utc
from kgmem.errors import KgmemError
from kgmem.graph import lease_repository
from kgmem.graph.client import GraphClient


class LeaseHeld(KgmemError):
    """Another worker holds a live consolidation lease on the namespace; nothing was changed."""

    code = "lease_held"


class LeaseLost(KgmemError):
    """The lease expired mid-run and another worker took it over; the run stopped."""

    code = "lease_lost"


@dataclass(frozen=True)
class Lease:
    namespace: str
    holder: str
    expires_at: datetime
    epoch: int
    taken_over_from: str | None = None


async def _take(
    graph: GraphClient, namespace: str, holder: str, now: datetime, ttl: timedelta, new_run: bool
) -> tuple[bool, Lease]:
    row = await lease_repository.acquire_consolidation_lease(
        graph,
        namespace=namespace,
        holder=holder,
        now=now,
        expires_at=now + ttl,
        new_run=new_run,
    )
    lease = Lease(
        namespace,
        str(row["holder"]),
        as_utc(row["expires_at"]),
        int(row["epoch"]),
        row.get("taken_over_from"),
    )
    return bool(row["acquired"]), lease


async def acquire(
    graph: GraphClient, namespace: str, holder: str, now: datetime, ttl: timedelta
) -> Lease:
    """Take the namespace's lease for a new run, or raise LeaseHeld."""
    ok, lease = await _take(graph, namespace, holder, now, ttl, True)
    if not ok:
        raise LeaseHeld(
            f"consolidation of namespace {namespace!r} is already running (held by "
            f"{lease.holder} until {lease.expires_at.isoformat()}); try again later"
        )
    return lease


async def renew(
    graph: GraphClient, namespace: str, holder: str, now: datetime, ttl: timedelta
) -> Lease:
    """Extend the lease this holder still has, or raise LeaseLost."""
    ok, lease = await _take(graph, namespace, holder, now, ttl, False)
    if not ok or lease.taken_over_from is not None:
        raise LeaseLost(
            f"the consolidation lease of namespace {namespace!r} passed to {lease.holder}; "
            "this run stopped"
        )
    return lease


async def release(graph: GraphClient, namespace: str, holder: str, now: datetime) -> bool:
    return (
        await lease_repository.release_consolidation_lease(
            graph, namespace=namespace, holder=holder, now=now
        )
        > 0
    )
