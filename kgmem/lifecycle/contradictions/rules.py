"""The contradictions step's rules: contradiction cleanup and the invalidation cascade.

Contract, pure over plain records:

- ``resolve_contradiction`` applies the first forgetting rule — of two memories joined by
  an unresolved CONTRADICTS edge, the older side (by ``valid_from``, then creation) goes dormant —
  and marks the edge resolved. An older side that is pinned or immutable is never demoted
  (the truth anchors), so that edge stays open for a person to settle.
- ``cascade_plan`` flags for review (status ``challenged``, "flagged for review") every
  live memory reachable over DEPENDS_ON (premise → conclusion) from a premise that was
  superseded, invalidated or deleted, up to the query's depth and at most ``cap`` per run,
  nearest first. A challenged memory is no longer live, so a second run flags nothing new.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from kgmem.lifecycle.records import StatusChange
from kgmem.taxonomy import Status, Tier

# A premise in one of these statuses no longer holds, so what was concluded from it is in doubt.
INVALID_PREMISE = frozenset({Status.SUPERSEDED, Status.INVALIDATED, Status.DELETED})
FLAGGABLE = frozenset({Status.ACTIVE, Status.STALE})


@dataclass(frozen=True)
class Side:
    id: str
    created_at: datetime
    valid_from: datetime | None
    tier: Tier
    pinned: bool = False
    immutable: bool = False

    @property
    def since(self) -> tuple[datetime, datetime, str]:
        return (self.valid_from or self.created_at, self.created_at, self.id)


@dataclass(frozen=True)
class Contradiction:
    edge: str  # the CONTRADICTS relationship's element id
    a: Side
    b: Side


@dataclass(frozen=True)
class Resolution:
    edge: str
    older: str
    newer: str
    demote: bool  # False when the older side is already dormant
    old_tier: Tier
    reason: str


def resolve_contradiction(c: Contradiction) -> Resolution | None:
    older, newer = sorted((c.a, c.b), key=lambda s: s.since)
    if older.pinned or older.immutable:
        return None
    return Resolution(
        c.edge,
        older.id,
        newer.id,
        older.tier is not Tier.DORMANT,
        older.tier,
        f"contradicted by newer memory {newer.id}",
    )


@dataclass(frozen=True)
class Dependent:
    id: str
    status: Status
    premise: str
    premise_status: Status
    depth: int


def cascade_plan(found: Iterable[Dependent], cap: int) -> tuple[list[StatusChange], int]:
    """(the memories to challenge, how many were due before the cap)."""
    nearest: dict[str, Dependent] = {}
    for d in found:
        if d.status not in FLAGGABLE or d.premise_status not in INVALID_PREMISE:
            continue
        held = nearest.get(d.id)
        if held is None or (d.depth, d.premise) < (held.depth, held.premise):
            nearest[d.id] = d
    due = sorted(nearest.values(), key=lambda d: (d.depth, d.id))
    changes = [
        StatusChange(
            d.id,
            d.status,
            Status.CHALLENGED,
            "invalidation_cascade",
            f"depends on memory {d.premise}, which is {d.premise_status.value}"
            + ("" if d.depth == 1 else f" ({d.depth} steps back)"),
            related_id=d.premise,
        )
        for d in due[:cap]
    ]
    return changes, len(due)
