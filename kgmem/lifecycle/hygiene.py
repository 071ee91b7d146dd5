"""The entities step's rules: entity merges, edge-confidence decay and relation pruning.

Contract, pure over plain records:

- ``plan_entity_merges`` finds fragmented entities — one's normalised name is the other's name
  or alias (the write path's resolution rule), with compatible types (a person is never a place;
  organisation/product/concept/event/other are loose, as in ``ingest/entities``) — groups them,
  keeps the most mentioned (then oldest) as canonical and merges the rest into it, at most
  ``cap`` per run. The runner records each merge reversibly (SAME_AS).
- ``decay_edge`` is seed 000's edge decay: once ``grace`` days have passed since an edge was
  created or last reinforced, its confidence drops linearly by ``per_window`` for every whole
  ``window`` days, never below ``floor`` (and an edge already below the floor is left alone).
  The windows already applied are remembered against the reinforcement time they were counted
  from, so a second run applies nothing twice and a reinforcement starts the count afresh.
- ``prune_victims`` is seed 004's relation pruning (``ingest.linking.prune_plan``'s rule) on
  the cheapest prunable candidates the graph returned: above ``cap`` links, delete down to
  ``target``, related_to/co_activated first, then same_entity, then elaborates, lowest confidence
  first; supersedes, contradicts, causes (and merged_into, depends_on) are never candidates.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from kgmem.lifecycle.policy import Policy
from kgmem.lifecycle.retention import days_between
from kgmem.taxonomy import MEMORY_REL_PRUNE_PRIORITY, MemoryRelation

# ingest/entities.py's rule: spaCy's labels are noisy between these, but not for people/places.
LOOSE_ENTITY_TYPES = frozenset({"organization", "product", "other", "concept", "event"})


def compatible_types(a: str, b: str) -> bool:
    return a == b or (a in LOOSE_ENTITY_TYPES and b in LOOSE_ENTITY_TYPES)


@dataclass(frozen=True)
class EntityRecord:
    id: str
    name: str
    normalized_name: str
    type: str
    aliases_norm: tuple[str, ...] = ()
    mention_count: int = 0
    created_at: datetime | None = None

    @property
    def keys(self) -> frozenset[str]:
        return frozenset({self.normalized_name, *self.aliases_norm}) - {""}


@dataclass(frozen=True)
class EntityMerge:
    canonical: str
    loser: str
    reason: str


def _canonical_key(e: EntityRecord) -> tuple[int, str, str]:
    created = e.created_at.isoformat() if e.created_at is not None else "~"
    return (-e.mention_count, created, e.id)


def plan_entity_merges(
    pairs: Iterable[tuple[EntityRecord, EntityRecord]], cap: int
) -> tuple[list[EntityMerge], int]:
    """(the merges to make, how many duplicates there were before the cap)."""
    parent: dict[str, str] = {}
    by_id: dict[str, EntityRecord] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in pairs:
        if a.id == b.id or not compatible_types(a.type, b.type):
            continue
        if a.normalized_name not in b.keys and b.normalized_name not in a.keys:
            continue
        by_id[a.id], by_id[b.id] = a, b
        ra, rb = find(a.id), find(b.id)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    groups: dict[str, list[EntityRecord]] = {}
    for eid in by_id:
        groups.setdefault(find(eid), []).append(by_id[eid])
    merges: list[EntityMerge] = []
    for _root, group in sorted(groups.items()):
        canonical, *rest = sorted(group, key=_canonical_key)
        for loser in sorted(rest, key=lambda e: e.id):
            merges.append(
                EntityMerge(
                    canonical.id,
                    loser.id,
                    f"{loser.name!r} is {canonical.name!r} (same normalised name or alias)",
                )
            )
    return merges[:cap], len(merges)


@dataclass(frozen=True)
class EdgeState:
    edge: str  # relationship element id
    confidence: float
    anchor: datetime  # last reinforced, or created
    decay_anchor: datetime | None = None  # the anchor the applied windows were counted from
    decay_windows: int = 0


@dataclass(frozen=True)
class EdgeDecay:
    edge: str
    old: float
    confidence: float
    anchor: datetime
    windows: int


def decay_edge(e: EdgeState, now: datetime, policy: Policy) -> EdgeDecay | None:
    floor = policy.edge_decay_floor
    if not e.confidence > floor:
        return None
    overdue = days_between(e.anchor, now) - policy.edge_decay_grace_days
    if overdue < policy.edge_decay_window_days:
        return None
    due = math.floor(overdue / policy.edge_decay_window_days)
    applied = e.decay_windows if e.decay_anchor == e.anchor else 0
    if due <= applied:
        return None
    new = max(floor, e.confidence - policy.edge_decay_per_window * (due - applied))
    if not new < e.confidence:
        return None
    return EdgeDecay(e.edge, e.confidence, new, e.anchor, due)


@dataclass(frozen=True)
class LinkRow:
    edge: str
    type: MemoryRelation
    confidence: float
    source: str
    target: str


def prune_victims(
    total: int, candidates: Sequence[LinkRow], cap: int, target: int, batch: int
) -> tuple[list[str], int]:
    """(edge ids to delete this run, how many are due in all)."""
    if cap <= 0 or total <= cap:
        return [], 0
    due = total - target
    prunable = [c for c in candidates if MEMORY_REL_PRUNE_PRIORITY.get(c.type) is not None]
    prunable.sort(
        key=lambda c: (MEMORY_REL_PRUNE_PRIORITY[c.type], c.confidence, c.source, c.target)
    )
    return [c.edge for c in prunable[: min(due, batch)]], due
