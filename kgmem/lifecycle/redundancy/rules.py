"""The redundancy step's rules: near-duplicate clusters → merges, clusters of 5+ → a theme memory.

Contract, pure over plain records: ``plan_clusters`` takes the similar pairs GDS kNN found (cosine
similarity, > 0.9 is redundant), keeps the ``cap`` most similar (50
comparisons per cycle), joins them into connected clusters and decides each one. A cluster whose
mergeable members (not pinned, not immutable — the truth anchors are never consolidated)
number ``theme_min`` or more ("merge clusters of 5+") becomes a theme memory that
absorbs them; a smaller one keeps its best memory — an anchored one first, then the higher
utility (docs/lifecycle.md), importance, accesses, the older — and merges the others into it.
``theme_content`` folds every member's text through write-time synthesis, which never drops a
name, number or date ("preserve ALL specific details"); when one member already says
everything, it is the survivor and no theme is written. Merges are recorded reversibly by the
runner (MERGED_INTO with the loser's previous status and tier). GDS reports cosine kNN
similarity as (1 + cos) / 2; ``cosine_from_gds`` and ``gds_cutoff`` convert.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from kgmem.core.synthesis import synthesize
from kgmem.lifecycle.union_find import UnionFind


def cosine_from_gds(similarity: float) -> float:
    return 2.0 * similarity - 1.0


def gds_cutoff(cosine: float) -> float:
    return (1.0 + cosine) / 2.0


@dataclass(frozen=True)
class DupMember:
    id: str
    utility: float
    importance: float
    access_count: int
    created_at: datetime
    pinned: bool = False
    immutable: bool = False

    @property
    def anchored(self) -> bool:
        return self.pinned or self.immutable


@dataclass(frozen=True)
class SimilarPair:
    a: str
    b: str
    similarity: float  # cosine


@dataclass(frozen=True)
class Cluster:
    """One decision: ``losers`` merge into ``survivor``, or into a new theme when it is None."""

    survivor: str | None
    losers: tuple[str, ...]
    similarity: float  # the strongest pair similarity in the cluster

    @property
    def theme(self) -> bool:
        return self.survivor is None


def _survivor_key(m: DupMember) -> tuple[bool, float, float, int, datetime, str]:
    return (not m.anchored, -m.utility, -m.importance, -m.access_count, m.created_at, m.id)


def _components(pairs: Sequence[SimilarPair]) -> list[tuple[list[str], float]]:
    sets = UnionFind()
    for p in pairs:
        sets.union(p.a, p.b)
    best: dict[str, float] = {}
    for p in pairs:
        root = sets.find(p.a)
        best[root] = max(best.get(root, -1.0), p.similarity)
    groups: dict[str, list[str]] = {}
    for x, root in sets.roots().items():
        groups.setdefault(root, []).append(x)
    return [(sorted(g), best[root]) for root, g in sorted(groups.items())]


def plan_clusters(
    pairs: Iterable[SimilarPair],
    members: Mapping[str, DupMember],
    *,
    threshold: float,
    cap: int,
    theme_min: int,
) -> tuple[list[Cluster], int]:
    """(the merges to make, how many qualifying pairs there were before the cap)."""
    seen: dict[tuple[str, str], float] = {}
    for p in pairs:
        if p.a == p.b or p.a not in members or p.b not in members or not p.similarity > threshold:
            continue
        key = (min(p.a, p.b), max(p.a, p.b))
        seen[key] = max(seen.get(key, -1.0), p.similarity)
    ranked = sorted(seen.items(), key=lambda kv: (-kv[1], kv[0]))
    kept = [SimilarPair(a, b, s) for (a, b), s in ranked[:cap]]
    clusters: list[Cluster] = []
    for ids, sim in _components(kept):
        group = [members[i] for i in ids]
        mergeable = sorted((m for m in group if not m.anchored), key=_survivor_key)
        if len(mergeable) >= theme_min:
            clusters.append(Cluster(None, tuple(m.id for m in mergeable), sim))
            continue
        survivor = min(group, key=_survivor_key)
        losers = tuple(m.id for m in mergeable if m.id != survivor.id)
        if losers:
            clusters.append(Cluster(survivor.id, losers, sim))
    return clusters, len(ranked)


@dataclass(frozen=True)
class ThemeSource:
    """What a theme memory is built from, for one member."""

    id: str
    content: str
    category: str
    created_at: datetime
    embedding: Sequence[float] | None
    entities: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    utility: float = 0.5
    confidence: float = 0.5
    stability: float = 1.0
    access_count: int = 0
    repetition_count: int = 1
    valid_from: datetime | None = None


def theme_content(sources: Sequence[ThemeSource]) -> str:
    """Every member's text merged oldest first, keeping every specific detail."""
    ordered = sorted(sources, key=lambda s: (s.created_at, s.id))
    text = ordered[0].content
    for s in ordered[1:]:
        text = synthesize(text, s.content)
    return text


def covering_member(sources: Sequence[ThemeSource], content: str) -> str | None:
    """The member whose own text is the merged text (it already says everything), if any."""
    for s in sorted(sources, key=lambda s: (s.created_at, s.id)):
        if s.content == content:
            return s.id
    return None


def mean_embedding(vectors: Iterable[Sequence[float] | None]) -> list[float] | None:
    """The normalised mean of the members' (unit) embeddings: the theme's direction."""
    rows = [list(v) for v in vectors if v]
    if not rows or len({len(r) for r in rows}) != 1:
        return None
    mean = [sum(col) / len(rows) for col in zip(*rows, strict=True)]
    norm = math.sqrt(sum(x * x for x in mean))
    return [x / norm for x in mean] if norm > 0 else None


def theme_category(sources: Sequence[ThemeSource]) -> str:
    ordered = sorted(sources, key=lambda s: (s.created_at, s.id))
    counts = Counter(s.category for s in ordered)
    top = max(counts.values())
    return next(s.category for s in ordered if counts[s.category] == top)
