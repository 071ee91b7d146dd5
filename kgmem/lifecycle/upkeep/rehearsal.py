"""The rehearsal step's rules (docs/lifecycle.md): rehearsal, utility drift and synaptic replay.

Contract, pure over records:

- ``endangered`` says whether a memory needs rehearsal (FSRS retention below 0.3, live, not
  dormant, not rehearsed in the last day — the testing-effect cron runs daily) and
  ``rehearsal_plan`` picks the most important of them, at most ``cap`` (50), each with
  its stability multiplier × 1.5;
- ``drift`` is the utility decay u + 0.01·days·(0.5 − u) for an unused memory, counted
  in whole days since the later of its last use and its last drift, so running twice never
  drifts the same day twice;
- ``replay_plan`` strengthens both memories of every co-activation pair seen together ≥ 3 times
  (docs/lifecycle.md) by the Hebbian 2 %, once per new co-activation count.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from kgmem.core.retention import days_between, exp_retention, fsrs_retention, regularise_retention
from kgmem.core.strength import (
    REHEARSE_BELOW,
    coactivation_boost,
    needs_rehearsal,
    rehearse,
    utility_drift,
)
from kgmem.lifecycle.consolidation.policy import Policy
from kgmem.lifecycle.records import MemoryRecord
from kgmem.taxonomy import Status, Tier

UPKEEP_STATUSES = frozenset({Status.ACTIVE, Status.STALE})


@dataclass(frozen=True)
class Rehearsal:
    id: str
    stability: float  # the new multiplier
    retention: float  # retention before rehearsal (for the report)


@dataclass(frozen=True)
class Drift:
    id: str
    old: float
    utility: float
    drifted_at: datetime  # the anchor the next drift counts from


def _kept_warm(m: MemoryRecord) -> bool:
    return m.status in UPKEEP_STATUSES and m.tier is not Tier.DORMANT


def endangered(m: MemoryRecord, r: float, now: datetime, policy: Policy) -> bool:
    if not _kept_warm(m) or not needs_rehearsal(r):
        return False
    if m.rehearsed_at is not None:
        return days_between(m.rehearsed_at, now) >= policy.rehearsal_cooldown_days
    return True


def endangered_ratio(policy: Policy) -> float:
    """A lower bound on the t/S (days since last use over effective stability) at which a memory
    can need rehearsal, so a filter ``t/S >= ratio`` run elsewhere never drops one that does."""
    return retention_ratio(policy, REHEARSE_BELOW)


def retention_ratio(policy: Policy, below: float) -> float:
    """A lower bound on the t/S at which the policy's (regularised) retention is below ``below``.
    Both curves are functions of t/S alone, non-increasing, and the regularisations are
    monotone, so bisection on the pure functions finds the threshold; ``inf`` when retention
    never drops below it."""
    curve = fsrs_retention if policy.retention_model == "fsrs" else exp_retention

    def due(x: float) -> bool:
        return regularise_retention(curve(x, 1.0), policy.regularisation) < below

    lo, hi = 0.0, 1.0
    while not due(hi):
        lo, hi = hi, hi * 2.0
        if hi > 1e12:
            return math.inf
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if due(mid):
            hi = mid
        else:
            lo = mid
    return lo * (1.0 - 1e-9)


@dataclass(frozen=True)
class Endangered:
    """What choosing among endangered memories needs (small: the scan keeps one per memory)."""

    id: str
    importance: float
    retention: float
    stability: float


def rehearsal_plan(due: Iterable[Endangered], cap: int) -> tuple[list[Rehearsal], int]:
    """(the rehearsals to apply — most important first, then most endangered — and how many
    endangered memories there were in all)."""
    ordered = sorted(due, key=lambda e: (-e.importance, e.retention, e.id))
    plan = [Rehearsal(e.id, rehearse(e.stability), e.retention) for e in ordered[:cap]]
    return plan, len(ordered)


def drift(m: MemoryRecord, now: datetime) -> Drift | None:
    """The drift toward 0.5 for the whole days ``m`` went unused since it last drifted."""
    if not _kept_warm(m) or not 0.0 <= m.utility <= 1.0:
        return None
    anchor = m.last_used
    if m.utility_drifted_at is not None:
        anchor = max(anchor, m.utility_drifted_at)
    whole = math.floor(days_between(anchor, now))
    if whole < 1:
        return None
    new = utility_drift(m.utility, float(whole))
    if new == m.utility:
        return None
    return Drift(m.id, m.utility, new, anchor + timedelta(days=whole))


@dataclass(frozen=True)
class CoActivation:
    a: str
    b: str
    count: int
    replayed: int


def replay_plan(
    pairs: Iterable[CoActivation], stability: Mapping[str, float], min_count: int
) -> tuple[list[CoActivation], dict[str, float]]:
    """(the pairs to mark replayed, each touched memory's new stability multiplier)."""
    done: list[CoActivation] = []
    new: dict[str, float] = {}
    for p in pairs:
        if p.count < min_count or p.count <= p.replayed:
            continue
        done.append(p)
        for mid in (p.a, p.b):
            if mid in stability:
                new[mid] = coactivation_boost(new.get(mid, stability[mid]))
    return done, new
