"""The entities step's rules: entity merges, edge-confidence decay and relation pruning.

Contract, pure over plain records:

- ``plan_entity_merges`` finds fragmented entities — one's normalised name is the other's name
  or alias (the write path's resolution rule), with compatible types (a person is never a place;
  organisation/product/concept/event/other are loose, as in ``ingest/link/entities``) — groups them,
  keeps the most mentioned (then oldest) as canonical and merges the rest into it, at most
  ``cap`` per run. Entities (or such name groups) whose *name embeddings* are above
  ``threshold`` (kNN pairs, compatible types, the same numbers in both names — "iPhone 14" is
  not "iPhone 15") merge too, without chaining: the best group leads and absorbs every group
  directly similar to it, so each merged name is itself above the threshold to a name of the
  entity it joins. Two entities an undone merge marked ``distinct_from`` each other never merge
  again. The runner records each merge reversibly (SAME_AS).
- ``decay_edge`` is the edge decay: once ``grace`` days have passed since an edge was
  created or last reinforced, its confidence drops linearly by ``per_window`` for every whole
  ``window`` days, never below ``floor`` (and an edge already below the floor is left alone).
  The windows already applied are remembered against the reinforcement time they were counted
  from, so a second run applies nothing twice and a reinforcement starts the count afresh.
- ``prune_victims`` is the relation pruning (``ingest.linking.prune_plan``'s rule) on
  the cheapest prunable candidates the graph returned: above ``cap`` links, delete down to
  ``target``, related_to/co_activated first, then same_entity, then elaborates, lowest confidence
  first; supersedes, contradicts, causes (and merged_into, depends_on) are never candidates.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from kgmem.core.retention import days_between
from kgmem.lifecycle.consolidation.policy import Policy
from kgmem.lifecycle.union_find import UnionFind
from kgmem.taxonomy import MemoryRelation
from kgmem.taxonomy.relation_tables import MEMORY_REL_PRUNE_PRIORITY

# ingest/link/entities.py's rule: spaCy's labels are noisy between these, but not for people/places.
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
    distinct_from: tuple[str, ...] = ()  # entities an undone merge said this one is not

    def apart(self, other: EntityRecord) -> bool:
        return other.id in self.distinct_from or self.id in other.distinct_from

    @property
    def keys(self) -> frozenset[str]:
        return frozenset({self.normalized_name, *self.aliases_norm}) - {""}


@dataclass(frozen=True)
class SimilarEntities:
    """Two entities whose name embeddings GDS kNN found close (cosine similarity)."""

    a: EntityRecord
    b: EntityRecord
    similarity: float


@dataclass(frozen=True)
class EntityMerge:
    canonical: str
    loser: str
    reason: str
    rule: str = "name"  # name | embedding
    similarity: float = 1.0


_NUMBER_RE = re.compile(r"\d+")


def _numbers(name: str) -> frozenset[str]:
    return frozenset(_NUMBER_RE.findall(name))


def _canonical_key(e: EntityRecord) -> tuple[int, str, str]:
    created = e.created_at.isoformat() if e.created_at is not None else "~"
    return (-e.mention_count, created, e.id)


def embedding_match(s: SimilarEntities, threshold: float) -> bool:
    """The embedding rule for one pair: above the threshold, compatible types, same numbers."""
    return (
        s.a.id != s.b.id
        and s.similarity > threshold
        and compatible_types(s.a.type, s.b.type)
        and _numbers(s.a.name) == _numbers(s.b.name)
    )


def plan_entity_merges(
    pairs: Iterable[tuple[EntityRecord, EntityRecord]],
    cap: int,
    similar: Iterable[SimilarEntities] = (),
    threshold: float = 1.0,
) -> tuple[list[EntityMerge], int]:
    """(the merges to make, how many duplicates there were before the cap)."""
    sets = UnionFind()
    find = sets.find
    by_id: dict[str, EntityRecord] = {}
    for a, b in pairs:
        if a.id == b.id or not compatible_types(a.type, b.type) or a.apart(b):
            continue
        if a.normalized_name not in b.keys and b.normalized_name not in a.keys:
            continue
        by_id[a.id], by_id[b.id] = a, b
        sets.union(a.id, b.id)
    close = [s for s in similar if embedding_match(s, threshold) and not s.a.apart(s.b)]
    for s in close:
        by_id.setdefault(s.a.id, s.a)
        by_id.setdefault(s.b.id, s.b)
    groups: dict[str, list[EntityRecord]] = {}
    for eid in sorted(by_id):
        groups.setdefault(find(eid), []).append(by_id[eid])
    canonical = {root: min(group, key=_canonical_key) for root, group in groups.items()}
    # embedding links between name groups, strongest similarity per pair of groups
    links: dict[str, dict[str, float]] = {}
    for s in close:
        ra, rb = find(s.a.id), find(s.b.id)
        if ra == rb:
            continue
        for x, y in ((ra, rb), (rb, ra)):
            links.setdefault(x, {})[y] = max(links.get(x, {}).get(y, -1.0), s.similarity)
    absorbed: dict[str, tuple[str, float]] = {}  # group root -> (leader root, similarity)
    leaders: set[str] = set()
    for root in sorted(groups, key=lambda r: _canonical_key(canonical[r])):
        if root in absorbed:
            continue
        leaders.add(root)
        near = sorted(links.get(root, {}).items(), key=lambda kv: (-kv[1], kv[0]))
        for other, sim in near:
            if other not in absorbed and other not in leaders:
                absorbed[other] = (root, sim)
    merges: list[EntityMerge] = []
    for leader in sorted(leaders):
        head = canonical[leader]
        for loser in sorted(groups[leader], key=lambda e: e.id):
            if loser.id != head.id and not loser.apart(head):
                merges.append(
                    EntityMerge(
                        head.id,
                        loser.id,
                        f"{loser.name!r} is {head.name!r} (same normalised name or alias)",
                    )
                )
        joined = sorted((r for r, (lead, _) in absorbed.items() if lead == leader))
        for root in joined:
            sim = absorbed[root][1]
            for loser in sorted(groups[root], key=lambda e: e.id):
                if loser.apart(head):
                    continue
                merges.append(
                    EntityMerge(
                        head.id,
                        loser.id,
                        f"{loser.name!r} is {head.name!r} (name embeddings at cosine {sim:.3f})",
                        "embedding",
                        round(sim, 6),
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
